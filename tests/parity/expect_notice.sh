#!/usr/bin/env bash
# A notice before the work, end to end: runs a command that would render for minutes or
# hours in an empty directory, stops it as soon as its stderr says PATTERN (or after SECONDS,
# a failure), and passes when it said it and wrote no file. SECONDS is how long the test
# waits, not a measurement: the notice comes before the device is given any work.
#
#   expect_notice.sh PATTERN SECONDS COMMAND...
set -uo pipefail
pattern=$1; seconds=$2; shift 2
logs=$(mktemp -d "${TMPDIR:-/tmp}/braggview-notice-logs.XXXXXX")
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-notice.XXXXXX")
(cd "$work" && exec "$@") > "$logs/out" 2> "$logs/err" &
pid=$!
trap 'kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work" "$logs"' EXIT
said=0
for ((i = 0; i < seconds * 10; ++i)); do
  if grep -q -- "$pattern" "$logs/err"; then said=1; break; fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
grep -q -- "$pattern" "$logs/err" && said=1
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
if [[ $said -eq 0 ]]; then echo "stderr does not say '$pattern':"; cat "$logs/err"; exit 1; fi
if [[ -n "$(ls -A "$work")" ]]; then echo "files written:"; ls -la "$work"; exit 1; fi
echo "said: $(grep -- "$pattern" "$logs/err" | head -1)"
