#!/bin/sh
# A single-node Slurm on this machine, from the Debian packages, for testing
# scripts/curve-slurm.sh end to end (docs/curves.md, "Running on a cluster").
# Run as root:
#
#   scripts/slurm-single-node.sh            # install, configure, start munged, slurmctld, slurmd
#   scripts/slurm-single-node.sh stop       # stop the three daemons this script started
#
#   CPUS=2 MEM_MB=6000 scripts/slurm-single-node.sh   # what Slurm may hand out (defaults)
#
# Written for Debian 12 (slurm-wlm 22.05) in a container without systemd:
# the daemons are started directly, process tracking is by process tree
# (proctrack/linuxproc, no cgroups), memory is enforced by polling
# (jobacct_gather/linux + OverMemoryKill), no accounting database.
# Existing /etc/slurm/slurm.conf is kept as slurm.conf.orig once.
set -eu

CONF=/etc/slurm/slurm.conf
RUN=/run/slurm-single-node

running() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

stop() {
    for d in slurmd slurmctld munged; do
        pidfile=$RUN/$d.pid
        [ "$d" = munged ] && pidfile=/run/munge/munged.pid
        if running "$pidfile"; then
            pid=$(cat "$pidfile")
            kill "$pid" && echo "stopped $d ($pid)"
        fi
    done
}

if [ "${1:-}" = stop ]; then
    stop
    exit 0
fi

HOST=$(hostname -s)
CPUS=${CPUS:-2}
MEM_MB=${MEM_MB:-6000}

# 1. Packages: slurmctld + slurmd + client tools, munge, GNU parallel.
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null || ! command -v parallel >/dev/null || ! command -v jq >/dev/null; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y slurm-wlm munge parallel jq
fi

# 2. munge: the package creates /etc/munge/munge.key; make one if it is absent.
if [ ! -s /etc/munge/munge.key ]; then
    if command -v mungekey >/dev/null; then
        mungekey --create --force
    else
        dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null
    fi
fi
chown munge:munge /etc/munge/munge.key
chmod 400 /etc/munge/munge.key
install -d -o munge -g munge -m 755 /run/munge
install -d -o munge -g munge -m 700 /var/log/munge /var/lib/munge

# 3. slurm.conf for this host: one node, one partition.
install -d -o slurm -g slurm -m 755 "$RUN" /var/spool/slurmctld /var/log/slurm
install -d -m 755 /var/spool/slurmd
[ -e "$CONF" ] && [ ! -e "$CONF.orig" ] && cp "$CONF" "$CONF.orig"
cat >"$CONF" <<EOF
# Written by scripts/slurm-single-node.sh for a one-node test cluster.
ClusterName=single
SlurmctldHost=$HOST
SlurmUser=slurm
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
MpiDefault=none
SwitchType=switch/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=10
JobAcctGatherParams=OverMemoryKill
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
SlurmdTimeout=300
InactiveLimit=0
KillWait=30
MinJobAge=3600
MailProg=/bin/true
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM_MB State=UNKNOWN
PartitionName=main Nodes=$HOST Default=YES MaxTime=INFINITE State=UP DefMemPerCPU=$((MEM_MB / CPUS))
EOF
echo "wrote $CONF (node $HOST, CPUs=$CPUS, RealMemory=$MEM_MB MB)"

# 4. Daemons (no systemd here): munged as user munge, slurmctld (drops to
#    SlurmUser), slurmd as root.
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
    sleep 1
fi
munge -n | unmunge | grep -q 'STATUS: *Success' && echo "munged: ok"
if running "$RUN/slurmctld.pid"; then scontrol reconfigure; else /usr/sbin/slurmctld; sleep 2; fi
running "$RUN/slurmd.pid" || /usr/sbin/slurmd
# Wait until the node is idle (slurmd registered).
for _ in $(seq 30); do
    state=$(sinfo -h -n "$HOST" -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    sleep 1
done
sinfo
[ "$state" = idle ] || { echo "node $HOST is '$state', not idle: see /var/log/slurm/*.log" >&2; exit 1; }
srun -N1 -n1 hostname
