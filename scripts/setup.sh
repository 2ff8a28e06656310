#!/usr/bin/env bash
# Installs what braggview needs from Debian 12's own packages. Idempotent: when every
# package is already present it only checks and returns within a second or two.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  qt6-base-dev libqt6opengl6-dev libqcustomplot-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  glslang-tools libglm-dev
  xvfb xauth
  clang libclang-rt-14-dev   # scripts/fuzz.sh: libFuzzer and the sanitizer runtimes
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
