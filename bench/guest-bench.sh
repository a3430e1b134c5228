#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh - the part of the latency_hist benchmark that runs inside the
# qemu guest (scripts/bench.sh boots it with -icount). Prints one
# machine-readable line per figure; scripts/bench-report.awk turns them into
# the report.
#
#   guest-bench.sh run     alternating rounds of every configuration and
#                          workload, then the probe microbenchmark and memory
#   guest-bench.sh mem     memory and read cost only (the many-vCPU guest)
#   guest-bench.sh micro   the probe microbenchmark only
#   guest-bench.sh scale   the rounds and the microbenchmark, no memory (the
#                          scale boots with many vCPUs, scripts/bench.sh --smp)
#
# Environment (defaults in brackets):
#   LH_MODULE     latency_hist.ko                      [required]
#   LH_BENCH_DIR  directory of rt_pingpong and the bench modules [this dir]
#   ROUNDS [3]  PP_LOOPS [5000]  PERF_LOOPS [5000]  HB_LOOPS [100]  SYS_LOOPS [20000]
#   MICRO_CALLS [1000000]  CONFIGS [every one this kernel supports; a name
#   with _k appended (taw_k) loads the module with clock=kernel]
#   WORKLOADS [pingpong perfpipe hackbench syscall]  WAKER_GAP [300]
#   MICRO_ONLY [every scenario; else those whose name starts with it]
#
# Lines: RESULT round=R config=C workload=W value=V unit=U
#        MICRO config=C scenario=S ns_per_round=X ns_per_call=Y
#        MICRO_WAKERS config=C scenario=S wakers=N switch_pairs=P waker_gap=G
#        MICRO_FAIR config=C scenario=S wakings=W fair_path=F
#        MEM cpus=N type=T status_bytes=B meminfo_bytes=M
#        READ cpus=N type=T files=K bytes=B ns=X
#        INFO ... / SKIP ...
# shellcheck disable=SC2016,SC2086 # tracefs wants literal $vars; word lists split on purpose
set -u

BENCH=${LH_BENCH_DIR:-$(cd "$(dirname "$0")" && pwd)}
ROUNDS=${ROUNDS:-3}
PP_LOOPS=${PP_LOOPS:-5000}
PERF_LOOPS=${PERF_LOOPS:-5000}
HB_LOOPS=${HB_LOOPS:-100}
SYS_LOOPS=${SYS_LOOPS:-20000}
MICRO_CALLS=${MICRO_CALLS:-1000000}
WORKLOADS=${WORKLOADS:-pingpong perfpipe hackbench syscall}
WAKER_GAP=${WAKER_GAP:-300}
MICRO_ONLY=${MICRO_ONLY:-}
LH=/sys/kernel/debug/latency_hist
TR=/sys/kernel/tracing
CPU=1					# where the pinned workloads run
ncpus=$(grep -c ^processor /proc/cpuinfo)
[ "$ncpus" -gt 1 ] || CPU=0

# have_tp - does this kernel have a trace event (system/name)?
have_tp() {
	[ -d "$TR/events/$1" ]
}

# lh_on - load latency_hist (with $LH_ARGS) and turn on the given switches
lh_on() {
	local sw
	insmod "$LH_MODULE" $LH_ARGS || return 1
	for sw in "$@"; do
		echo 1 > "$LH/enable/$sw" || return 1
	done
}

# budgets TYPE... - an outlier budget no sample reaches (1 s) on each TYPE:
# its compare on every sample, its log never written
budgets() {
	local t
	for t in "$@"; do
		echo 1000000 > "$LH/$t/outlier_us" || return 1
	done
}

# views TYPE... - the per-task and per-cgroup views of each TYPE on
views() {
	local t
	for t in "$@"; do
		echo 1 > "$LH/$t/views" || return 1
	done
}

# lh_off - unload latency_hist
lh_off() {
	rmmod latency_hist
}

# events_set - turn a list of trace events on (1) or off (0) and clear the buffer
events_set() {
	local v=$1 e
	shift
	for e in "$@"; do
		echo "$v" > "$TR/events/$e/enable" || return 1
	done
	[ "$v" = 1 ] || echo > "$TR/trace"
}

