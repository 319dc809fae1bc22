#!/usr/bin/env bash
# run.sh -- measure fmul64.sv's truncations with fprlab (docs/rtl.md):
# for each truncation, verilate the multiplier and build the plugin, count
# its cells with Yosys, run a shadowed fprlab compare over it and an fprlab
# diverge against native (same keys, messages and randomness: how often
# do the signatures differ, and would a differing pair give the key
# away), then write a table (table.md) and draw two figures into OUT: the
# per-signature delta_c against cells (fprlab plot cost) and the error
# distributions (fprlab plot histogram), and the HTML report (fprlab
# report). A step whose output is in OUT
# already, made with the same SIGS and PARAMS, is not run again: an
# interrupted run resumes.
#
#     examples/rtl/run.sh [OUT]      (default OUT: ./rtl-out)
#
# Environment: TRUNCS (default "0 8 16 24 32", each 0..48), COMP (0/1,
# constant compensation), RZ (0/1, round toward zero), SIGS (signatures per
# truncation, default 200), PARAMS (512 or 1024), FPRLAB (an fprlab binary;
# default: built from this checkout). Needs Debian's verilator, yosys, g++,
# jq and Go. Every output stays in OUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$(mkdir -p "${1:-rtl-out}" && cd "${1:-rtl-out}" && pwd)
truncs=${TRUNCS:-0 8 16 24 32}
comp=${COMP:-0}
rz=${RZ:-0}
sigs=${SIGS:-200}
params=${PARAMS:-512}
vinc=$(verilator --getenv VERILATOR_ROOT)/include
TIMEFORMAT='%R s wall, %U s user'

for t in $truncs; do
  case $t in ''|*[!0-9]*) echo "run.sh: truncation '$t' is not 0..48" >&2; exit 2 ;; esac
  [ "$t" -le 48 ] || { echo "run.sh: truncation $t is not 0..48" >&2; exit 2; }
done

fprlab=${FPRLAB:-}
if [ -z "$fprlab" ]; then
  echo "== go build fprlab"
  time (cd "$root" && go build -o "$out/fprlab" ./cmd/fprlab)
  fprlab=$out/fprlab
fi

echo "== verilator's runtime (verilated.cpp, verilated_threads.cpp), once"
time for src in verilated verilated_threads; do
  g++ -O2 -fPIC -I"$vinc" -I"$vinc/vltstd" -c -o "$out/$src.o" "$vinc/$src.cpp"
done

# done FILE: FILE holds a finished step's JSON made with this SIGS and
# PARAMS (compare's documents and diverge's result both say both).
done_() {
  [ -s "$1" ] && jq -e --argjson s "$sigs" --argjson p "$params" \
    '(if type == "array" then .[0] else . end) | (.signatures // .compared) == $s and (.params // .n) == $p' "$1" >/dev/null 2>&1
}

