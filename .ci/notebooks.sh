#!/usr/bin/env bash
# Executes every Jupyter notebook under notebooks/ headless on a small
# configuration and fails on any cell error (jupyter nbconvert --execute
# exits non-zero then). Installs Debian's jupyter-nbconvert,
# python3-ipykernel, python3-pandas and python3-matplotlib when they are
# missing (needs root and apt-get). The notebooks whose commands this build
# lacks (compare, sweep) say so and skip; they are executed a second time
# on the example documents of analysis/results/testdata, so that their
# tables and plots run against the JSON contracts today.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# Debian's Python, whatever python3 comes first on PATH (pyenv and others
# lack the packages).
export PATH=/usr/bin:$PATH
if ! command -v jupyter-nbconvert >/dev/null 2>&1 || ! /usr/bin/python3 -c 'import pandas, matplotlib, ipykernel' 2>/dev/null; then
  echo "== installing jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib"
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jupyter-nbconvert python3-ipykernel python3-pandas python3-matplotlib >/dev/null
  else
    echo "the notebook packages are missing and cannot be installed here (need root and apt-get)"; exit 1
  fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== building fprlab for the notebooks"
go build -o "$work/fprlab" ./cmd/fprlab
export FPRLAB="$work/fprlab" PYTHONDONTWRITEBYTECODE=1 MPLBACKEND=Agg
# The small configuration.
export FPRLAB_NB_RECORDS=${FPRLAB_NB_RECORDS:-2} FPRLAB_NB_SIGNATURES=${FPRLAB_NB_SIGNATURES:-10} FPRLAB_NB_BITS=${FPRLAB_NB_BITS:-24:56:16}

run() { # run NOTEBOOK LABEL: execute one notebook, report its time
  local start=$(date +%s)
  if ! jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=900 \
      --output-dir "$work/out" --output "$(basename "$1" .ipynb)-$2" "$1" >"$work/log" 2>&1; then
    grep -v -e 'frozen modules' -e 'Xfrozen_modules' -e 'PYDEVD' -e 'Debugger warning' -e 'make the debugger' "$work/log" | tail -40
    echo "notebook $1 ($2) failed"; exit 1
  fi
  echo "   $1 ($2): $(( $(date +%s) - start )) s"
}

total=$(date +%s)
echo "== notebooks (records $FPRLAB_NB_RECORDS, signatures $FPRLAB_NB_SIGNATURES, bits $FPRLAB_NB_BITS)"
for nb in notebooks/*.ipynb; do run "$nb" cli; done
echo "== notebooks on the example documents (the contracts of compare and sweep)"
FPRLAB_NB_COMPARE_JSON=$root/analysis/results/testdata/campaign/compare-512.json run notebooks/02_precision_compare.ipynb example
FPRLAB_NB_SWEEP_JSON=$root/analysis/results/testdata/campaign/sweep-512.json run notebooks/03_sweep_pstar.ipynb example
# The same sweep in the object shape ({"formats": [...], "pstar": ...}) the notebook also reads.
/usr/bin/python3 -c 'import json, sys; json.dump({"formats": json.load(open(sys.argv[1])), "pstar": None}, open(sys.argv[2], "w"))' \
  "$root/analysis/results/testdata/campaign/sweep-512.json" "$work/sweep-object.json"
FPRLAB_NB_SWEEP_JSON=$work/sweep-object.json run notebooks/03_sweep_pstar.ipynb example-object
echo "== notebooks took $(( $(date +%s) - total )) s"
