#!/usr/bin/env bash
# Regenerates the --nonbragg/--noisify parity data from the reference programs, which the user
# builds (bl831/nanoBragg: gcc -O -o nonBragg nonBragg.c -lm, the same for noisify.c); this
# script never builds them.
#
#   make_cases.sh REFERENCE_DIR [DATA_DIR]
#
# REFERENCE_DIR: holds the nonBragg and noisify binaries and the repository's .stol tables.
# DATA_DIR: tests/data/amorphous (default). Each case of cases.txt runs in a scratch folder with
# the inputs and the .stol tables beside it; the files it writes go to
# DATA_DIR/<program>/<case>/ with args.txt and stdout.txt. nonBragg writes twice as many bytes
# after its PGM header as the image has pixels (it reads past its buffer); the copy keeps the
# image's bytes only (docs/reference-quirks.md).
set -euo pipefail
ref=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
data=${2:-$here/../data/amorphous}
data=$(mkdir -p "$data" && cd "$data" && pwd)
python3 "$here/make_inputs.py" "$data/inputs"

grep -v '^#' "$here/cases.txt" | grep -v '^$' | while IFS='|' read -r name program args; do
  work=$(mktemp -d)
  cp "$data"/inputs/* "$ref"/*.stol "$work"/
  # nanoice.stol's two '#' lines are points (0, 0) to the reference (NaN pixels near the
  # beam); braggview skips them: the reference runs on the table without them
  grep -v '^#' "$ref/nanoice.stol" > "$work/nanoice.stol"
  before=$(ls "$work")
  read -r -a words <<< "$args"
  (cd "$work" && "$ref/$program" "${words[@]}" > stdout.txt 2>&1) || {
    echo "$name: the reference failed"; cat "$work/stdout.txt"; exit 1; }
  dest="$data/$program/$name"
  rm -rf "$dest" && mkdir -p "$dest"
  echo "$args" > "$dest/args.txt"
  cp "$work/stdout.txt" "$dest/"
  for f in $(ls "$work"); do
    if ! grep -qx "$f" <<< "$before" && [[ $f != stdout.txt ]]; then
      if [[ $program == nonBragg && $f == *.pgm ]]; then
        python3 - "$work/$f" "$dest/$f" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
lines = data.split(b"\n", 4)  # P5, size, comment, 255, pixels
w, h = map(int, lines[1].split())
header = len(data) - len(lines[4])
open(sys.argv[2], "wb").write(data[:header + w * h])
PY
      else
        cp "$work/$f" "$dest/"
      fi
    fi
  done
  echo "$name: $(ls "$dest" | tr '\n' ' ')"
  rm -rf "$work"
done
