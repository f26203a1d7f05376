#!/usr/bin/env bash
# Repeats libtm's rare-failure tests many times (make -C libtm stress; a short form runs in
# make check). See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: libtm/tests/stress.sh [OPTIONS] TESTS_DIR
Repeats the tests whose failures are rare races, on the programs in TESTS_DIR
(build/obj/libtm-tests), and stops at the first failure with its output.

  --runs N           privatization runs per configuration (default 10000)
  --seconds S        freed-block-readers seconds per configuration (default 60; 0 skips it)
  --algos "A B"      configurations: LIBTM_ALGO values, "default" for none
                     (default "orec norec default")
  --args "..."       extra privatization options (default none; the short form in make
                     check uses --rounds=3000 --worker-tx=1000000 --background-reads=64,
                     which make the race that the orec fix closed about 1 % likely per run)
  -h, --help         this text

On a CPU with RTM every configuration also runs with LIBTM_HTM=0. Progress goes to stderr
every 5 %. Exit status: 0 all passed, 1 a run failed, 2 bad usage.
EOF
}

runs=10000 seconds=60 algos="orec norec default" args=""
while [ $# -gt 0 ]; do
  case $1 in
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --algos) algos=${2:?--algos needs a list}; shift 2 ;;
    --args) args=${2-}; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "stress.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || { echo "stress.sh: give the tests directory (see --help)" >&2; exit 2; }
dir=$1
for p in privatization freed-block-readers; do
  [ -x "$dir/$p" ] || { echo "stress.sh: $dir/$p is missing: run make -C libtm first" >&2; exit 2; }
done
case $runs$seconds in *[!0-9]*) echo "stress.sh: --runs and --seconds take whole numbers" >&2; exit 2 ;; esac

htm_settings=("")
grep -qw rtm /proc/cpuinfo && htm_settings=("" "LIBTM_HTM=0")
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# run_env ALGO HTM -- COMMAND...: the command with LIBTM_ALGO and LIBTM_HTM as asked.
run_env() {
  local algo=$1 htm=$2; shift 3
  local env_args=()
  [ "$algo" = default ] || env_args+=("LIBTM_ALGO=$algo")
  [ -z "$htm" ] || env_args+=("$htm")
  env "${env_args[@]}" "$@"
}

for algo in $algos; do
  for htm in "${htm_settings[@]}"; do
    what="privatization, $algo${htm:+, $htm}"
    step=$(( runs / 20 > 0 ? runs / 20 : 1 ))
    for ((i = 1; i <= runs; i++)); do
      # shellcheck disable=SC2086
      if ! run_env "$algo" "$htm" -- "$dir/privatization" $args >"$log" 2>&1; then
        echo "stress.sh: $what: run $i of $runs failed:" >&2
        cat "$log" >&2
        exit 1
      fi
      (( i % step == 0 || i == runs )) && echo "stress.sh: $what: $i/$runs runs passed" >&2
    done
    if [ "$seconds" -gt 0 ]; then
      if ! run_env "$algo" "$htm" -- "$dir/freed-block-readers" --seconds="$seconds" >"$log" 2>&1; then
        echo "stress.sh: freed-block-readers, $algo${htm:+, $htm}, $seconds s: failed:" >&2
        cat "$log" >&2
        exit 1
      fi
      echo "stress.sh: freed-block-readers, $algo${htm:+, $htm}: $(grep -o '[0-9]* blocks of.*' "$log" | head -1)" >&2
    fi
  done
done
echo "stress.sh: every run passed ($runs privatization runs and ${seconds} s of freed-block-readers per configuration: $algos)"
