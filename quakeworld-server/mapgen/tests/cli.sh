#!/usr/bin/env bash
# qwmapgen's command line: folders are created, the same seed gives the same file, a different
# seed a different one, and bad options fail with exit 2 and a message naming the option.
set -u
mapgen=$1
dir=$(mktemp -d "${QW_TMPDIR:-/tmp}/qwmapgen-cli.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
fail=0
check() { if ! eval "$1"; then echo "FAIL: $2"; fail=1; else echo "ok: $2"; fi; }

"$mapgen" -o "$dir/a/id1/maps/arena.bsp" --seed 3 >"$dir/out1" || { echo "FAIL: qwmapgen failed"; exit 1; }
"$mapgen" -o "$dir/b.bsp" --seed 3 >/dev/null
"$mapgen" -o "$dir/c.bsp" --seed 4 >/dev/null
check '[ -s "$dir/a/id1/maps/arena.bsp" ]' "output folders are created"
check 'cmp -s "$dir/a/id1/maps/arena.bsp" "$dir/b.bsp"' "same seed, same file"
check '! cmp -s "$dir/b.bsp" "$dir/c.bsp"' "other seed, other file"
check 'grep -q "checksum2 [0-9]" "$dir/out1"' "prints the checksums"
check '[ "$(head -c 4 "$dir/b.bsp" | od -An -tu4 | tr -d " ")" = 29 ]' "BSP version 29"
"$mapgen" -o "$dir/t.bsp" --size 1536 --spawns 32 --launchers 8 --teleporters 24 \
    --teleport-destinations 1 >"$dir/out2"
check '[ $? -eq 0 ] && grep -q "checksum2 [0-9]" "$dir/out2"' "launchers and teleporters (the benchmarks' map): $(cat "$dir/out2")"
check '[ "$(grep -a -o "\"trigger_teleport\"" "$dir/t.bsp" | wc -l)" = 24 ] && [ "$(grep -a -o "\"model\" \"\*[0-9]*\"" "$dir/t.bsp" | sort -u | wc -l)" = 24 ]' "24 trigger_teleport pads on brush models *1..*24"

bad() {   # expected-text, args...
    local want=$1; shift
    "$mapgen" "$@" >"$dir/stdout" 2>"$dir/stderr"
    local rc=$?
    check '[ $rc -ne 0 ] && grep -q -- "$want" "$dir/stderr"' "rejects $* (exit $rc): $(head -n 1 "$dir/stderr")"
}
bad "-o FILE.bsp is required"
bad "--size" -o "$dir/x.bsp" --size 12
bad "--height" -o "$dir/x.bsp" --height abc
bad "--box" -o "$dir/x.bsp" --box 1,2,3
bad "outside the room" -o "$dir/x.bsp" --box 0,0,0,5000,10,10
bad "fewer --pillars" -o "$dir/x.bsp" --size 256 --pillars 30
bad "unexpected argument" -o "$dir/x.bsp" extra
bad "--teleporters needs a whole number from 0 to 32" -o "$dir/x.bsp" --teleporters 33
bad "--launchers needs a whole number from 0 to 128" -o "$dir/x.bsp" --launchers -1
bad "--teleport-destinations must be 1..--teleporters (4)" -o "$dir/x.bsp" --teleporters 4 \
    --teleport-destinations 5
bad "no free spot left for trigger_teleport" -o "$dir/x.bsp" --size 512 --pillars 0 --crates 0 \
    --teleporters 32
bad "cannot" -o /proc/nonexistent/x.bsp
check '"$mapgen" --help | grep -q -- "--pillars"' "--help describes the options"
check '"$mapgen" --help | grep -q -- "--teleport-destinations M"' "--help describes --launchers, --teleporters, --teleport-destinations"
exit $fail