# histtrig_set - the wakeup-latency hist-trigger recipe of seed 001 on (1) or off (0)
histtrig_set() {
	local waking='hist:keys=pid:ts0=common_timestamp.usecs'
	local switch='hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid)'
	local synth='hist:keys=lat:sort=lat'
	if [ "$1" = 1 ]; then
		echo 'wakeup_latency u64 lat; pid_t pid' >> "$TR/synthetic_events" &&
		echo "$waking" >> "$TR/events/sched/sched_waking/trigger" &&
		echo "$switch" >> "$TR/events/sched/sched_switch/trigger" &&
		echo "$synth" >> "$TR/events/synthetic/wakeup_latency/trigger"
	else
		echo "!$synth" >> "$TR/events/synthetic/wakeup_latency/trigger"
		echo "!$switch" >> "$TR/events/sched/sched_switch/trigger"
		echo "!$waking" >> "$TR/events/sched/sched_waking/trigger"
		echo '!wakeup_latency u64 lat; pid_t pid' >> "$TR/synthetic_events"
	fi
}

# The BPF peer: what many would run instead, a per-CPU histogram of RT
# wakeup latency from sched_waking to sched_switch (Debian's bpftrace).
BPF_PROG='tracepoint:sched:sched_waking /args->prio < 100/ { @start[args->pid] = nsecs; }
tracepoint:sched:sched_switch /@start[args->next_pid]/ {
	@usecs[cpu] = hist((nsecs - @start[args->next_pid]) / 1000);
	delete(@start[args->next_pid]);
}'
BPF_OUT=/tmp/lh-bench-bpftrace.out
BPF_PID=

# bpf_set - the bpftrace peer on (1: started, and attached) or off (0)
bpf_set() {
	local i
	if [ "$1" = 1 ]; then
		command -v bpftrace > /dev/null || { echo "SKIP config=bpf: no bpftrace" >&2; return 1; }
		bpftrace -e "$BPF_PROG" > "$BPF_OUT" 2>&1 &
		BPF_PID=$!
		for i in $(seq 1 600); do
			grep -q '^Attaching' "$BPF_OUT" && break
			kill -0 "$BPF_PID" 2> /dev/null || break
			sleep 0.5
		done
		sleep 2		# "Attaching" comes before the attach itself
		kill -0 "$BPF_PID" 2> /dev/null && grep -q '^Attaching' "$BPF_OUT" && return 0
		echo "INFO config=bpf: bpftrace did not attach: $(tr '\n' ' ' < "$BPF_OUT" | cut -c1-300)"
		return 1
	fi
	[ -n "$BPF_PID" ] || return 0
	kill -INT "$BPF_PID" 2> /dev/null
	wait "$BPF_PID"
	BPF_PID=
	grep -q '^@usecs\[' "$BPF_OUT" || { echo "INFO config=bpf: no histogram printed"; return 1; }
}

SCHED_EVENTS="sched/sched_switch sched/sched_waking sched/sched_wakeup"
PIRQ_EVENTS="preemptirq/irq_disable preemptirq/irq_enable preemptirq/preempt_disable preemptirq/preempt_enable"

