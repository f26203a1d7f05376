#!/usr/bin/env bash
# Teleporters on lqdm2 (the free maps have them; qwmapgen's arena does not).
. "$(dirname "$0")/lib.sh"
[ -f "$QW_SHARED/quake/id1/maps/lqdm2.bsp" ] || skip "skipped: $QW_SHARED/quake/id1/maps/lqdm2.bsp is missing"
"$1" "$QW_SHARED/quake" lqdm2