mkdir -p "$out/compare" "$out/diverge"
for t in $truncs; do
  tag=t$t-c$comp-r$rz
  if done_ "$out/compare/$tag.json" && done_ "$out/diverge/$tag.json" && [ -s "$out/stat-$tag.txt" ]; then
    echo "== $tag: done already"
    continue
  fi
  echo "== $tag: verilate"
  time verilator --cc -O3 -Mdir "$out/obj-$tag" -GTRUNC="$t" -GCOMP="$comp" -GRZ="$rz" "$here/fmul64.sv"
  echo "== $tag: build the plugin"
  time g++ -O2 -shared -fPIC -I"$out/obj-$tag" -I"$vinc" -I"$vinc/vltstd" -DFMUL64_PARAMS="\"$tag\"" \
    -o "$out/libfmul64-$tag.so" "$here/plugin.cpp" "$out/obj-$tag"/*.cpp "$out/verilated.o" "$out/verilated_threads.o"
  echo "== $tag: yosys synth; stat (generic gate cells)"
  time yosys -q -p "read_verilog -sv $here/fmul64.sv; chparam -set TRUNC $t -set COMP $comp -set RZ $rz fmul64; synth -top fmul64; tee -q -o $out/stat-$tag.txt stat"
  if ! done_ "$out/compare/$tag.json"; then
    echo "== $tag: fprlab compare, $sigs signatures at Falcon-$params"
    time "$fprlab" compare --backend "so:$out/libfmul64-$tag.so" --params "$params" --signatures "$sigs" --json >"$out/compare/$tag.json.tmp"
    mv "$out/compare/$tag.json.tmp" "$out/compare/$tag.json"
  fi
  echo "== $tag: fprlab diverge against native, $sigs signatures"
  time "$fprlab" diverge --backend native --against "so:$out/libfmul64-$tag.so" --params "$params" --signatures "$sigs" --json >"$out/diverge/$tag.json.tmp"
  mv "$out/diverge/$tag.json.tmp" "$out/diverge/$tag.json"
done
# native's document, once, as the reference row and curve.
if ! done_ "$out/compare/native.json"; then
  echo "== native: fprlab compare"
  time "$fprlab" compare --backend native --params "$params" --signatures "$sigs" --json >"$out/compare/native.json.tmp"
  mv "$out/compare/native.json.tmp" "$out/compare/native.json"
fi

# The table: cells from Yosys; from compare's per-signature statistics the
# worst and median delta_c, the fraction of signatures whose
# delta_c + delta_sigma is below 2^-46 (histogram bins of width one binade
# below 2^-46), and the decision flips; from diverge, how many signatures
# differ from native's and how many of those pairs reveal the key.
row() { # doc cells diverge-doc
  local differ="-"
  if [ -s "${3:-}" ]; then
    differ=$(jq -r '"\(.differing) of \(.compared), \(.key_revealing) key-revealing"' "$3")
  fi
  jq -r --arg cells "$2" --arg differ "$differ" '.[0] | [(.backend | sub("^so:.*/"; "so:")), $cells,
      (.per_signature.delta_c.max_log2 | . * 100 | round / 100 | "2^\(.)"),
      (.per_signature.delta_c.median_log2 | . * 100 | round / 100 | "2^\(.)"),
      ((([.per_signature.sum.histogram[] | select(.log2 < -46) | .count] | add // 0) + .per_signature.sum.zeros) / .per_signature.sum.count | . * 1000 | round / 1000),
      .flips.total, $differ] | "| " + (map(tostring) | join(" | ")) + " |"' "$1"
}
cells() { awk '/Number of cells:/ { print $4 }' "$out/stat-$1.txt"; }
{
  echo "| backend | cells | worst delta_c | median delta_c | P(sig <= 2^-46) | flips | differs from native |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  for t in $truncs; do
    tag=t$t-c$comp-r$rz
    row "$out/compare/$tag.json" "$(cells "$tag")" "$out/diverge/$tag.json"
  done
  row "$out/compare/native.json" "-"
} >"$out/table.md"
cat "$out/table.md"
echo "== figure: fprlab plot cost (delta_c against cells)"
costs=()
for t in $truncs; do
  tag=t$t-c$comp-r$rz
  costs+=(--cost "so:$out/libfmul64-$tag.so=$(cells "$tag")")
done
time "$fprlab" plot cost --in "$out/compare" "${costs[@]}" --cost-unit "cells (Yosys generic gates)" --out "$out/cost.svg"
echo "== figure: fprlab plot histogram"
time "$fprlab" plot histogram --in "$out/compare" --out "$out/histogram.svg"
# The report: fprlab report reads a directory of compare documents with a
# manifest saying what was run; compare --json printed the documents, so
# the manifest is written here from them (command, seed, sample size).
echo "== report: fprlab report"
version=$("$fprlab" version | awk '{print $2}')
(cd "$out/compare" && for f in *.json; do [ "$f" = manifest.json ] || echo "$f"; done) |
  jq -R -s --arg version "$version" --arg params "$params" --arg out "$out" --argjson sigs "$sigs" '
    split("\n") | map(select(. != "")) | {
      title: "examples/rtl/run.sh: fmul64.sv truncations against native, Falcon-\($params)",
      version: $version,
      runs: map(. as $f | ($f | sub("\\.json$"; "")) as $tag |
        (if $tag == "native" then "native" else "so:\($out)/libfmul64-\($tag).so" end) as $b |
        {command: "fprlab compare --backend \($b) --params \($params) --signatures \($sigs) --json",
         output: $f, version: $version, seed: "fprlab", signatures: $sigs})
    }' >"$out/compare/manifest.json.tmp"
mv "$out/compare/manifest.json.tmp" "$out/compare/manifest.json"
time "$fprlab" report --in "$out/compare" --out "$out/report.html"
echo "wrote $out/table.md, $out/cost.svg, $out/histogram.svg and $out/report.html"
