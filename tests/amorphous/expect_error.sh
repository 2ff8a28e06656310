#!/usr/bin/env bash
# Bad input to --nonbragg/--noisify: runs a command in a scratch folder holding the parity
# inputs and the bad inputs, and passes when it exits non-zero, its stderr matches PATTERN,
# and it wrote no file (the folder holds exactly what was copied into it).
#
#   expect_error.sh DATA PATTERN COMMAND...
set -uo pipefail
data=$1 pattern=$2; shift 2
logs=$(mktemp -d "${TMPDIR:-/tmp}/braggview-amorphous-logs.XXXXXX")
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-amorphous-error.XXXXXX")
trap 'rm -rf "$work" "$logs"' EXIT
cp "$data"/inputs/* "$data"/bad/* "$work"/
before=$(ls -A "$work")
(cd "$work" && "$@") > "$logs/out" 2> "$logs/err"
status=$?
if [[ $status -eq 0 ]]; then echo "expected a failure, got exit 0"; cat "$logs/out" "$logs/err"; exit 1; fi
if ! grep -q -- "$pattern" "$logs/err"; then echo "stderr does not say '$pattern':"; cat "$logs/err"; exit 1; fi
if [[ "$(ls -A "$work")" != "$before" ]]; then echo "files left behind:"; ls -la "$work"; exit 1; fi
echo "exit $status: $(head -1 "$logs/err")"
