#!/usr/bin/env bash
# Shader variants and launch shapes on the GPU machine, in one call: the heavy and simple
# cases under SPIR-V variants of the diffraction shader (braggview-bench --shader), several
# workgroup shapes, one dispatch against the default slicing, and the driver's pipeline
# statistics (registers, ...). Numbers go to docs/performance.md.
#
#   bench/gpu-variants.sh BIN_DIR SPV_DIR OUT_DIR [VARIANT...]
#
# SPV_DIR holds NAME_fast.spv and NAME_precise.spv per variant (compiled by glslangValidator
# from edited copies of shaders/); the built-in shaders run as variant "built-in".
set -uo pipefail
bin=$(cd "$1" && pwd); spv=$(cd "$2" && pwd); out=$(mkdir -p "$3" && cd "$3" && pwd)
shift 3
variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || variants=($(ls "$spv" | sed -n 's/_fast\.spv$//p'))
cases=(--case heavy_1024 --case heavy_512 --case simple_4096)
bench() { "$bin/braggview-bench" --repeats 10 "$@"; }
{
  bench "${cases[@]}" --json "$out/variant-built-in.json"
  for v in "${variants[@]}"; do
    for precision in fast precise; do
      [[ -f "$spv/${v}_$precision.spv" ]] || continue
      bench "${cases[@]}" --precision $precision --shader "$spv/${v}_$precision.spv" --label "$v" \
        --json "$out/variant-$v-$precision.json"
    done
  done
  for shape in 8x4 16x8 32x4 16x16 32x8; do
    bench --case heavy_1024 --case simple_4096 --local-size $shape --label "shape" \
      --json "$out/shape-$shape.json"
  done
  bench --case heavy_1024 --slice-work 4294967296 --label "one dispatch" --json "$out/one-dispatch.json"
  bench --repeats 1 --case heavy_512 --statistics --label "statistics"
  for v in "${variants[@]}"; do
    for precision in fast precise; do
      [[ -f "$spv/${v}_$precision.spv" ]] || continue
      bench --repeats 1 --case heavy_512 --precision $precision --shader "$spv/${v}_$precision.spv" \
        --label "$v" --statistics
    done
  done
} > "$out/variants.txt" 2>&1
cat "$out/variants.txt"
