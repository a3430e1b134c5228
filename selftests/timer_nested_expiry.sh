#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015 # lh_load_or_bail takes optional parameters; A && B || C reports
#
# timer_nested_expiry.sh - a hard sleeper timer expiring inside a soft one's
# callback window does not take the soft one's timer offset away
#
# Proves (Documentation/latency_hist.rst, "timerandwakeup/"): the missed
# offset of a timer reaches the wakeup its callback makes even when another
# sleeper's expiry nests in that window, as a hard timer interrupt does
# during a soft timer's callback (softirq, or the ktimers thread on
# PREEMPT_RT). That nesting cannot be made on cue, so lh_probe_test calls
# the probes in that order (its nested_expiry scenario): expiry of A's
# sleeper 5 ms late, in task context; then, in a real hard interrupt (a
# hard irq_work), expiry of B's sleeper 3 ms late, B woken, B's expiry
# ends; A woken; A's expiry ends; A switched in. With the wakeup pid filter
# on A:
#  1. timerandwakeup/CPU1 holds one sample, A's, and its max record shows
#     A's own offset, 5000 us, in parentheses (not 0: the nested expiry used
#     to overwrite the offset and then clear it; not 3000, B's);
#  2. the invariants of every timer test (sleeper_lib.sh), with wakeup and
#     timerandwakeup enabled over the same interval.
#
# requires: cpu1 lh_probe_test type:missed_timer_offsets

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

lh_setup
lh_plan 3
lh_load_or_bail
pt_load 1

lh_case_begin
lh_filter wakeup "$PT_A"
lh_reset wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup
lh_enable wakeup missed_timer_offsets timerandwakeup
pt_run nested_expiry
lh_expect_write_ok "$LH_DIR/enable/timerandwakeup" 0
hl_show_totals wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup
hl_show_maxrecs timerandwakeup
n=$(hl_total timerandwakeup 1)
[ "$n" = 1 ] || lh_err "timerandwakeup/CPU1 holds $n samples, expected 1 (A's wakeup)"
if hl_maxrec timerandwakeup 1 && [ -z "$MR_NONE" ]; then
	[ "$MR_VPID" = "$PT_A" ] || lh_err "timerandwakeup victim $MR_VPID, expected A ($PT_A)"
	[ "$MR_TOFF" = 5000 ] ||
		lh_err "timerandwakeup record of A has timer offset $MR_TOFF us, expected A's own 5000 us"
	[ "$MR_LAT" -ge 5000 ] || lh_err "timerandwakeup record of A is $MR_LAT us, below its offset"
else
	lh_err "timerandwakeup/max_latency-CPU1 has no record: '$MR_LINE'"
fi
lh_case_end nested_expiry_keeps_the_outer_timer_offset

lh_case_begin
hl_check_invariants 1
lh_case_end invariants_hold

pt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
