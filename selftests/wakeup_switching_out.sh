#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional parameters
#
# wakeup_switching_out.sh - a wakee woken while it still switches out of
# its sleep is measured, not forgotten
#
# Proves (Documentation/latency_hist.rst, "wakeup/"): sched_waking can fire
# while the wakee is still inside __schedule(), dequeued but before its own
# sched_switch; that switch then shows the wakee as prev. It is the end of
# the sleep's switch-out, not a run, and the wakeup must still be measured
# when the wakee is switched in (tight ping-pong loads lost their fastest
# samples to it). The window is a few instructions wide (a ping-pong of two
# FIFO threads across CPUs 0 and 1 in a 6.1 guest hit it in 6 of 1000
# sleeps), so lh_probe_test calls the probes in that order (its
# switching_out_a scenario, A asleep as in that window): A's waking, the
# switch from A, A switched in. With the wakeup pid filter on A:
#  1. wakeup + wakeup/sharedprio hold one sample, A's, on CPU 1, and
#     wakeup/max_latency-CPU1 names A;
#  2. the same where the kernel delays a fair task's dequeue (EEVDF's
#     DELAY_DEQUEUE, 6.12 and later: a blocked task keeps on_rq 1 with
#     se.sched_delayed set): A's waking comes while it looks so
#     (switching_out_delayed_a) and must still be measured, not taken for
#     a task that was running already; skipped on kernels without it
#     (lh_probe_test's have_sched_delayed);
#  3. the invariants of the histograms, and a clean kernel log.
#
# requires: cpu1 lh_probe_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

lh_setup
lh_plan 4
lh_load_or_bail
pt_load 1

lh_case_begin
lh_filter wakeup "$PT_A"
lh_reset wakeup wakeup/sharedprio
lh_enable wakeup
pt_run switching_out_a
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
hl_show_totals wakeup wakeup/sharedprio
hl_show_maxrecs wakeup
n=$(hl_total_all wakeup wakeup/sharedprio)
on1=$(( $(hl_total wakeup 1) + $(hl_total wakeup/sharedprio 1) ))
[ "$n" = 1 ] && [ "$on1" = 1 ] ||
	lh_err "$n samples of A ($on1 on CPU 1), expected its one wakeup on CPU 1"
if hl_maxrec wakeup 1 && [ -z "$MR_NONE" ]; then
	[ "$MR_VPID" = "$PT_A" ] || lh_err "wakeup victim $MR_VPID, expected A ($PT_A)"
elif [ "$(hl_total wakeup 1)" = 1 ]; then
	lh_err "wakeup/max_latency-CPU1 has no record: '$MR_LINE'"
fi
lh_case_end a_wakee_woken_while_switching_out_is_measured

lh_case_begin
if [ "$(cat "$PT_PARAMS/have_sched_delayed")" != Y ]; then
	lh_skip a_delayed_dequeue_wakee_woken_while_switching_out_is_measured \
		"this kernel has no delayed dequeue (se.sched_delayed)"
else
	lh_reset wakeup wakeup/sharedprio
	lh_enable wakeup
	pt_run switching_out_delayed_a
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	hl_show_totals wakeup wakeup/sharedprio
	n=$(hl_total_all wakeup wakeup/sharedprio)
	on1=$(( $(hl_total wakeup 1) + $(hl_total wakeup/sharedprio 1) ))
	[ "$n" = 1 ] && [ "$on1" = 1 ] ||
		lh_err "$n samples of A ($on1 on CPU 1), expected its one wakeup on CPU 1 (its dequeue delayed while it switched out)"
	lh_case_end a_delayed_dequeue_wakee_woken_while_switching_out_is_measured
fi

lh_case_begin
hl_check_invariants 0
lh_case_end invariants_hold

pt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
