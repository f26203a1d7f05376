#!/usr/bin/env bash
# Runs a -tm benchmark on libtm with one LIBTM_ALGO, after checking that the loader really
# picks libtm (skips, exit 77, while libtm is not built yet).
#   tests/run-on-libtm.sh LIBTM_LIB_DIR ALGO PROGRAM [ARGS...]
set -u
libdir=$1 algo=$2; shift 2
program=$1
if [ ! -e "$libdir/libitm.so.1" ]; then
  echo "libtm is not built yet ($libdir/libitm.so.1 is missing): nothing to run on"
  exit 77
fi
loaded=$(env -u LD_LIBRARY_PATH ldd "$program" | awk '$1 == "libitm.so.1" { print $3 }')
if [ "$(readlink -f "$loaded")" != "$(readlink -f "$libdir/libitm.so.1")" ]; then
  echo "$program loads libitm.so.1 from '$loaded', not from $libdir: relink it (make -C libtm/bench clean all)"
  exit 1
fi
echo "running on $loaded with LIBTM_ALGO=$algo"
exec env -u LD_LIBRARY_PATH -u ITM_DEFAULT_METHOD LIBTM_ALGO="$algo" "$@"
