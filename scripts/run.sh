#!/usr/bin/env bash
# The main job: set up, build, and open the viewer on the built-in demo experiment.
# Without a display it renders the demo headless and says where the image went.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
./scripts/build.sh
exec ./build/bin/braggview "$@"
