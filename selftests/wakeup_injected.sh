#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_injected.sh - preemption held off on the sleeper's CPU shows up as
# wakeup latency, blamed on the thread that held it
#
# Proves (Documentation/latency_hist.rst, "wakeup/", "max_latency-CPUx"):
# while lh_load_test holds preemption off on CPU 1 for N = 8000 us at a time,
# a SCHED_FIFO 80 sleeper pinned to CPU 1 (pid filter on it) that is due
# inside such a section cannot run until the section ends; so wakeup/CPU1's
# maximum is >= N/2, no wakeup is lost (total >= L - 1), and the
# max record's victim is the sleeper and its culprit is lh_load_test (the
# task switched out for it): the worst case is the one the sections made,
# not one the emulator made.
#
# Why N/2 is safe: the sleeper is due every P = 10 ms; sections of N = 8 ms
# repeat every C = N + gap + the kthread's wakeup and the sleeper's run,
# gap = 3 ms, so C is 11 to 13 ms. From one period to the next the due
# instant moves back by d = C - P (1 to 3 ms) against the section cycle, so
# once per sweep through a cycle it falls within the first d ms of a
# section and waits >= N - d >= 5 ms; 40 periods sweep 40 ms or more, over
# three cycles. A gap of 1 ms made C about equal to P under a slow emulator:
# the phases then locked (every loop 2.7 ms late, none more). The sections
# start before the sleeper's loops and outlast them (sl_go_under_sections).
# Emulation jitter moves the phases but cannot shorten a section (the
# kthread spins N us on the monotonic clock); N/2 = 4 ms leaves room for d
# up to 4 ms.
#
# Under emulation a run can be too noisy for two of these checks, and then
# says so instead: a culprit other than lh_load_test is not a failure when
# the run without sections already reached N/2 us, or the run with them
# exceeded N, or it is the idle task and the sleeper overran a period (the
# emulator may own the maximum; lt_noise_reason), and the sample count is
# not checked when the sleeper overran a period. The max record's victim is
# checked either way.
#
# requires: rt_sleeper cpu1 lh_load_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

L=40
PERIOD=10000
N=8000
BOUND=$((N / 2))
SECTIONS=48	# 48 x >= 11 ms outlast the 60 + 400 ms of the loops
GAP=3000
PRIO=80

sl_setup
lh_plan 4
lh_load_or_bail
lt_load cpu=1 mode=preempt delay_us=$N count=$SECTIONS gap_us=$GAP ||
	lh_bail "lh_load_test not available"

# run_sleeper WITH_LOAD - one pid-filtered run of the sleeper on CPU 1
run_sleeper()
{
	sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L ||
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
}

# The same run without sections, for the log only: emulation alone can
# exceed the bound now and then (a vCPU thread preempted on a busy host), so
# the bound alone proves little; the culprit check below is what tells the
# sections from the emulator.
lh_case_begin
run_sleeper 0
base=$(hl_max wakeup 1)
lh_diag "without sections: wakeup/CPU1 maximum $base us"

done_before=$(cat "$LT_PARAMS/sections_done")
run_sleeper 1
m=$(hl_max wakeup 1)
overrun=$(sl_overrun_reason) && lh_diag "$overrun"
done_after=$(cat "$LT_PARAMS/sections_done")
[ $((done_after - done_before)) -eq $SECTIONS ] ||
	lh_err "lh_load_test ran $((done_after - done_before)) sections, expected $SECTIONS"
# Every loop is one timer wakeup, and none may be lost (>= L - 1). A starved
# sleeper can also see a few real extra wakeups: one CI run counted 41 + 1
# sharedprio for 40 loops (plausibly a sleeping lock on PREEMPT_RT whose
# holder the 8 ms sections starve, PI-boosted to the sleeper's priority), so
# the upper bound allows L / 10; the exact count without load is wakeup_pid's.
total=$(hl_total_all wakeup wakeup/sharedprio)
if [ -n "$overrun" ]; then
	lh_diag "wakeup + sharedprio hold $total samples of tid $tid for $L loops; not checked: $overrun"
elif ! lh_in_range "$total" $((L - 1)) $((L + L / 10)); then
	lh_err "wakeup + sharedprio hold $total samples of tid $tid, expected $((L - 1))..$((L + L / 10))"
fi
if [ "$m" = "<undef>" ]; then
	lh_err "wakeup/CPU1 is empty"
elif [ "$m" -lt $BOUND ]; then
	lh_err "wakeup/CPU1 maximum $m us < $BOUND us with $N us preempt-off sections"
fi
lh_case_end preempt_off_sections_raise_the_wakeup_max

lh_case_begin
LT_NOISE=
if ! hl_maxrec wakeup 1 || [ -n "$MR_NONE" ]; then
	lh_err "wakeup/max_latency-CPU1: no valid record: '$MR_LINE'"
else
	[ "$MR_VPID" = "$tid" ] || lh_err "victim pid $MR_VPID, expected $tid"
	[ "$MR_VCOMM" = rt_sleeper ] || lh_err "victim comm '$MR_VCOMM', expected rt_sleeper"
	[ "$MR_VPRIO" = $PRIO ] || lh_err "victim priority $MR_VPRIO, expected $PRIO"
	[ "$MR_LAT" = "$m" ] || lh_err "record latency $MR_LAT != histogram maximum $m"
	lt_check_culprit "$base" "$m" $N "$overrun"
fi
lt_case_end_culprit max_record_blames_lh_load_test

lh_case_begin
hl_check_invariants 0
lh_case_end invariants_hold

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
