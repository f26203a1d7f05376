#!/usr/bin/env bash
# The Quake scripts behave like commands: --help and -h print their usage and exit 0, an
# unknown option is refused with exit 2 and says so (nothing runs, nothing is written).
. "$(dirname "$0")/lib.sh"
scripts=$(cd "$(dirname "$0")/../../../scripts" && pwd)
py=/usr/bin/python3
check() {   # check NAME COMMAND...: the command with --help, -h and --frobnicate
    local name=$1; shift
    for h in --help -h; do
        "$@" "$h" >"$tmp/out" 2>&1 || fail "$name $h exited $?: $(head -3 "$tmp/out")"
        grep -qi "usage\|$name" "$tmp/out" || fail "$name $h printed no usage: $(head -3 "$tmp/out")"
    done
    "$@" --frobnicate >"$tmp/out" 2>&1
    local rc=$?
    [ $rc = 2 ] || fail "$name --frobnicate exited $rc, expected 2: $(head -3 "$tmp/out")"
    grep -q -- "--frobnicate" "$tmp/out" || fail "$name does not name the unknown option"
}
check demo "$scripts/demo"
check quake-bench "$scripts/quake-bench"
check ezquake-screenshot "$scripts/ezquake-screenshot"
check plot-quake-bench "$py" "$scripts/plot-quake-bench.py"
check plot-quake-sched "$py" "$scripts/plot-quake-sched.py"
"$py" "$scripts/atomic-quake-report.py" --help >"$tmp/out" 2>&1 || fail "atomic-quake-report --help failed"
grep -q "report CSV" "$tmp/out" || fail "atomic-quake-report --help printed no usage"
"$py" "$scripts/atomic-quake-report.py" report --frobnicate >"$tmp/out" 2>&1
[ $? = 2 ] || fail "atomic-quake-report report --frobnicate was accepted"
# The report of a run without -waitall (--quick): no empty third panel; forced norec named.
head -1 "$scripts/../results/atomic-quake.csv" >"$tmp/aq.csv"
head -1 "$scripts/../results/atomic-quake-blocks.csv" >"$tmp/aq-blocks.csv"
for t in 1 2; do
    for m in lock stm-norec; do
        echo "R1,d,quick,qwsv,oneroom,f,24,$t,$m,0,0,closed,1,1000,1000,1000,0.2,0.3,0.4,5,5,1000,1000,1,1.0,libtm,,,,,,,,ok" >>"$tmp/aq.csv"
    done
    echo "R1,d,quick,qwsv,oneroom,f,24,$t,stm-norec,0,1,closed,1,900,900,900,0.2,0.3,0.4,5,5,900,900,1,1.1,libtm,900,9,0,0.99,0,0,0,ok" >>"$tmp/aq.csv"
    echo "R1,oneroom,$t,stm-norec,0,net/inbox.c:26,run_command,900,9,0,0,0,2,90000,33,1000,9000,24,120,900" >>"$tmp/aq-blocks.csv"
done
"$py" "$scripts/atomic-quake-report.py" report "$tmp/aq.csv" "$tmp/aq-blocks.csv" "$tmp/aq" \
    >"$tmp/out" 2>&1 || fail "atomic-quake-report report failed: $(tail -3 "$tmp/out")"
grep -q "STM (LIBTM_ALGO=norec) *2 *900 *9 " "$tmp/aq.txt" || fail "the report has no norec row in Table 1"
if "$py" -c 'import matplotlib' 2>/dev/null; then
    panels=$("$py" -c 'import struct, sys; d = open(sys.argv[1], "rb").read(24); print(round(struct.unpack(">I", d[16:20])[0] / 90 / 5.7))' "$tmp/aq.png")
    [ "$panels" = 2 ] || fail "the figure of a run without -waitall has $panels panels per map, expected 2"
fi
# The --sched table judges the goals at 2 threads on lqdm6 from the medians of the rounds.
sched_header="run,date,map,bots,threads,sched,sync,speed,duration_s,load_avg,commands,server_cpu_s,cpu_ms_per_1000_commands,busy_frames,fps,msgs_per_frame,msgs_per_s,jobs_per_frame,weight_max,weight_mean,all_busy_share,work_balance,start_skew_ms,deferred_per_frame,replies,rtt_p50_ms,rtt_p99_ms,status"
{
    echo "$sched_header"
    for cpu in 9.0 10.0 11.0; do
        echo "R1,d,lqdm6,160,2,lpt,none,1,7,0.5,90000,0.9,$cpu,900,130,90,12000,12,15,7,0.60,0.90,0.01,1,12000,1,3,ok"
    done
    echo "R1,d,lqdm6,160,2,static,lock,1,7,0.5,90000,0.9,9.5,900,130,90,12000,2,45,44,0.30,0.80,0.01,0,12000,1,3,ok"
    echo "R1,d,lqdm6,160,2,static,stm,1,7,0.5,90000,0.9,12.0,900,130,90,12000,2,45,44,0.35,0.85,0.01,0,12000,1,3,ok"
} >"$tmp/sched.csv"
"$py" "$scripts/plot-quake-sched.py" "$tmp/sched.csv" "$tmp/sched.png" --table "$tmp/sched.txt" \
    --no-plot >"$tmp/out" 2>&1 || fail "plot-quake-sched failed: $(tail -3 "$tmp/out")"
grep -q "lpt 10.00 ms vs the best static mode (static, lock) 9.50 ms: not met" "$tmp/sched.txt" ||
    fail "the CPU goal is not judged on the median: $(grep -A3 Goals "$tmp/sched.txt")"
grep -q "busy 60% of the request phase (goal >= 55 %): met" "$tmp/sched.txt" ||
    fail "the all-busy goal is not judged: $(grep -A3 Goals "$tmp/sched.txt")"
echo "ok"