# config_set - set up (1) or tear down (0) one configuration; C_k is C
# with the module loaded with clock=kernel (the kernel's clocks, no TSC)
config_set() {
	local on=$1 c=$2
	LH_ARGS=
	case $c in
	*_k) LH_ARGS=clock=kernel; c=${c%_k} ;;
	esac
	case $c in
	unloaded) return 0 ;;
	loaded)   if [ "$on" = 1 ]; then lh_on; else lh_off; fi ;;
	empty)    if [ "$on" = 1 ]; then insmod "$BENCH/lh_empty_probes.ko"; else rmmod lh_empty_probes; fi ;;
	empty_pirq) if [ "$on" = 1 ]; then insmod "$BENCH/lh_empty_probes.ko" preemptirq=1; else rmmod lh_empty_probes; fi ;;
	wakeup)   if [ "$on" = 1 ]; then lh_on wakeup; else lh_off; fi ;;
	explain)  if [ "$on" = 1 ]; then lh_on && echo 1 > "$LH/explain/enable"; else lh_off; fi ;;
	wakeup_x) if [ "$on" = 1 ]; then lh_on wakeup && echo 1 > "$LH/explain/enable"; else lh_off; fi ;;
	wakeup_o) if [ "$on" = 1 ]; then lh_on wakeup && budgets wakeup wakeup/sharedprio; else lh_off; fi ;;
	wakeup_v) if [ "$on" = 1 ]; then lh_on wakeup && views wakeup wakeup/sharedprio; else lh_off; fi ;;
	mto)      if [ "$on" = 1 ]; then lh_on missed_timer_offsets; else lh_off; fi ;;
	taw)      if [ "$on" = 1 ]; then lh_on wakeup missed_timer_offsets timerandwakeup; else lh_off; fi ;;
	empty_sys) if [ "$on" = 1 ]; then insmod "$BENCH/lh_empty_probes.ko" syscalls=1; else rmmod lh_empty_probes; fi ;;
	st)       if [ "$on" = 1 ]; then lh_on wakeup switchtime; else lh_off; fi ;;
	twsw)     if [ "$on" = 1 ]; then lh_on wakeup missed_timer_offsets timerandwakeup switchtime timerwakeupswitch; else lh_off; fi ;;
	pirq)     if [ "$on" = 1 ]; then lh_on preemptirqsoff; else lh_off; fi ;;
	softirq)  if [ "$on" = 1 ]; then lh_on softirq; else lh_off; fi ;;
	irq)      if [ "$on" = 1 ]; then lh_on irq; else lh_off; fi ;;
	pirq_x)   if [ "$on" = 1 ]; then lh_on preemptirqsoff && echo 1 > "$LH/explain/enable"; else lh_off; fi ;;
	all)      if [ "$on" = 1 ]; then lh_on $ALL_SW; else lh_off; fi ;;
	histtrig) histtrig_set "$on" ;;
	bpf)      bpf_set "$on" ;;
	events)   events_set "$on" $SCHED_EVENTS ;;
	events_pirq) events_set "$on" $PIRQ_EVENTS ;;
	*) echo "unknown config $c" >&2; return 1 ;;
	esac
}

# workload - run one workload; prints "value unit"
workload() {
	case $1 in
	pingpong)
		"$BENCH/rt_pingpong" -l "$PP_LOOPS" -c "$CPU" |
			sed -n 's/.*ns_per_roundtrip=\([0-9.]*\).*/\1 ns_per_roundtrip/p' ;;
	perfpipe)
		taskset -c "$CPU" perf bench sched pipe -l "$PERF_LOOPS" 2>&1 |
			awk '/usecs\/op/ { printf "%.1f ns_per_op\n", $1 * 1000 }' ;;
	hackbench)
		hackbench -p -g 2 -f 5 -l "$HB_LOOPS" 2>&1 |
			awk '/^Time:/ { printf "%.3f ms\n", $2 * 1000 }' ;;
	syscall)
		taskset -c "$CPU" perf bench syscall basic -l "$SYS_LOOPS" 2>&1 |
			awk '/usecs\/op/ { printf "%.1f ns_per_syscall\n", $1 * 1000 }' ;;
	esac
}

# status_switches - every switch of the module this kernel can use, in
# status order (which lists a switch after those it needs)
status_switches() {
	insmod "$LH_MODULE" || return 1
	awk '$2 == "available=1" {
		for (i = 5; i <= NF; i++) if ($i ~ /^switch=/) s = substr($i, 8)
		if (!(s in seen)) { seen[s] = 1; printf "%s%s", sep, s; sep = " " }
	}' "$LH/status"
	rmmod latency_hist
}

