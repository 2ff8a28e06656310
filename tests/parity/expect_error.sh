#!/usr/bin/env bash
# Bad input at the engine's layer, end to end: runs a command in an empty directory and
# passes when it exits non-zero, its stderr matches PATTERN, and it wrote no file.
#
#   expect_error.sh PATTERN COMMAND...
set -uo pipefail
pattern=$1; shift
logs=$(mktemp -d "${TMPDIR:-/tmp}/braggview-error-logs.XXXXXX")
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-error.XXXXXX")
trap 'rm -rf "$work" "$logs"' EXIT
(cd "$work" && "$@") > "$logs/out" 2> "$logs/err"
status=$?
if [[ $status -eq 0 ]]; then echo "expected a failure, got exit 0"; cat "$logs/out" "$logs/err"; exit 1; fi
if ! grep -q -- "$pattern" "$logs/err"; then echo "stderr does not say '$pattern':"; cat "$logs/err"; exit 1; fi
if [[ -n "$(ls -A "$work")" ]]; then echo "files left behind:"; ls -la "$work"; exit 1; fi
echo "exit $status: $(head -1 "$logs/err")"
