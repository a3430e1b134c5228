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
#  3. pid filter on one side of a SCHED_OTHER futex ping-pong across CPUs 0
#     and 1 (futex_pingpong), a fair spinner sharing CPU 1 (so that the
#     followed thread can be ineligible when it blocks, which is when EEVDF
#     delays its dequeue), twice (the second time it also works 30 us per
#     round): wakeup + sharedprio hold one sample per waking of the followed
#     thread that had a later switch-in (its voluntary context switches),
#     PP_LOST at most missing over both runs. Some wakings come while it
#     switches out of its futex wait; on 6.12 and later the delayed dequeue
#     leaves it on_rq (se.sched_delayed), and a probe that took that for
#     "running" dropped the wakeup (Documentation/latency_hist.rst,
#     "wakeup/"): 6.12-rt, before the fix, 4 + 4 lost of 1996 + 1992. The
#     slack is for the hole that documentation names: a waking just before
#     __schedule() dequeues the wakee is dropped on every kernel (without
#     the spinner about 4 in 2000 here, before and after the fix; with it,
#     after the fix, 1 + 0).
#
# requires: rt_sleeper futex_pingpong cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=100
PERIOD=10000
PP_ROUNDS=2000	# rounds of each ping-pong
PP_LOST=2	# wakings of both the probe may miss (header, case 3)

sl_setup
lh_plan 5
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

lh_case_begin
lost=0
for args in "-l $PP_ROUNDS -H" "-l $PP_ROUNDS -H -b 30"; do
	# shellcheck disable=SC2086 # the options are words
	sl_start_bin "$LH_BINDIR/futex_pingpong" "$LH_TMP/pp" $args ||
		lh_bail "futex_pingpong did not start"
	tid=$SL_TID
	lh_filter wakeup "$tid"
	lh_reset wakeup wakeup/sharedprio
	lh_enable wakeup
	sl_go
	sl_wait
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	switched=$(awk '$1 == "pong" { print $5 }' "$LH_TMP/pp")
	total=$(hl_total_all wakeup wakeup/sharedprio)
	lh_diag "futex_pingpong $args: $(grep '^pong' "$LH_TMP/pp"); wakeup + sharedprio: $total"
	if [ -z "$switched" ]; then
		lh_err "futex_pingpong printed no count"
	elif [ "$total" -gt "$switched" ]; then
		lh_err "$args: $total samples for $switched wakings followed by a switch-in"
	else
		lost=$((lost + switched - total))
	fi
done
[ "$lost" -le $PP_LOST ] ||
	lh_err "$lost wakings followed by a switch-in filed nothing, more than $PP_LOST"
lh_case_end sched_other_pingpong_wakee_switching_out_is_filed

hl_finish_checked 0
