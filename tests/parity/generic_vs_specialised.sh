#!/usr/bin/env bash
# Every golden case in both precisions through the headless program twice, on the generic
# pipeline (BRAGGVIEW_PIPELINE=generic: the shape read from the parameter block) and on the
# one specialised to the case's shape: the float images must be identical byte for byte
# (docs/numerics/specialisation.md). Exit 0 when all are.
#
#   generic_vs_specialised.sh DATA HEADLESS...
set -euo pipefail
data=$1
shift
headless=("$@")
work=$(mktemp -d "${TMPDIR:-/tmp}/braggview-pipelines.XXXXXX")
trap 'rm -rf "$work"' EXIT
same=0 differ=0
for dir in "$data"/golden/*/; do
  case=$(basename "$dir")
  read -r -a args < "$dir/args.txt"
  for precision in fast precise; do
    for pipeline in generic specialised; do
      run="$work/$pipeline"
      rm -rf "$run"; mkdir -p "$run"; cp "$data"/inputs/* "$run"/
      extra=(-floatfile float.bin -noprogress -precision "$precision" -nopgm)
      [[ " ${args[*]} " == *" -noisefile "* ]] || extra+=(-nonoise)
      if ! (cd "$run" && BRAGGVIEW_PIPELINE=$pipeline "${headless[@]}" "${args[@]}" "${extra[@]}" \
              > stdout.txt 2> stderr.txt); then
        echo "$case $precision $pipeline: the headless run failed:"; cat "$run/stderr.txt"; exit 1
      fi
    done
    if cmp -s "$work/generic/float.bin" "$work/specialised/float.bin"; then
      same=$((same + 1))
    else
      differ=$((differ + 1)); echo "$case $precision: the generic and specialised images differ"
    fi
  done
done
echo "identical: $same, different: $differ"
[[ $differ -eq 0 ]]
