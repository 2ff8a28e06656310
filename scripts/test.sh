#!/usr/bin/env bash
# Set up, build, and run the whole test suite (ctest) on whatever Vulkan device there is;
# on a machine without a GPU that is Mesa's lavapipe.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" "$@"
