#!/usr/bin/env bash
# qwsv-stats accounts for every moment of each thread (issue 29): on every line (each interval,
# the final one, each thread and the totals) the parts of a thread's time add up to its
# total_ms -- receive + U, the serial phase, job planning, RP, S, both barriers' waits and what
# lies between the phases -- and each part's own parts fit in it (a move command's useful
# work, entry, lock wait and aborted attempts in RP; the barriers' spinning and sleeping in
# their waits; the virtual clients' work in receive and S; the commands run in libtm's serial
# turns in the commands' work); the totals line is the sum of the threads' (their time lines
# and their CPU times). Virtual clients
# of the shipped fight in closed loop, 2 threads, in -sync lock, stm and -sched lpt -sync none
# (which has a serial phase and job planning), and 1 thread stm. Sums, not speeds: nothing
# here depends on how fast the machine is. Usage: test-accounting.sh PORT
. "$(dirname "$0")/lib.sh"
port=${1:-27571}
trace=$(cd "$(dirname "$0")/../../../clients/qwbot/traces" && pwd)/fight-8x2000.trace
[ -f "$trace" ] || fail "the shipped trace $trace is missing"
pick_map --size 1536 --spawns 32 --launchers 8 --teleporters 24 --teleport-destinations 1

# check LOG: every qwsv-stats line's sums; prints the number of lines checked, or FAIL lines
check() {
    awk '
    function v(k) { if (!(k in f)) { print "FAIL: no " k " in: " $0; bad = 1 } return f[k] + 0 }
    # 0.0005 ms of rounding per printed term, and the tick rate read once per line
    function near(a, b, terms) { return a - b <= terms * 0.0005 + 1e-5 * (a > b ? a : b) + 1e-9 &&
                                        b - a <= terms * 0.0005 + 1e-5 * (a > b ? a : b) + 1e-9 }
    function within(part, whole, terms) { return part <= whole + terms * 0.0005 + 1e-5 * whole }
    function need(ok, what) { if (!ok) { print "FAIL: " what " in: " $0; bad = 1 } }
    /^qwsv-stats / {
        delete f
        for (i = 2; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
        total = v("total_ms")
        sum = v("idle_ms") + v("u_ms") + v("serial_ms") + v("jobs_ms") + v("rp_ms") + v("s_ms")
        sum += v("wait_serial_ms") + v("wait_rp_ms") + v("other_ms")
        need(near(sum, total, 10), "the parts (" sum " ms) do not add up to total_ms")
        need(near(v("wait_serial_ms") + v("wait_rp_ms"), v("wait_ms"), 3), "wait_ms is not both barriers")
        need(within(v("wait_serial_spin_ms") + v("wait_serial_sleep_ms"), v("wait_serial_ms"), 3),
             "the serial barrier spun and slept longer than it waited")
        need(within(v("wait_rp_spin_ms") + v("wait_rp_sleep_ms"), v("wait_rp_ms"), 3),
             "the RP barrier spun and slept longer than it waited")
        need(within(v("cmd_ms") + v("cmd_entry_ms") + v("cmd_aborted_ms"), v("rp_ms"), 4),
             "the move commands took longer than RP")
        need(within(v("cmd_lock_wait_ms"), v("cmd_entry_ms"), 2), "a lock wait longer than the entry")
        need(within(v("cmd_lock_wait_ms"), v("lock_wait_ms"), 2), "the commands waited longer than all")
        need(within(v("cmd_serial_ms"), v("cmd_ms"), 2), "serial turns longer than the commands")
        need(v("cmd_serial") <= v("commands"), "more serial commands than commands")
        need(within(v("idle_replay_ms"), v("idle_ms"), 2), "virtual clients longer than receive")
        need(within(v("replay_ms") - v("idle_replay_ms"), v("s_ms"), 3), "virtual clients longer than S")
        need(v("other_ms") >= 0 && v("total_ms") > 0, "a negative or empty time")
        # a print is its threads lines, then the totals line
        if (f["thread"] == "all") {
            need(near(threads_total, total, 10 * f["threads"]), "the threads do not add up to the totals line")
            need(f["threads"] == seen, "not one line per thread")
            need(near(threads_cpu, v("thread_cpu_ms"), 2 * f["threads"]), "the threads CPU times do not add up")
            threads_total = threads_cpu = seen = 0
        } else {
            threads_total += total; threads_cpu += v("thread_cpu_ms"); seen++
        }
        lines++
    }
    END { if (!bad) print lines }' "$1"
}

run() { # run NAME QWSV-OPTIONS...: one replayed run, then its lines checked
    local name=$1; shift
    start_server "$port" -maxclients 16 -stats 0.5 -replay "$trace" -quitafter 2.5 "$@"
    wait "$server_pid" || fail "$name: qwsv exited with $?"
    server_pid=
    cp "$tmp/server.log" "$tmp/$name.log"
    local out
    out=$(check "$tmp/$name.log")
    [[ $out =~ ^[0-9]+$ ]] || { echo "$out" | cut -c1-400 | head -5; fail "$name: the accounting does not add up"; }
    [ "$out" -ge 6 ] || fail "$name: only $out qwsv-stats lines"
    local final
    final=$(grep "^qwsv-stats scope=final thread=all" "$tmp/$name.log")
    [ "$(tr ' ' '\n' <<<"$final" | sed -n 's/^commands=//p')" -gt 1000 ] || fail "$name: few commands: $final"
    echo "ok: $name: $out lines add up ($(tr ' ' '\n' <<<"$final" | grep -E '^(total_ms|rp_ms|s_ms|wait_ms|other_ms)=' | paste -sd' '))"
}

run lock-2 -threads 2 -sync lock
run lpt-none-2 -threads 2 -sched lpt -sync none
run stm-2 -threads 2 -sync stm
run stm-1 -threads 1 -sync stm
grep -q " serial_ms=0.000 " <(grep "^qwsv-stats scope=final thread=all" "$tmp/lpt-none-2.log") &&
    grep -q " jobs_ms=0.000 " <(grep "^qwsv-stats scope=final thread=all" "$tmp/lpt-none-2.log") &&
    fail "-sched lpt planned no jobs"
echo "ok: the parts of every thread's time add up to its total"
