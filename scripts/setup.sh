#!/usr/bin/env bash
# Installs what braggview needs from Debian 12's own packages. Idempotent: when every
# package is already present it only checks and returns within a second or two.
set -euo pipefail

packages=(
  build-essential cmake pkg-config
  qt6-base-dev libqt6opengl6-dev libqcustomplot-dev
  libvulkan-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools
  glslang-tools libglm-dev
  nlohmann-json3-dev         # JSON: job and session files, DIALS experiment lists
  xvfb xauth
  locales   # the tests check that numbers parse the same under a comma-decimal locale
  clang libclang-rt-14-dev   # scripts/fuzz.sh: libFuzzer and the sanitizer runtimes
  lld                        # links the ASan test suites 4 times faster than ld.bfd (CMakeLists.txt)
  dials                      # tests/dials: DIALS indexes the simulated series (236 MB, ~3 min)
  pybind11-dev python3-dev python3-numpy   # python/: the module braggview and its tests
  libhdf5-dev                # -nexusfile: NeXus/NXmx files (HDF5's C library)
  bitshuffle hdf5-filter-plugin  # HDF5's bitshuffle/LZ4 filter (bitshuffle has the plugin)
  python3-h5py               # tests/nexus read the NeXus files back
  libopenmpi-dev openmpi-bin # mpirun shards a batch's frames over processes (tests/mpi)
  libceres-dev               # -refine: least squares against a measured frame (Ceres Solver)
  gemmi-dev tao-pegtl-dev libstb-dev  # -mtz, -sfcif, -model: gemmi (header-only) and its parsers
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# a comma-decimal locale for the tests that check number parsing does not depend on it
if ! locale -a 2>/dev/null | grep -qix 'de_DE.utf8'; then
  echo "setup: generating the de_DE.UTF-8 locale"
  "${sudo_cmd[@]}" localedef -i de_DE -f UTF-8 de_DE.UTF-8
fi
