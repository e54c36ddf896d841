#!/usr/bin/env bash
# A private one-node Slurm cluster for the Slurm CTest (issue 20): real munged, slurmctld and slurmd from
# Debian's slurm-wlm and munge packages, run as root without systemd.
#
#   tests/slurm/cluster.sh start              install what is missing, start the three daemons, wait for
#                                             the node to be idle
#   tests/slurm/cluster.sh stop               cancel its jobs, stop exactly the daemons it started
#   tests/slurm/cluster.sh status             exit 0 when its daemons are running (prints sinfo/squeue)
#   tests/slurm/cluster.sh wait SECONDS ID... wait until the jobs (or array jobs) ID leave the queue
#
# Everything lives in one state directory, $SLURM_TEST_DIR (default /tmp/grainlab-slurm): slurm.conf,
# the munge key and socket, spool and state directories, logs, pid files, and env.sh. Source env.sh to
# talk to this cluster (sbatch, squeue, scontrol, sinfo): it exports SLURM_CONF. Nothing is written to
# /etc, nothing is registered with an init system, and the system's own munged (if any) is not used.
#
# Exit codes: 0 done; 1 a real failure (a daemon does not start, the node does not come up: logs are
# printed); 77 Slurm cannot be used here at all (not root, no apt-get, install impossible, or a Slurm
# daemon that this script did not start is already running, which it will not touch). 77 is CTest's
# SKIP_RETURN_CODE.
#
# Findings, on a plain Debian 12 host (tried in a Firecracker VM, kernel 6.18, hybrid cgroup v1/v2, no
# systemd, PID 1 not an init system):
# - Installing the packages runs their postinst, which starts munge (and tries slurmctld/slurmd) through
#   invoke-rc.d. That would leave daemons behind that we did not start; a temporary policy-rc.d that
#   answers 101 ("action forbidden") prevents it (only when the host has no policy-rc.d of its own;
#   Docker images ship one that already does this).
# - munged: we run our own instance with our own key, socket, pid, log and seed files (--key-file,
#   --socket, ...), and point Slurm at the socket with AuthInfo=socket=... (auth/munge and cred/munge
#   both read it, and so do the client commands through SLURM_CONF). munged refuses a socket directory
#   that is not executable by all ("Socket is inaccessible: execute permissions for all required"), so
#   the state directory is made 0755 and must not sit below a 0700 directory such as /root.
# - cgroups: proctrack/linuxproc, task/none and jobacct_gather/none keep slurmd from loading any cgroup
#   plugin, so it does not matter which cgroup version the host (or container) mounts.
# - Accounting: none (no slurmdbd, so no sacct). To learn how each job ended, JobCompType=jobcomp/filetxt
#   writes one line per finished job (JobState=, ExitCode=, ArrayJobId=, ArrayTaskId=) to
#   $SLURM_TEST_DIR/log/jobcomp.txt; completion is detected by polling squeue (see `wait`).
# - Host names: slurmctld only runs on a host named in SlurmctldHost, and slurmd takes its node name from
#   the host name. We use the short host name for both, with the address pinned to 127.0.0.1 (host(addr)
#   and NodeAddr), so nothing depends on the host name resolving, and start slurmd with -N.
# - Ports: 16817/16818 (not Slurm's 6817/6818), so a cluster on the host is not disturbed; override the
#   first with SLURM_TEST_PORT.
# - Zombies: the daemons fork to detach, and an exited daemon or intermediate fork stays a zombie until
#   PID 1 reaps it (in this VM PID 1 is not an init system and reaps late), so ps may still list it.
#   A zombie counts as gone everywhere here (alive()), or it would pass for a foreign daemon. Stopping
#   waits for every thread: slurmctld's main thread exits first and shows as a zombie while the others
#   still save state and hold the port.
# - Harmless noise in the logs: "Configured MailProg is invalid" (silenced with MailProg=/bin/true),
#   "mpi/pmix_v4: can not load PMIx library" (slurmd probes every MPI plugin; no job uses MPI),
#   "High latency ... gettimeofday()" in a VM.
set -euo pipefail

STATE=${SLURM_TEST_DIR:-/tmp/grainlab-slurm}
CTLD_PORT=${SLURM_TEST_PORT:-16817}
SLURMD_PORT=$((CTLD_PORT + 1))
CONF=$STATE/slurm.conf
MUNGE_SOCKET=$STATE/munge/munge.socket
CTLD_PID=$STATE/run/slurmctld.pid
SLURMD_PID=$STATE/run/slurmd.pid
MUNGED_PID=$STATE/munge/munged.pid
START_TIMEOUT=${SLURM_TEST_START_TIMEOUT:-60}

say() { echo "cluster.sh: $*" >&2; }
skip() { say "SKIP: $*"; exit 77; }
fail() { say "FAIL: $*"; exit 1; }

