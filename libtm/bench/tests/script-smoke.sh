#!/usr/bin/env bash
# Runs scripts/libtm-bench on a tiny configuration into a scratch folder and checks what it
# writes (never the numbers themselves).   tests/script-smoke.sh TOP SCRATCH_DIR
set -u
top=$1 out=$2
rm -rf "$out"; mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }

"$top/scripts/libtm-bench" --threads 0 --results "$out" >/dev/null 2>&1
[ $? -eq 2 ] || fail "libtm-bench accepted --threads 0"

"$top/scripts/libtm-bench" --structures list,bank,travel --updates 20 --threads 1,2 --duration 0.1 \
  --repeat 2 --results "$out" || fail "libtm-bench exited $?"

csv="$out/libtm-bench.csv"
[ -s "$csv" ] || fail "$csv was not written"
grep -v '^#' "$csv" | head -n 1 | grep -qx 'structure,update,threads,runtime,round,status,size,ops,seconds,ops_per_s,cpu_s,commits,aborts,commits_by_mode' \
  || fail "unexpected CSV header: $(grep -v '^#' "$csv" | head -n 1)"
grep -qx '# rounds: 2' "$csv" || fail "the CSV does not say how many rounds ran"
runtimes="libitm libitm-mlwt mutex"
algorithms=$("$top/libtm/tools/libtm-stats" --list speculative-algorithms | sed 's/^/libtm-/')
[ -e "$top/libtm/lib/libitm.so.1" ] && runtimes="libtm $(echo $algorithms) $runtimes"
# check_rows CSV ROUNDS STRUCTURE...: one measured row per round for every structure, thread
# count and runtime.
check_rows() {
  local csv=$1 want_rounds=$2; shift 2
  local structure threads runtime want rows round status size ops ops_per_s cpu_s modes want_size
  for structure in "$@"; do
    for threads in 1 2; do
      want=$runtimes; [ "$threads" -eq 1 ] && want="$want seq floor"
      for runtime in $want; do
        rows=$(awk -F, -v s="$structure" -v t="$threads" -v r="$runtime" '$1 == s && $3 == t && $4 == r' "$csv")
        [ "$(echo "$rows" | grep -c .)" = "$want_rounds" ] || fail "not one row per round for $structure threads=$threads $runtime: $rows"
        while IFS=, read -r _ _ _ _ round status size ops _ ops_per_s cpu_s _ _ modes; do
          [ "$status" = ok ] && [ -n "$ops" ] && [ -n "$ops_per_s" ] && [ -n "$cpu_s" ] || fail "bad row (round $round): $rows"
          case $structure in list) want_size=256 ;; bank) want_size=1024 ;; travel) want_size=16384 ;;
                             genome) want_size=16384 ;; graph) want_size=32768 ;; esac
          [ "$size" = "$want_size" ] || fail "wrong size in: $rows"
          if [ "$runtime" = libtm ]; then
            [[ $modes =~ ^(htm|orec|norec|serial):[0-9.]+( |$) ]] || fail "no modes of the adaptive default in: $rows"
          fi
        done <<<"$rows"
      done
    done
  done
}
check_rows "$csv" 2 list bank travel
echo "CSV has $(grep -vc '^#' "$csv") lines, every run measured"
grep -q '^list ' "$out/libtm-bench.txt" || fail "the table misses the list rows"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  [ -s "$out/libtm-bench.png" ] || fail "no plot although matplotlib is installed"
fi
# The fixed-work programs, with their small inputs.
"$top/scripts/libtm-bench" --structures genome,graph --small-work --threads 1,2 --repeat 1 \
  --no-plot --results "$out/fixed" >/dev/null || fail "libtm-bench --small-work exited $?"
check_rows "$out/fixed/libtm-bench.csv" 1 genome graph
# The policy study: 2 threads against 1, libtm's default against GCC's libitm.
"$top/scripts/libtm-bench" --policy --small-work --structures graph --repeat 1 --no-plot \
  --results "$out/policy" >/dev/null || fail "libtm-bench --policy exited $?"
grep -qx '# study: policy' "$out/policy/libtm-bench-policy.csv" || fail "the policy CSV does not say its study"
for runtime in libtm libitm; do
  grep -Eq "^graph +$runtime +[0-9.]+ +[0-9.]+ +[0-9.]+ " "$out/policy/libtm-bench-policy.txt" \
    || fail "the policy table has no time ratio of $runtime on graph"
done
# Quick runs never write over the tracked results.
before=$(stat -c %Y "$top/results/libtm-bench.csv" 2>/dev/null)
"$top/scripts/libtm-bench" --small --structures hashset --threads 1 --duration 0.05 --no-plot \
  >/dev/null 2>&1 || fail "libtm-bench --small exited $?"
[ -s "$top/build/libtm-bench-small/libtm-bench.csv" ] || fail "--small did not write build/libtm-bench-small/"
[ "$(stat -c %Y "$top/results/libtm-bench.csv" 2>/dev/null)" = "$before" ] || fail "--small touched results/"
# The size counter: RUNTIME+MODE runtimes and the closed/open against flat table.
"$top/scripts/libtm-bench" --size-counter --runtimes libtm+flat,libtm+closed,libtm+open,mutex+flat \
  --threads 1,2 --updates 50 --duration 0.05 --repeat 1 --results "$out" --no-plot >"$out/size.log" 2>&1 \
  || fail "libtm-bench --size-counter exited $?: $(tail -n 3 "$out/size.log")"
size_csv="$out/libtm-bench-size-counter.csv"
for runtime in libtm+flat libtm+closed libtm+open mutex+flat; do
  for threads in 1 2; do
    row=$(awk -F, -v t="$threads" -v r="$runtime" '$1 == "hashset" && $3 == t && $4 == r' "$size_csv")
    IFS=, read -r _ _ _ _ _ status _ ops _ <<<"$row"
    [ "$status" = ok ] && [ -n "$ops" ] || fail "no measured row for $runtime threads=$threads in $size_csv"
  done
done
grep -q '^hashset *50 *2 libtm ' "$out/libtm-bench-size-counter.txt" \
  || fail "the size-counter table misses libtm at 2 threads"
echo "libtm-bench script: ok"
