#!/usr/bin/env bash
# The global state buffer's PHS/PVS filtering on e1m2 (many rooms, real visibility data; the
# maps qwmapgen writes see everything everywhere).
. "$(dirname "$0")/lib.sh"
map=$QW_SHARED/quake/id1/maps/e1m2.bsp
[ -f "$map" ] || skip "skipped: $map (the free Quake data, see ../shared/quake/README.md) is missing"
"$1" "$QW_SHARED/quake" e1m2
