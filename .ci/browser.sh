#!/usr/bin/env bash
# Renders the campaign reports in headless Chromium (Debian's chromium
# package) and fails on a blank page or a script error: the browser test
# of package analysis/report, with FPRLAB_CHROMIUM=1 so that a missing
# browser fails instead of skipping. Installs chromium when it is missing
# and apt-get is available (CI runs as root).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing chromium"
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "chromium is not installed and cannot be installed here (need root and apt-get)"; exit 1
  fi
fi
echo "== report in headless chromium ($(chromium --version 2>/dev/null | tail -1))"
start=$(date +%s)
FPRLAB_CHROMIUM=1 go test -count=1 -run 'TestReportInChromium' -v ./analysis/report | grep -E '^(---|ok|FAIL|PASS)|browser_test' || { echo "browser test failed"; exit 1; }
# Every report kind (compare, sweep, tune, arith errors, diff) from fresh
# runs of the CLI, the verdict box checked against their JSON.
FPRLAB_CHROMIUM=1 go test -count=1 -run 'TestReportKindsInChromium' -v ./cmd/fprlab | grep -E '^\s*(---|ok|FAIL|PASS)|report_test' || { echo "report kinds browser test failed"; exit 1; }
echo "== browser test took $(( $(date +%s) - start )) s"
