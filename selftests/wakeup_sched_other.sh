#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_sched_other.sh - SCHED_OTHER wakeups are followed only under a pid
# filter
#
# Proves (Documentation/latency_hist.rst, "Without a pid filter only
# real-time tasks are followed", "With a pid filter ... whatever its
# policy", "negative for others (nice 0 ... show -21)"):
#
#  1. no pid filter, a SCHED_OTHER sleeper (rt_sleeper -p 0) pinned to CPU 1
#     and the whole system's SCHED_OTHER wakeups (shell, kworkers) for the
#     run: no max record of wakeup/ or wakeup/sharedprio on any CPU names a
#     sleeper thread or any non-real-time victim (priority < 0 in the 99-prio
#     convention). Other RT tasks may fill the histograms meanwhile; that is
#     why the check is on victims, not on counts.
#  2. pid filter on the same kind of sleeper: L +-1 samples over wakeup +
#     sharedprio, and wakeup or sharedprio's CPU1 max record names it with
#     priority -21 (nice 0) and comm rt_sleeper.
#
# requires: rt_sleeper cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=100
PERIOD=10000

sl_setup
lh_plan 4
lh_load_or_bail

# run FILTER - one run of a SCHED_OTHER sleeper on CPU 1
run()
{
	sl_start "$LH_TMP/sl" -c 1 -p 0 -i $PERIOD -l $L ||
		lh_bail "rt_sleeper did not start"
	tid=$SL_TID
	if [ "$1" = 1 ]; then
		lh_filter wakeup "$tid"
	else
		lh_filter wakeup 0
	fi
	lh_reset wakeup wakeup/sharedprio
	lh_enable wakeup
	sl_go
	sl_wait
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	sl_show_summary
	hl_show_totals wakeup wakeup/sharedprio
	hl_show_maxrecs wakeup
	hl_show_maxrecs wakeup/sharedprio
}

lh_case_begin
run 0
recs=0
for h in wakeup wakeup/sharedprio; do
	for c in $LH_CPUS; do
		hl_maxrec $h "$c" || lh_err "$h/max_latency-CPU$c malformed: '$MR_LINE'"
		[ -z "$MR_NONE" ] || continue
		recs=$((recs + 1))
		[ "$MR_VPID" != "$tid" ] ||
			lh_err "$h/max_latency-CPU$c names the SCHED_OTHER sleeper without a pid filter"
		[ "$MR_VPRIO" -ge 0 ] ||
			lh_err "$h/max_latency-CPU$c victim '$MR_VCOMM' has priority $MR_VPRIO: a non-RT task was followed without a pid filter"
	done
done
lh_diag "max records checked: $recs"
lh_case_end sched_other_not_followed_without_pid_filter

lh_case_begin
run 1
total=$(hl_total_all wakeup wakeup/sharedprio)
sl_expect_wakeups "$tid" "$total" "wakeup + sharedprio (the SCHED_OTHER sleeper)"
h=wakeup
[ "$(hl_total wakeup 1)" -ge "$(hl_total wakeup/sharedprio 1)" ] || h=wakeup/sharedprio
if hl_maxrec $h 1 && [ -z "$MR_NONE" ]; then
	[ "$MR_VPID" = "$tid" ] || lh_err "$h/max_latency-CPU1 victim $MR_VPID, expected $tid"
	[ "$MR_VPRIO" = -21 ] || lh_err "$h/max_latency-CPU1 priority $MR_VPRIO, expected -21 (nice 0)"
	[ "$MR_VCOMM" = rt_sleeper ] || lh_err "$h/max_latency-CPU1 comm '$MR_VCOMM', expected rt_sleeper"
else
	lh_err "$h/max_latency-CPU1 has no record: '$MR_LINE'"
fi
lh_case_end sched_other_followed_under_pid_filter

hl_finish_checked 0
