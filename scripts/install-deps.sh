#!/usr/bin/env bash
# Installs what tlec needs to build and test, from Debian packages, skipping what is
# already there. The CUDA toolkit is not a Debian package here: it is expected under
# /usr/local/cuda and only reported.
set -euo pipefail

packages=(
  cmake ninja-build g++ lld ccache python3
  antlr4 libantlr4-runtime-dev uuid-dev default-jre-headless
  libspdlog-dev libfmt-dev libcxxopts-dev doctest-dev
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  clang-19 libclang-rt-19-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
else
  echo "install-deps: all Debian packages present"
fi

if [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "install-deps: CUDA toolkit: $(/usr/local/cuda/bin/nvcc --version | tail -n 2 | head -n 1)"
else
  echo "install-deps: CUDA toolkit not found under /usr/local/cuda (needed only for GPU code generation, later)"
fi
