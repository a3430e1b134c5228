#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043 # local: busybox ash, dash, bash
#
# guest-micro.sh - the probe microbenchmark alone, for busybox guests (arm64, armhf), where
# guest-bench.sh (bash, perf) cannot run. scripts/bench.sh runs it in an -icount guest for a kernel
# whose arch boots busybox, with the bench/ directory as the working directory.
# Its argument (guest-bench.sh's mode) is ignored: it has one.
# Environment: LH_MODULE (latency_hist.ko), LH_BENCH_DIR [.] (where lh_probe_bench.ko is),
#   MICRO_CALLS [20000], ROUNDS [2].
# Alternates ROUNDS times: nothing attached (unloaded), then latency_hist with wakeup,
# missed_timer_offsets and timerandwakeup on, loaded with clock=kernel (taw_k) and with the default
# clock (taw): the clock's before and after in one boot. Prints guest-bench.sh's INFO and MICRO lines
# (ns = instructions under -icount), which bench/report.awk reads.
LH=/sys/kernel/debug/latency_hist
BENCH=${LH_BENCH_DIR:-.}
MICRO_CALLS=${MICRO_CALLS:-20000}
ROUNDS=${ROUNDS:-2}

# micro CONFIG - run each scenario group of the microbenchmark; print its MICRO lines
micro() {
	local only
	for only in wakeup timer c_; do
		dmesg -c > /dev/null
		insmod "$BENCH/lh_probe_bench.ko" calls="$MICRO_CALLS" only=$only 2>/dev/null
		dmesg | sed -n "s/.*lh_probe_bench: scenario=\([a-z_]*\) .*ns_per_round=\([0-9.]*\) ns_per_call=\([0-9.]*\).*/MICRO config=$1 scenario=\1 ns_per_round=\2 ns_per_call=\3/p"
	done
}

# attached CONFIG CLOCK - micro with the three types on, the module loaded with clock=CLOCK
attached() {
	local sw
	insmod "$LH_MODULE" clock="$2" || { echo "SKIP config=$1: insmod clock=$2 failed"; return 1; }
	for sw in wakeup missed_timer_offsets timerandwakeup; do echo 1 > "$LH/enable/$sw"; done
	[ "$r" != 1 ] || echo "INFO clock $1: $(grep -o 'clock=[^ ]* clock_why=[^ ]*' "$LH/status" | sort -u | tr '\n' ' ')"
	micro "$1"
	rmmod latency_hist
}

[ -n "${LH_MODULE:-}" ] || { echo "LH_MODULE is not set" >&2; exit 2; }
grep -q " /sys/kernel/debug debugfs " /proc/mounts || mount -t debugfs none /sys/kernel/debug
echo "INFO kernel=$(uname -r) cpus=$(grep -c ^processor /proc/cpuinfo) mode=micro rounds=$ROUNDS micro_calls=$MICRO_CALLS"
echo "INFO configs=unloaded taw_k taw"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	micro unloaded
	attached taw_k kernel || exit 1
	attached taw auto || exit 1
	r=$((r + 1))
done
echo "INFO done"
