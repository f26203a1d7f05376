#!/usr/bin/env bash
# Installs the Debian packages the project builds, tests and benchmarks with. See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/deps.sh [--desktop]
Installs the Debian packages that the project builds, tests and benchmarks with (make check
runs it). Idempotent: only missing packages are installed, and with none missing it does
nothing. Installing needs root (CI runs it as root); as another user it lists what is missing.

  --desktop    also the real ezquake client under Xvfb (scripts/ezquake-screenshot)
  -h, --help   this text
EOF
}

desktop=0
while [ $# -gt 0 ]; do
  case $1 in
    --desktop) desktop=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "deps.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done

packages=(
  # toolchain and libtm (its man pages are checked with groff, man, lexgrog and mandoc)
  gcc g++ make binutils pkg-config valgrind libcmocka-dev groff-base man-db mandoc
  # Quake server, bots, real QuakeWorld peers, fuzzing
  libevent-dev zlib1g-dev qstat mvdsv ktx clang libclang-rt-14-dev
  # QuakeC compiler for the progs interpreter's test programs
  fteqcc
  # qwsv's hashed rcon (SHA-1, as mvdsv and ezQuake do it)
  nettle-dev
  # Apache module and its workload
  apache2 apache2-dev libapr1-dev libaprutil1-dev siege man2html curl
  # plots (Debian's python3, /usr/bin/python3)
  python3-matplotlib
)
if [ $desktop = 1 ]; then
  packages+=(ezquake xvfb libgl1-mesa-dri xdotool imagemagick)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "deps.sh: missing Debian packages: ${missing[*]}" >&2
  echo "deps.sh: run 'sudo scripts/deps.sh' (or as root) to install them" >&2
  exit 1
fi
echo "deps.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# policy-rc.d keeps apt from starting the system's apache2 on port 80: tests run private instances.
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod +x /usr/sbin/policy-rc.d
  trap 'rm -f /usr/sbin/policy-rc.d' EXIT
fi
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
