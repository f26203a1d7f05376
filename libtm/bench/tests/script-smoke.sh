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
head -n 1 "$csv" | grep -qx 'structure,update,size,threads,runtime,ops_per_s,ops_per_cpu_s,runs,failures,vs_libitm,vs_best_libitm_mutex,time_vs_seq,cpu_share,aborts_per_commit,libtm_mode' \
  || fail "unexpected CSV header: $(head -n 1 "$csv")"
runtimes="libitm libitm-mlwt mutex"
algorithms=$(sed -n 's/^TM_ALGORITHM(\([a-z0-9_]*\), *1).*/libtm-\1/p' "$top/libtm/src/algorithms.def")
[ -e "$top/libtm/lib/libitm.so.1" ] && runtimes="libtm $(echo $algorithms) $runtimes"
# check_rows CSV RUNS STRUCTURE...: a measured row for every structure, thread count and runtime.
check_rows() {
  local csv=$1 want_runs=$2; shift 2
  local structure threads runtime want row size ops cpu_rate runs failures mode want_size
  for structure in "$@"; do
    for threads in 1 2; do
      want=$runtimes; [ "$threads" -eq 1 ] && want="$want seq floor"
      for runtime in $want; do
        row=$(awk -F, -v s="$structure" -v t="$threads" -v r="$runtime" '$1 == s && $4 == t && $5 == r' "$csv")
        [ -n "$row" ] || fail "no row for $structure threads=$threads $runtime"
        IFS=, read -r _ _ size _ _ ops cpu_rate runs failures _ <<<"$row"
        [ -n "$ops" ] && [ -n "$cpu_rate" ] && [ "$runs" = "$want_runs" ] && [ "$failures" = 0 ] || fail "bad row: $row"
        case $structure in list) want_size=256 ;; bank) want_size=1024 ;; travel) want_size=16384 ;;
                           genome) want_size=16384 ;; graph) want_size=32768 ;; esac
        [ "$size" = "$want_size" ] || fail "wrong size in: $row"
        if [ "$runtime" = libtm ]; then
          mode=${row##*,}
          [[ $mode =~ ^(htm|orec|norec|serial):[0-9]+ ]] || fail "no adaptive mode in: $row"
        fi
      done
    done
  done
}
check_rows "$csv" 2 list bank travel
rows=$(($(wc -l <"$csv") - 1))
echo "CSV has $rows rows, all measured"
grep -q '^list ' "$out/libtm-bench.txt" || fail "the table misses the list rows"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  [ -s "$out/libtm-bench.png" ] || fail "no plot although matplotlib is installed"
fi
# The fixed-work programs, with their small inputs.
"$top/scripts/libtm-bench" --structures genome,graph --small-work --threads 1,2 --repeat 1 \
  --no-plot --results "$out/fixed" >/dev/null || fail "libtm-bench --small-work exited $?"
check_rows "$out/fixed/libtm-bench.csv" 1 genome graph
# Quick runs never write over the tracked results.
before=$(stat -c %Y "$top/results/libtm-bench.csv" 2>/dev/null)
"$top/scripts/libtm-bench" --small --structures hashset --threads 1 --duration 0.05 --no-plot \
  >/dev/null 2>&1 || fail "libtm-bench --small exited $?"
[ -s "$top/build/libtm-bench-small/libtm-bench.csv" ] || fail "--small did not write build/libtm-bench-small/"
[ "$(stat -c %Y "$top/results/libtm-bench.csv" 2>/dev/null)" = "$before" ] || fail "--small touched results/"
echo "libtm-bench script: ok"