# pick_configs - every configuration this kernel supports, in run order
pick_configs() {
	local pirq=0
	have_tp preemptirq/irq_disable && have_tp preemptirq/preempt_disable && pirq=1
	ALL_SW=$(status_switches)
	CONFIGS_DEFAULT="unloaded loaded empty wakeup mto taw empty_sys st twsw softirq"
	# explain on alone (every interrupt's probes) and with wakeup (filing)
	# and the irq type where interrupts are threaded (status says so)
	if insmod "$LH_MODULE"; then
		[ -e "$LH/explain/enable" ] && CONFIGS_DEFAULT="$CONFIGS_DEFAULT explain wakeup_x"
		[ -e "$LH/wakeup/outlier_us" ] && CONFIGS_DEFAULT="$CONFIGS_DEFAULT wakeup_o"
		[ -e "$LH/wakeup/views" ] && CONFIGS_DEFAULT="$CONFIGS_DEFAULT wakeup_v"
		grep -q '^irq available=1 ' "$LH/status" && CONFIGS_DEFAULT="$CONFIGS_DEFAULT irq"
		rmmod latency_hist
	fi
	if [ "$pirq" = 1 ]; then
		CONFIGS_DEFAULT="$CONFIGS_DEFAULT empty_pirq pirq"
		# explain on: what a section pays at its close
		case $CONFIGS_DEFAULT in *explain*) CONFIGS_DEFAULT="$CONFIGS_DEFAULT pirq_x" ;; esac
	else
		echo "SKIP pirq empty_pirq events_pirq: no preemptirq tracepoints in this kernel"
	fi
	CONFIGS_DEFAULT="$CONFIGS_DEFAULT all"
	if [ -e "$TR/events/sched/sched_switch/hist" ]; then
		CONFIGS_DEFAULT="$CONFIGS_DEFAULT histtrig"
	else
		echo "SKIP histtrig: no hist triggers (CONFIG_HIST_TRIGGERS) in this kernel"
	fi
	CONFIGS_DEFAULT="$CONFIGS_DEFAULT events"
	[ "$pirq" = 1 ] && CONFIGS_DEFAULT="$CONFIGS_DEFAULT events_pirq"
	CONFIGS=${CONFIGS:-$CONFIGS_DEFAULT}
}

# run_rounds - A B C ... A B C ...: every configuration once per round
run_rounds() {
	local r c w out
	for r in $(seq 0 "$ROUNDS"); do		# round 0 is the warm-up
		for c in $CONFIGS; do
			if ! config_set 1 "$c"; then
				echo "SKIP config=$c: setup failed"
				config_set 0 "$c" 2>/dev/null
				continue
			fi
			for w in $WORKLOADS; do
				out=$(workload "$w")
				set -- $out
				echo "RESULT round=$r config=$c workload=$w value=${1:-NA} unit=${2:-NA}"
			done
			config_set 0 "$c" || echo "INFO config=$c: teardown failed"
		done
	done
}

# run_micro - the probe microbenchmark under each configuration; under
# histtrig and events it runs the kernel's own trigger and event probes
run_micro() {
	local c
	for c in $CONFIGS; do
		config_set 1 "$c" || { config_set 0 "$c" 2>/dev/null; continue; }
		dmesg -C
		insmod "$BENCH/lh_probe_bench.ko" calls="$MICRO_CALLS" waker_gap="$WAKER_GAP" \
			${MICRO_ONLY:+only="$MICRO_ONLY"} 2>/dev/null
		dmesg | sed -n 's/.*lh_probe_bench: scenario=\([a-z_]*\) .*ns_per_round=\([0-9.]*\) ns_per_call=\([0-9.]*\).*/\1 \2 \3/p' |
			while read -r s pr pc; do
				echo "MICRO config=$c scenario=$s ns_per_round=$pr ns_per_call=$pc"
			done
		dmesg | sed -n 's/.*lh_probe_bench: wakers \(scenario=.*\)/MICRO_WAKERS config='"$c"' \1/p'
		case $MICRO_ONLY in
		''|w|wa|wak|wake|waker|wakers*)	# the wakers_* scenarios ran: count the fair path
			[ "$(cat "$LH/enable/wakeup" 2>/dev/null)" = 1 ] && [ "$ncpus" -gt 1 ] &&
				count_fair "$c" ;;
		esac
		config_set 0 "$c"
	done
}

