#!/usr/bin/env bash
# A one-node Slurm cluster on this machine for the campaign test: installs
# Debian's slurm-wlm and munge when missing (needs root), writes a minimal
# slurm.conf in a temporary directory, starts munged, slurmctld and slurmd,
# runs TestSlurmCluster (FPRLAB_SLURM=1 turns its skip into a failure), and
# stops every daemon it started. Where Slurm cannot start, it says so and
# skips -- except under CI=true, where a step that cannot run fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# skip MESSAGE: ends the step; under CI=true as a failure.
skip() {
  if [ "${CI:-}" = true ]; then echo "== slurm: $1: FAILED (CI=true: a step that cannot run fails)"; exit 1; fi
  echo "== slurm: $1: skipped"; exit 0
}

if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    skip "not installed and cannot be installed here (need root and apt-get)"
  fi
  echo "== installing slurm-wlm munge"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

work=$(mktemp -d)
started=()
cleanup() {
  for p in "${started[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 1
  for p in "${started[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
host=$(hostname -s)
mkdir -p "$work/state" "$work/spool" "$work/munge-run" "$work/munge-log"
cat > "$work/slurm.conf" <<CONF
ClusterName=fprlabci
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf

# munge: a private key and socket, so that no system munged is disturbed.
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
sock=$work/munge-run/munge.socket
if ! /usr/sbin/munged --key-file="$work/munge.key" --socket="$sock" --pid-file="$work/munged.pid" \
    --log-file="$work/munge-log/munged.log" --seed-file="$work/munge.seed" --force 2>"$work/munged.err"; then
  cat "$work/munged.err"; skip "munged could not start here"
fi
started+=("$(cat "$work/munged.pid")")
# Slurm's munge plugin finds the socket through this option.
echo "AuthInfo=socket=$sock" >> "$work/slurm.conf"

if ! slurmctld -f "$SLURM_CONF" || ! slurmd -f "$SLURM_CONF"; then
  tail -5 "$work"/*.log || true; skip "the daemons could not start here"
fi
sleep 2
started+=("$(cat "$work/slurmctld.pid")" "$(cat "$work/slurmd.pid")")
for _ in $(seq 30); do
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then break; fi
  sleep 1
done
if ! sinfo -h -o %T 2>/dev/null | grep -q idle; then
  sinfo || true; tail -5 "$work"/*.log || true; skip "the node did not come up"
fi
echo "== one-node Slurm cluster up ($(slurmctld -V)); campaign test"
FPRLAB_SLURM=1 go test -count=1 -v -run 'TestSlurmCluster' ./cmd/fprlab | grep -E '^(---|ok|FAIL|PASS)|slurm_test' || { echo "slurm campaign test failed"; tail -20 "$work"/*.log; exit 1; }
