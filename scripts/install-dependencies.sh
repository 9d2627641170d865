#!/usr/bin/env bash
# Installs what iclproof needs from Debian's packages, only what is missing (idempotent, quiet).
# Run as root on Debian bookworm. Usage: install-dependencies.sh [core|all]
#   core: compilers (g++; clang for the libFuzzer harness), CMake, C++ libraries, Coq +
#         mathcomp + Interval, LibTorch, chromium for the headless render of report.html and
#         python3-jsonschema to validate report.json independently, pybind11, numpy, pytest,
#         the Python headers and python3-torch for the Python package iclproof and its tests
#         (docs/python.md; python3-torch reads a state_dict there), slurm-wlm and munge for the
#         test of the Slurm scripts against a live one-node Slurm (tests/slurm/live_slurm.sh, which
#         starts its own daemons on loopback; the packages' own services are not configured)
#         (everything the build and the test suite need)
#   all:  core (python3-torch, once only here for the trainer's speed comparison against
#         PyTorch, is in core now; the name is kept for the scripts that ask for it)
set -euo pipefail
set_name=${1:-core}
packages=(
  build-essential cmake pkg-config git clang-format clang libclang-rt-14-dev
  libeigen3-dev libboost-dev libmpfr-dev libgmp-dev libmpfi-dev libflint-arb-dev libflint-dev
  librapidcheck-dev catch2 libcli11-dev nlohmann-json3-dev libfmt-dev libbenchmark-dev
  gnuplot-nox
  coq libcoq-mathcomp-ssreflect libcoq-mathcomp-algebra libcoq-mathcomp-field
  libcoq-mathcomp-algebra-tactics libcoq-interval libcoq-coquelicot libcoq-flocq
  libtorch-dev chromium python3-jsonschema
  pybind11-dev python3-pybind11 python3-numpy python3-pytest python3-dev python3-torch
  slurm-wlm munge
)
if [ "$set_name" = all ]; then
  packages+=(python3-torch)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "iclproof: all ${#packages[@]} Debian packages present"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "iclproof: error: missing packages (${missing[*]}); run as root to install them" >&2
  exit 1
fi
echo "iclproof: installing ${#missing[@]} Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "iclproof: packages installed"