# count_fair - run the wakers_* scenarios again with a kprobe on the wakeup
# lock's out-of-line fair path (lh_wakeup_spin_fair) and print how many
# wakings took it; the kprobe's trap costs, so this pass is not timed
count_fair() {
	dmesg -C
	insmod "$BENCH/lh_probe_bench.ko" calls="$MICRO_CALLS" waker_gap="$WAKER_GAP" only=wakers count_fair=1 2>/dev/null
	dmesg | sed -n -e 's/.*lh_probe_bench: fair \(scenario=.*\)/MICRO_FAIR config='"$1"' \1/p' \
		-e 's/.*lh_probe_bench: \(fair_path skipped.*\)/SKIP \1/p'
}

# meminfo_kb - a /proc/meminfo field in kB
meminfo_kb() {
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}

# run_mem - bytes per type from status, and what the kernel's counters say was taken
run_mem() {
	local sw f line
	local -A b0 b1
	insmod "$LH_MODULE" || return 1
	for sw in $ALL_SW; do
		sync; echo 3 > /proc/sys/vm/drop_caches
		for f in MemFree VmallocUsed Slab; do b0[$f]=$(meminfo_kb $f); done
		echo 1 > "$LH/enable/$sw"
		for f in MemFree VmallocUsed Slab; do b1[$f]=$(meminfo_kb $f); done
		# MemFree misses pages served from the per-CPU free lists; vmalloc and slab do not
		line="INFO switch=$sw memfree_drop_bytes=$(( (b0[MemFree] - b1[MemFree]) * 1024 ))"
		line="$line vmalloc_rise_bytes=$(( (b1[VmallocUsed] - b0[VmallocUsed]) * 1024 ))"
		echo "$line slab_rise_bytes=$(( (b1[Slab] - b0[Slab]) * 1024 ))"
	done
	while read -r t _ _ b sw _; do
		echo "MEM cpus=$ncpus type=$t status_bytes=${b#bytes=} ${sw:-switch=$t}"
	done < "$LH/status"
	run_read
	rmmod latency_hist
}

# run_read - time reading every CPUx and max_latency-CPUx file of each type,
# and its rows file
run_read() {
	local d r
	for d in $(awk '{ print $1 }' "$LH/status"); do
		[ -e "$LH/$d/CPU0" ] || continue
		"$BENCH/lh_readall" "$LH/$d"/CPU* > /dev/null	# warm-up
		r=$("$BENCH/lh_readall" "$LH/$d"/CPU* "$LH/$d"/max_latency-CPU* 2>/dev/null ||
		    "$BENCH/lh_readall" "$LH/$d"/CPU*)
		echo "READ cpus=$ncpus type=$d $r"
		# the rows file: the same histograms, non-zero rows only (issue 32)
		[ -e "$LH/$d/rows" ] || continue
		"$BENCH/lh_readall" "$LH/$d/rows" > /dev/null	# warm-up
		echo "READROWS cpus=$ncpus type=$d $("$BENCH/lh_readall" "$LH/$d/rows")"
	done
}

[ -n "${LH_MODULE:-}" ] || { echo "LH_MODULE is not set" >&2; exit 2; }
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
echo "INFO kernel=$(uname -r) cpus=$ncpus mode=${1:-run} rounds=$ROUNDS pp_loops=$PP_LOOPS perf_loops=$PERF_LOOPS hb_loops=$HB_LOOPS micro_calls=$MICRO_CALLS waker_gap=$WAKER_GAP"
pick_configs
echo "INFO configs=$CONFIGS"
# which clock the module reads here, and the TSC flags it decides by
if insmod "$LH_MODULE"; then
	echo "INFO clock $(grep -o 'clock=[^ ]* clock_why=[^ ]*' "$LH/status" | sort -u | tr '\n' ' ')" \
		"tsc_flags=$(grep -m1 '^flags' /proc/cpuinfo | grep -ow 'tsc\|constant_tsc\|nonstop_tsc\|tsc_reliable\|tsc_known_freq' | tr '\n' ,)" \
		"clocksource=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	rmmod latency_hist
fi
case ${1:-run} in
run)
	run_rounds
	run_micro
	run_mem ;;
mem)
	run_mem ;;
micro)
	run_micro ;;
scale)
	run_rounds
	run_micro ;;
*)	echo "usage: guest-bench.sh run|mem|micro|scale" >&2; exit 2 ;;
esac
echo "INFO done"