# The daemons we start carry SLURM_CONF=$CONF in their environment (they inherit it from this script);
# that, with the process name, is how a pid is recognised as ours (a stale pid file may name a reused
# pid). Prints nothing, succeeds when PID is a live NAME started with our configuration.
is_ours() {
  local pid=$1 name=$2
  [[ $pid =~ ^[0-9]+$ ]] && [[ -r /proc/$pid/comm ]] || return 1
  [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$name" ]] || return 1
  { tr '\0' '\n' < "/proc/$pid/environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$CONF"
}

# State letter of PID's main thread (empty when PID is gone).
state_of() { awk '/^State:/ { print $2 }' "/proc/$1/status" 2>/dev/null || true; }

# PID still has a thread that has not exited. Not just the main thread's state: when a multi-threaded
# daemon's main thread has exited, the process shows as a zombie (and its environ reads empty) while its
# other threads are still shutting down (slurmctld saving its state), holding the port.
alive() {
  local f
  for f in /proc/"$1"/task/*/status; do
    [[ $(awk '/^State:/ { print $2 }' "$f" 2>/dev/null) =~ ^[^ZX]$ ]] && return 0
  done
  return 1
}

# Pids of the processes called NAME, and all descendants of PID, from /proc (no procps: pgrep is not in a
# minimal Debian image).
pids_named() {
  local f
  for f in /proc/[0-9]*/comm; do
    [[ $(cat "$f" 2>/dev/null) == "$1" ]] && { f=${f#/proc/}; echo "${f%/comm}"; }
  done
  return 0
}
descendants_of() {
  local f
  for f in /proc/[0-9]*/status; do
    awk '/^Pid:/ { p = $2 } /^PPid:/ { print p, $2 }' "$f" 2>/dev/null
  done | awk -v root="$1" '
    { kids[$2] = kids[$2] " " $1 }
    END {
      queue[1] = root; head = 1; tail = 1
      while (head <= tail) {
        n = split(kids[queue[head++]], c, " ")
        for (i = 1; i <= n; i++) { print c[i]; queue[++tail] = c[i] }
      }
    }'
}

pid_from() { [[ -s $1 ]] && cat "$1" || echo none; }

# --- installation -------------------------------------------------------------------------------------

have_slurm() {
  local c
  for c in munged munge unmunge slurmctld slurmd sbatch squeue sinfo scontrol scancel; do
    command -v "$c" >/dev/null 2>&1 || return 1
  done
  # slurm-wlm's plugins (auth_munge, select_cons_tres, ...) come with slurmctld/slurmd; check one.
  compgen -G "/usr/lib/*/slurm-wlm/select_cons_tres.so" >/dev/null
}

install_slurm() {
  have_slurm && return 0
  command -v apt-get >/dev/null 2>&1 || skip "slurm-wlm/munge are not installed and there is no apt-get"
  say "installing slurm-wlm and munge from the Debian archive"
  local policy=/usr/sbin/policy-rc.d made_policy=
  if [[ ! -e $policy ]]; then
    # Keep the packages' postinst scripts from starting system daemons (see the findings above).
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 755 "$policy" && made_policy=1
    trap 'rm -f /usr/sbin/policy-rc.d' EXIT   # also when interrupted during the install
  fi
  local apt=(apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends slurm-wlm munge)
  local ok=
  if DEBIAN_FRONTEND=noninteractive "${apt[@]}" >&2; then
    ok=1
  elif apt-get -o DPkg::Lock::Timeout=600 update -q >&2 && DEBIAN_FRONTEND=noninteractive "${apt[@]}" >&2; then
    ok=1   # a fresh machine has no package lists yet
  fi
  if [[ -n $made_policy ]]; then rm -f "$policy"; trap - EXIT; fi
  [[ -n $ok ]] || skip "could not install slurm-wlm and munge with apt-get (no network or archive?)"
  have_slurm || skip "slurm-wlm and munge installed, but the commands or plugins are still missing"
}

# --- configuration ------------------------------------------------------------------------------------

# What slurmctld compares with SlurmctldHost and slurmd takes as its node name: gethostname() up to the
# first dot (uname -n, from coreutils, where the hostname command may be missing).
short_hostname() { local n; n=$(uname -n); echo "${n%%.*}"; }

write_conf() {
  local node cpus mem_mb
  node=$(short_hostname)
  cpus=$(nproc)
  # RealMemory must not exceed what slurmd measures (MemTotal), or the node is drained as
  # "Low RealMemory"; keep 10 % in hand.
  mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
  mkdir -p "$STATE"/{munge,run,log,spool/slurmctld,spool/slurmd}
  cat > "$CONF" <<EOF
# Written by tests/slurm/cluster.sh: a one-node test cluster; every path is inside $STATE.
ClusterName=grainlabtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$MUNGE_SOCKET
StateSaveLocation=$STATE/spool/slurmctld
SlurmdSpoolDir=$STATE/spool/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# No cgroups anywhere (see the findings in cluster.sh).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# No accounting database; finished jobs are written one per line to jobcomp.txt instead.
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$STATE/log/jobcomp.txt
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
ReturnToService=2
# Finished jobs stay visible to scontrol for 5 minutes.
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  cat > "$STATE/env.sh" <<EOF
# Source this to use the test cluster in $STATE (written by tests/slurm/cluster.sh).
export SLURM_CONF=$CONF
export SLURM_TEST_DIR=$STATE
export SLURM_TEST_JOBCOMP=$STATE/log/jobcomp.txt
EOF
}

# --- start / stop -------------------------------------------------------------------------------------

print_logs() {
  local f
  for f in "$STATE"/munge/munged.log "$STATE"/log/slurmctld.log "$STATE"/log/slurmd.log; do
    [[ -f $f ]] || continue
    echo "----- last lines of $f" >&2
    tail -n 40 "$f" >&2
  done
}

# A Slurm daemon running on this host that is not ours (another cluster, or ours from another state
# directory): we neither reuse nor stop it.
foreign_daemons() {
  local name pid
  for name in slurmctld slurmd; do
    for pid in $(pids_named "$name"); do
      # A zombie left by daemonizing or stopping, not yet reaped, or a daemon whose main thread has
      # exited (its environ cannot tell whose it is): on its way out, not running.
      alive "$pid" && [[ $(state_of "$pid") != Z ]] || continue
      is_ours "$pid" "$name" || echo "$name (pid $pid)"
    done
  done
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_failed() {
  say "FAIL: $*"
  print_logs
  do_stop || true
  exit 1
}

do_start() {
  [[ $(id -u) == 0 ]] || skip "needs root (slurmd launches jobs; SlurmUser=root); run as root or skip"
  install_slurm
  export SLURM_CONF=$CONF
  do_stop quiet   # leftovers of an earlier start from this state directory
  local foreign
  foreign=$(foreign_daemons)
  [[ -z $foreign ]] || skip "a Slurm daemon not started by this script is running: $(echo $foreign); not touching it"
  local port
  for port in "$CTLD_PORT" "$SLURMD_PORT"; do
    port_in_use "$port" && skip "port $port is in use (set SLURM_TEST_PORT to another base port)"
  done

  # Unix socket paths (munge's, slurmd's per-step sockets in its spool) are limited to 107 bytes.
  (( ${#STATE} <= 64 )) || fail "SLURM_TEST_DIR=$STATE is too long for the sockets inside it (64 characters at most)"
  mkdir -p "$STATE"
  # munged needs the socket directory (and its parents) executable by everyone.
  chmod 755 "$STATE"
  write_conf
  chmod 755 "$STATE/munge"
  # A fresh cluster each start: no jobs, job ids from 1 (slurmctld -c alone keeps the id counter).
  rm -rf "$STATE"/spool/slurmctld/* "$STATE"/spool/slurmd/*
  rm -f "$STATE"/log/*.log "$STATE"/log/jobcomp.txt "$STATE"/run/*.pid

  if [[ ! -s $STATE/munge/munge.key ]]; then
    # A private key: 1 KiB from the kernel's CSPRNG, as mungekey(8) would create it.
    (umask 077 && dd if=/dev/urandom of="$STATE/munge/munge.key" bs=1024 count=1 status=none)
  fi
  chmod 400 "$STATE/munge/munge.key"
  munged --key-file="$STATE/munge/munge.key" --socket="$MUNGE_SOCKET" --pid-file="$MUNGED_PID" \
         --log-file="$STATE/munge/munged.log" --seed-file="$STATE/munge/munged.seed" \
    || start_failed "munged did not start"
  munge -S "$MUNGE_SOCKET" -n | unmunge -S "$MUNGE_SOCKET" >/dev/null \
    || start_failed "munged runs but a credential does not round-trip"

  # -c: start from an empty state (no jobs from an earlier run of this directory).
  slurmctld -c -f "$CONF" || start_failed "slurmctld did not start"
  local t=0
  until scontrol ping 2>/dev/null | grep -q 'is UP'; do
    (( t++ < START_TIMEOUT )) || start_failed "slurmctld does not answer after ${START_TIMEOUT}s"
    (( t < 3 )) || is_ours "$(pid_from "$CTLD_PID")" slurmctld || start_failed "slurmctld exited"
    sleep 1
  done
  slurmd -f "$CONF" -N "$(short_hostname)" || start_failed "slurmd did not start"
  t=0
  local state=
  while :; do
    state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n 1)
    [[ $state == idle ]] && break
    (( t++ < START_TIMEOUT )) || start_failed "node state is '$state' after ${START_TIMEOUT}s, not idle: $(sinfo -h -R 2>/dev/null)"
    (( t < 3 )) || is_ours "$(pid_from "$SLURMD_PID")" slurmd || start_failed "slurmd exited"
    sleep 1
  done
  say "cluster up in $STATE (slurmctld pid $(pid_from "$CTLD_PID"), slurmd pid $(pid_from "$SLURMD_PID"), munged pid $(pid_from "$MUNGED_PID")); source $STATE/env.sh"
}

# Send TERM to our daemon NAME from PIDFILE, wait up to 15 s, then KILL.
stop_daemon() {
  local name=$1 pidfile=$2 quiet=$3 pid t
  pid=$(pid_from "$pidfile")
  if is_ours "$pid" "$name"; then
    [[ -n $quiet ]] || say "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    # Wait for the process itself to go: while it exits, its environ already reads empty.
    for ((t = 0; t < 150; t++)); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then
      say "$name (pid $pid) ignores TERM; killing it"
      kill -KILL "$pid" 2>/dev/null || true
      for ((t = 0; t < 50; t++)); do alive "$pid" || break; sleep 0.1; done
    fi
  fi
  rm -f "$pidfile"
}

do_stop() {
  local quiet=${1:-} pid t
  export SLURM_CONF=$CONF
  if is_ours "$(pid_from "$CTLD_PID")" slurmctld; then
    # Cancel our jobs first so that slurmd takes their processes down with them.
    local jobs
    jobs=$(squeue -h -o '%A' 2>/dev/null || true)
    if [[ -n $jobs ]]; then
      say "cancelling jobs still queued or running: $(echo $jobs)"
      scancel $jobs 2>/dev/null || true
      for ((t = 0; t < 30; t++)); do [[ -z $(squeue -h -o '%A' 2>/dev/null) ]] && break; sleep 1; done
    fi
  fi
  stop_daemon slurmd "$SLURMD_PID" "$quiet"
  stop_daemon slurmctld "$CTLD_PID" "$quiet"
  # A job step outlives a killed slurmd; slurmstepd inherits SLURM_CONF from our slurmd.
  for pid in $(pids_named slurmstepd); do
    if is_ours "$pid" slurmstepd; then
      say "killing leftover slurmstepd (pid $pid) and its job"
      # The job script and what it started (their tree, taken before anything dies and is reparented).
      kill -KILL "$pid" $(descendants_of "$pid") 2>/dev/null || true
    fi
  done
  stop_daemon munged "$MUNGED_PID" "$quiet"
  rm -f "$MUNGE_SOCKET" "$MUNGE_SOCKET.lock"
}

do_status() {
  local ok=0 name pidfile
  for name in munged slurmctld slurmd; do
    case $name in
      munged) pidfile=$MUNGED_PID ;; slurmctld) pidfile=$CTLD_PID ;; slurmd) pidfile=$SLURMD_PID ;;
    esac
    if is_ours "$(pid_from "$pidfile")" "$name"; then
      echo "$name: running (pid $(pid_from "$pidfile"))"
    else
      echo "$name: not running"; ok=3
    fi
  done
  if [[ $ok == 0 ]]; then
    export SLURM_CONF=$CONF
    sinfo; squeue
  fi
  return $ok
}

# wait SECONDS ID...: poll squeue until none of the jobs is pending, running or completing. An array
# job's tasks have their own job ids; %F is the array's id (the job id for a plain job), so asking for
# both %F and %A catches a job by either id. Exit 1 on timeout, with the queue printed.
do_wait() {
  local timeout=$1 start now ids left
  shift
  [[ $timeout =~ ^[0-9]+$ && $# -gt 0 ]] || fail "usage: cluster.sh wait SECONDS JOBID..."
  export SLURM_CONF=$CONF
  ids=" $* "
  start=$(date +%s)
  while :; do
    local queue
    # A failing squeue (controller gone) must not read as "the queue is empty".
    queue=$(squeue -h -o '%F %A %T') || fail "squeue failed while waiting for jobs $*"
    left=$(awk -v ids="$ids" 'index(ids, " " $1 " ") || index(ids, " " $2 " ")' <<< "$queue")
    [[ -z $left ]] && return 0
    now=$(date +%s)
    if (( now - start >= timeout )); then
      say "jobs $* still in the queue after ${timeout}s:"
      squeue >&2 || true
      return 1
    fi
    sleep 2
  done
}

case ${1:-} in
  start) do_start ;;
  stop) do_stop; say "stopped (state directory $STATE)" ;;
  status) do_status ;;
  wait) shift; do_wait "$@" ;;
  *) echo "usage: $0 start|stop|status|wait SECONDS JOBID..." >&2; exit 2 ;;
esac
