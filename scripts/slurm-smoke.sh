#!/usr/bin/env bash
# Proves `warpsim reproduce --sbatch` / `--shard` / `--collect` on a real Slurm: installs
# Debian's slurm-wlm and munge, starts a one-node cluster on this machine (as root: slurmctld,
# slurmd and munged run in the background, state under /tmp/warpsim-slurm), submits a small
# sweep as a job array of 4 tasks followed by a collect job (the script `--sbatch` prints),
# waits, then runs the same sweep locally and compares every table and report byte for byte.
# Not part of CI (it installs system packages and starts daemons). Usage:
#   scripts/slurm-smoke.sh            # needs root and Debian's package registry
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
state=/tmp/warpsim-slurm
export DEBIAN_FRONTEND=noninteractive

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    echo "== installing slurm-wlm and munge"
    apt-get install -y slurm-wlm munge >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y slurm-wlm munge >/dev/null; }
fi

echo "== building warpsim"
cargo build --release -p warpsim --quiet
warpsim=$repo/target/release/warpsim

echo "== starting a one-node Slurm cluster"
pkill -x slurmctld 2>/dev/null || true
pkill -x slurmd 2>/dev/null || true
rm -rf "$state"
mkdir -p "$state"/{ctld,d,log} /etc/slurm /run/munge /var/log/munge /var/lib/munge
chown -R munge:munge /run/munge /var/log/munge /var/lib/munge /etc/munge 2>/dev/null || true
if [ ! -s /etc/munge/munge.key ]; then
    mkdir -p /etc/munge
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
fi
pgrep -x munged >/dev/null || su -s /bin/sh munge -c /usr/sbin/munged
host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=warpsim-smoke
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/log/slurmctld.log
SlurmdLogFile=$state/log/slurmd.log
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=smoke Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
/usr/sbin/slurmctld
/usr/sbin/slurmd
for _ in $(seq 60); do
    sinfo -h -o %T 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo

work=$state/work
mkdir -p "$work"
cat > "$work/smoke.toml" <<'TOML'
name = "smoke"
title = "Slurm smoke test: four programs, two schedulers"
programs = ["baws_sp", "baws_bt", "baws_pvr", "baws_ss"]
schedulers = ["lrr", "gto"]
baseline = "lrr"
views = [{ kind = "speedup" }, { kind = "fractions" }, { kind = "stalls" }]
claims = [{ label = "GTO over LRR (BAWS: +8.4%)", ours = { of = "geomean", series = "gto" }, paper = 1.084, neutral = 1.0 }]
TOML
cd "$work"

echo "== submitting the sweep as a 4-task job array plus a collect job"
"$warpsim" sweep smoke.toml --out "$work/cluster" --sbatch --tasks 4 --jobs 1 > submit.sh
cat submit.sh
bash submit.sh
for _ in $(seq 600); do
    [ -z "$(squeue -h 2>/dev/null)" ] && break
    sleep 1
done
echo "== job logs"
tail -n 3 "$work"/cluster/slurm/*.log
sacct -X -n -o JobID,JobName,State,ExitCode 2>/dev/null || true

echo "== the same sweep, locally"
"$warpsim" sweep smoke.toml --out "$work/local" --jobs "$cpus"

echo "== comparing"
status=0
for f in runs.csv speedup.csv fractions.csv stalls.csv report.md; do
    if cmp -s "$work/cluster/smoke/$f" "$work/local/smoke/$f"; then
        echo "identical: smoke/$f"
    else
        echo "DIFFERENT: smoke/$f"; diff "$work/cluster/smoke/$f" "$work/local/smoke/$f" | head -20 || true
        status=1
    fi
done
shards=$(grep -l "shard [1-4]/4 done" "$work"/cluster/slurm/*_*.log | wc -l)
echo "array tasks that ran their shard: $shards of 4"
[ "$shards" -eq 4 ] || status=1

pkill -x slurmd || true
pkill -x slurmctld || true
[ $status -eq 0 ] && echo "slurm smoke: PASS" || echo "slurm smoke: FAIL"
exit $status
