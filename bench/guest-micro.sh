#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-micro.sh - the probe microbenchmark alone, for busybox guests (arm64, armhf), where
# guest-bench.sh (bash, perf) cannot run. Usage, in an -icount guest: sh guest-micro.sh TREE
# (TREE: a build of latency_hist.ko and bench/lh_probe_bench.ko for that kernel; CALLS [20000]).
# Alternates, twice: nothing attached, latency_hist clock=kernel, latency_hist clock=auto (wakeup,
# missed_timer_offsets, timerandwakeup on); prints MICRO lines (ns = instructions under -icount).
LH=/sys/kernel/debug/latency_hist
cd "$1" || exit 1
micro() {
	local c=$1
	for only in wakeup timer c_; do
		dmesg -c > /dev/null
		insmod bench/lh_probe_bench.ko calls=${CALLS:-20000} only=$only 2>/dev/null
		dmesg | sed -n "s/.*lh_probe_bench: \(scenario=[a-z_]* .*ns_per_call.*\)/MICRO round=$r clock=$c \1/p"
	done
}
for r in 1 2; do
	micro none
	for c in kernel auto; do
		insmod latency_hist.ko clock=$c || exit 1
		for sw in wakeup missed_timer_offsets timerandwakeup; do echo 1 > $LH/enable/$sw; done
		echo "CLOCK $c: $(grep -o 'clock=[^ ]* clock_why=[^ ]*' $LH/status | sort -u | tr '\n' ' ')"
		micro $c
		rmmod latency_hist
	done
done
echo BENCH_DONE
