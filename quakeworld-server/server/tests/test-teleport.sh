#!/usr/bin/env bash
# Teleporters on a qwmapgen arena made with --teleporters (its pads are brush models *1..*4,
# two pads per destination; no pillars or crates, so the floor beside every pad is free),
# and on lqdm2 (the free maps have them) when ../shared/quake holds it.
. "$(dirname "$0")/lib.sh"
[ -x "$QW_BIN/qwmapgen" ] || skip "skipped: build/bin/qwmapgen is not built (needed for the teleporter arena)"
"$QW_BIN/qwmapgen" -o "$tmp/base/id1/maps/pads.bsp" --pillars 0 --crates 0 --teleporters 4 \
    --teleport-destinations 2 --launchers 2 >"$tmp/mapgen.log" 2>&1 ||
    fail "qwmapgen: $(cat "$tmp/mapgen.log")"
"$1" "$tmp/base" pads 4 || fail "teleporters on the qwmapgen arena"
if [ -f "$QW_SHARED/quake/id1/maps/lqdm2.bsp" ]; then
    "$1" "$QW_SHARED/quake" lqdm2 || fail "teleporters on lqdm2"
else
    echo "note: $QW_SHARED/quake/id1/maps/lqdm2.bsp is missing: lqdm2 not tested"
fi
