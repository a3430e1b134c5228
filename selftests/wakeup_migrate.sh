#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_migrate.sh - a wakeup that migrates before it runs is filed on the
# CPU that runs it
#
# Proves (Documentation/latency_hist.rst, "If the task is moved to another
# CPU before it runs (sched_migrate_task), its wakeup follows it and the
# sample is filed on the CPU that finally switches it in"):
# rt_sleeper -c 0 -m 1 moves its SCHED_FIFO 80 thread while it sleeps, so
# wakeup k's timer fires on the CPU it slept on and the task runs on the
# other: odd wakeups run on CPU 1, even ones on CPU 0 ("migrated" counts
# the wakeups whose CPU changed). Pid filter on the thread.
#
#  1. no load: every wakeup is followed across the move (total L +-1; a
#     wakeup left behind on the waking CPU would never be switched in there
#     and be lost): total L, and the per-CPU counts match the CPUs that ran
#     them: CPU 1 ~ ceil(L/2), CPU 0 ~ floor(L/2); each +-1, less one per
#     missed move or overrun (see run() below).
#  2. lh_load_test holds preemption off on CPU 1 for 8000 us sections: the
#     wakeups that fire on CPU 0 and run on CPU 1 wait for a section to end.
#     That latency must be on CPU 1 (max >= 4000 us, bound as in
#     wakeup_injected.sh; max record victim the sleeper) and not on CPU 0,
#     the waking CPU: lh_load_test is bound to CPU 1 and can only be
#     switched out there, so a CPU 0 record that blames it would be a
#     sample filed where the wakeup started. Not asserted, because a remote
#     wakeup of an idle vCPU under emulation alone can take as long as a
#     section (9 ms seen on 6.1-rt): that CPU 1's max record blames
#     lh_load_test (logged), and that CPU 0's max is below CPU 1's.
#
# requires: rt_sleeper cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

L=40
PERIOD=30000
N=8000
BOUND=$((N / 2))
# Sections of N us with gaps of 3 to 7 ms, >= 11 ms a cycle, enough to
# outlast the 60 ms start delay plus the L periods of the loops
# (sl_go_under_sections). The gaps vary because CPU 1 sees a wakeup every
# 2 x PERIOD = 60 ms, a multiple of the 12 ms a fixed 3 ms gap made under
# emulation: in step, every wakeup fell between two sections (6.1-rt).
SECTIONS=$(((60000 + L * PERIOD) / 11000 + 4))

sl_setup
lh_plan 4
lh_load_or_bail

# run WITH_LOAD - one pid-filtered migrating run; sets tid, mig, total, and
# slack: the wakeups that may rightly be missing or on the other CPU. A
# sleeper that wakes late (an overrun, or a move it missed because it was
# still awake half a period before its deadline) can meet rt_sleeper's
# FIFO 99 controller thread, which then is switched in before it on its
# CPU and its sample is dropped (the drop rule), or it stays on its CPU.
run()
{
	sl_start "$LH_TMP/sl" -c 0 -m 1 -p 80 -i $PERIOD -l $L ||
		lh_bail "rt_sleeper did not start"
	tid=$SL_TID
	lh_filter wakeup "$tid"
	lh_reset wakeup wakeup/sharedprio
	lh_enable wakeup
	sl_go_and_wait "$1"
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	sl_show_summary
	hl_show_totals wakeup wakeup/sharedprio
	hl_show_maxrecs wakeup
	mig=$(sl_field "$tid" migrated)
	total=$(hl_total_all wakeup wakeup/sharedprio)
	slack=$((1 + L - mig + $(sl_overruns_sum)))
}

# cpu_total CPU - wakeup + sharedprio samples on CPU
cpu_total()
{
	echo $(( $(hl_total wakeup "$1") + $(hl_total wakeup/sharedprio "$1") ))
}

lh_case_begin
run 0
[ "$mig" -ge $((L / 2)) ] || lh_err "only $mig of $L wakeups migrated: the rig did not move the sleeper"
lh_in_range "$total" $((L - slack)) $((L + 1)) ||
	lh_err "$total samples of tid $tid, expected $L (-$slack +1): migrated wakeups were lost"
c1=$(cpu_total 1)
c0=$(cpu_total 0)
lh_in_range "$c1" $(((L + 1) / 2 - slack)) $(((L + 1) / 2 + slack)) ||
	lh_err "CPU1 holds $c1 samples, expected $(((L + 1) / 2)) +-$slack (odd wakeups run there)"
lh_in_range "$c0" $((L / 2 - slack)) $((L / 2 + slack)) ||
	lh_err "CPU0 holds $c0 samples, expected $((L / 2)) +-$slack (even wakeups run there)"
lh_case_end migrated_wakeups_are_followed_and_filed_where_they_run

lh_case_begin
if lt_load cpu=1 mode=preempt delay_us=$N count=$SECTIONS \
	gap_us=3000 gap_spread_us=4000; then
	run 1
	lh_in_range "$total" $((L - slack)) $((L + 1)) ||
		lh_err "$total samples of tid $tid under load, expected $L (-$slack +1)"
	m1=$(hl_max wakeup 1)
	[ "$m1" != "<undef>" ] && [ "$m1" -ge $BOUND ] ||
		lh_err "wakeup/CPU1 maximum $m1 us < $BOUND us although CPU 1 ran $N us preempt-off sections"
	if hl_maxrec wakeup 1 && [ -z "$MR_NONE" ]; then
		[ "$MR_VPID" = "$tid" ] || lh_err "wakeup/max_latency-CPU1 victim $MR_VPID, expected $tid"
		lh_diag "CPU1 max record culprit: $MR_CCOMM"
	else
		lh_err "wakeup/max_latency-CPU1 has no record: '$MR_LINE'"
	fi
	if hl_maxrec wakeup 0 && [ -z "$MR_NONE" ] && [ "$MR_CCOMM" = lh_load_test ]; then
		lh_err "wakeup/max_latency-CPU0 blames lh_load_test, which only ran on CPU 1"
	fi
	lt_unload
	lh_case_end delay_on_the_target_cpu_is_filed_there
else
	lh_skip delay_on_the_target_cpu_is_filed_there "$LH_REQ_WHY"
fi

hl_finish_checked 0
