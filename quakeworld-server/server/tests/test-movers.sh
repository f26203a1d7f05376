#!/usr/bin/env bash
# Doors, plats, buttons and targets on e1m2 (the free data has no generated map with brush
# entities; qwmapgen builds single-model maps).
. "$(dirname "$0")/lib.sh"
map=$QW_SHARED/quake/id1/maps/e1m2.bsp
[ -f "$map" ] || skip "skipped: $map (the free Quake data, see ../shared/quake/README.md) is missing"
"$1" "$QW_SHARED/quake"
