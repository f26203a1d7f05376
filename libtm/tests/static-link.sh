#!/usr/bin/env bash
# gcc -fgnu-tm -static links libtm's libitm.a (the driver adds -litm, which must find an
# archive for static links) and the program runs on libtm: transactions, a cancel, threads.
#   static-link.sh LIBTM_DIR
set -u
libtm_dir=${1:?usage: static-link.sh LIBTM_DIR}
if [ ! -f "$libtm_dir/libitm.a" ]; then
    echo "SKIP: $libtm_dir/libitm.a is not built yet (make -C libtm)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/program.c" <<'PROGRAM'
#include <pthread.h>
#include <stdio.h>
#include <string.h>
extern const char *_ITM_libraryVersion(void);
static long accounts[4] = { 100, 100, 100, 100 };
static void *worker(void *arg)
{
    long index = (long)arg;
    for (int i = 0; i < 10000; i++) {
        __transaction_atomic {
            accounts[(i + index) % 4] -= 1;
            accounts[(i + index + 1) % 4] += 1;
        }
        __transaction_atomic {
            accounts[0] = 12345;
            __transaction_cancel;
        }
    }
    return NULL;
}
int main(void)
{
    pthread_t threads[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&threads[i], NULL, worker, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(threads[i], NULL);
    long total = accounts[0] + accounts[1] + accounts[2] + accounts[3];
    printf("%s|%ld\n", _ITM_libraryVersion(), total);
    return total == 400 ? 0 : 1;
}
PROGRAM
if ! gcc -std=gnu11 -O2 -Wall -Wextra -fgnu-tm -fno-tree-loop-distribute-patterns -static \
        -pthread "$work/program.c" -o "$work/program" -L"$libtm_dir" 2>"$work/link.log"; then
    if grep -q 'cannot find -lc\b\|cannot find -lpthread' "$work/link.log"; then
        echo "SKIP: static glibc is not installed (libc6-dev provides libc.a)"; exit 77
    fi
    echo "FAIL: gcc -fgnu-tm -static -L$libtm_dir does not link:"
    sed 's/^/    /' "$work/link.log"
    exit 1
fi
if readelf -dW "$work/program" 2>/dev/null | grep -q NEEDED; then
    echo "FAIL: the -static program still needs shared libraries"
    exit 1
fi
output=$("$work/program")
status=$?
echo "static program: $output (status $status)"
case $output in
    "GNU libitm"*) echo "FAIL: the static program contains GCC's libitm, not libtm's libitm.a"; exit 1 ;;
esac
[ "$status" -eq 0 ] || { echo "FAIL: the static program's transactions broke the invariant"; exit 1; }
echo "static link against libtm's libitm.a works"
