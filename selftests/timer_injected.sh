#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# timer_injected.sh - interrupts held off across a sleeper's expiry show up
# as a missed timer offset, and in timerandwakeup for the same task
#
# Proves (Documentation/latency_hist.rst, "missed_timer_offsets/",
# "timerandwakeup/"): lh_load_test holds interrupts off on CPU 1 for N =
# 8000 us at a time while a SCHED_FIFO 80 sleeper pinned to CPU 1 (pid
# filter on it for wakeup and missed_timer_offsets) is due every 10 ms. A
# timer due inside a section can only fire when interrupts come back, so:
#  1. missed_timer_offsets/CPU1's maximum is >= N/2 (the derivation of the
#     bound is in wakeup_injected.sh: with 3 ms gaps the due instants move
#     back 1 to 3 ms per period against the section cycle, one lands in the
#     first 3 ms of a section; the sections start before the sleeper's
#     loops and end after them);
#  2. its max record: victim the sleeper (pid, comm rt_sleeper),
#     timeroffset == latency, culprit lh_load_test (the task the late timer
#     interrupted);
#  3. timerandwakeup (enabled): the wakeup of that same expiry adds its
#     wakeup latency to the offset, so timerandwakeup/CPU1's maximum is >=
#     the missed offset maximum (the (D+1)th largest offset when D of the
#     sleeper's wakeups were dropped because a more important task ran
#     first); its max record names the sleeper with a timeroffset in
#     parentheses between 1 and its latency; and it has
#     exactly as many samples as wakeup/ (every exclusive wakeup is summed,
#     with offset 0 when its timer was not late; all switches are on for
#     the whole run).
#
# Under emulation a run can be too noisy for two of these checks, and then
# says so instead: a culprit other than lh_load_test is not a failure when
# the run without sections already reached N/2 us, or the run with them
# exceeded N, or it is the idle task and the sleeper overran a period (the
# emulator may own the maximum; lt_noise_reason), and the sample count is
# not checked when the sleeper overran a period. The max record's victim is
# checked either way.
#
# requires: rt_sleeper cpu1 lh_load_test type:missed_timer_offsets

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
H=missed_timer_offsets

sl_setup
lh_plan 5
lh_load_or_bail
lt_load cpu=1 mode=irq delay_us=$N count=$SECTIONS gap_us=$GAP ||
	lh_bail "lh_load_test not available"

# run WITH_LOAD - one run with wakeup, missed_timer_offsets, timerandwakeup
run()
{
	sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
	tid=$SL_TID
	lh_filter wakeup "$tid"
	lh_filter $H "$tid"
	lh_reset wakeup wakeup/sharedprio $H timerandwakeup
	lh_enable wakeup $H timerandwakeup
	sl_go_and_wait "$1"
	lh_expect_write_ok "$LH_DIR/enable/timerandwakeup" 0
	lh_expect_write_ok "$LH_DIR/enable/$H" 0
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	sl_show_summary
	hl_show_totals $H timerandwakeup wakeup
	hl_show_maxrecs $H
	hl_show_maxrecs timerandwakeup
}

# The same run without sections, for the log only: emulation alone can
# exceed the bound now and then; the culprit check tells the sections apart.
lh_case_begin
run 0
base=$(hl_max $H 1)
lh_diag "without sections: $H/CPU1 maximum $base us"

run 1
m=$(hl_max $H 1)
overrun=$(sl_overrun_reason) && lh_diag "$overrun"
if [ "$m" = "<undef>" ]; then
	lh_err "$H/CPU1 is empty"
elif [ "$m" -lt $BOUND ]; then
	lh_err "$H/CPU1 maximum $m us < $BOUND us with $N us irqs-off sections"
fi
total=$(hl_total_all $H)
if [ -n "$overrun" ]; then
	lh_diag "$H holds $total samples of tid $tid for $L loops; not checked: $overrun"
elif ! lh_in_range "$total" $((L - 1)) $((L + 1)); then
	lh_err "$H holds $total samples of tid $tid, expected $L +-1"
fi
lh_case_end irqs_off_sections_raise_the_missed_offset

lh_case_begin
LT_NOISE=
if ! hl_maxrec $H 1 || [ -n "$MR_NONE" ]; then
	lh_err "$H/max_latency-CPU1 has no record: '$MR_LINE'"
else
	[ "$MR_VPID" = "$tid" ] || lh_err "victim pid $MR_VPID, expected $tid"
	[ "$MR_VCOMM" = rt_sleeper ] || lh_err "victim comm '$MR_VCOMM', expected rt_sleeper"
	[ "$MR_TOFF" = "$MR_LAT" ] || lh_err "timeroffset $MR_TOFF != latency $MR_LAT"
	[ "$MR_LAT" = "$m" ] || lh_err "record latency $MR_LAT != histogram maximum $m"
	lt_check_culprit "$base" "$m" $N "$overrun"
fi
lt_case_end_culprit max_record_victim_sleeper_culprit_lh_load_test

lh_case_begin
tw=$(hl_max timerandwakeup 1)
if [ "$tw" = "<undef>" ]; then
	lh_err "timerandwakeup/CPU1 is empty"
else
	# A wakeup is dropped, by design, when a more important task (say
	# migration/1) runs before the sleeper; its expiry then has no
	# timerandwakeup sample. With D such drops the largest offsets may be
	# the dropped ones, so the bound is the (D + 1)th largest offset.
	dropped=$(($(hl_total $H 1) - $(hl_total wakeup 1)))
	[ "$dropped" -ge 0 ] || dropped=0
	mk=$(hl_kth_largest $((dropped + 1)) "$LH_DIR/$H/CPU1")
	[ "$dropped" = 0 ] || lh_diag "$dropped wakeup(s) of tid $tid dropped: bound is offset number $((dropped + 1)) from the top, $mk us"
	[ -z "$mk" ] || [ "$tw" -ge "$mk" ] ||
		lh_err "timerandwakeup/CPU1 maximum $tw us < $mk us, missed offset number $((dropped + 1)) from the top of the same task"
	if hl_maxrec timerandwakeup 1 && [ -z "$MR_NONE" ]; then
		[ "$MR_VPID" = "$tid" ] || lh_err "timerandwakeup victim $MR_VPID, expected $tid"
		[ "$MR_TOFF" -ge 1 ] && [ "$MR_TOFF" -le "$MR_LAT" ] ||
			lh_err "timerandwakeup record timeroffset $MR_TOFF not in 1..latency $MR_LAT"
	else
		lh_err "timerandwakeup/max_latency-CPU1 has no record: '$MR_LINE'"
	fi
fi
ntw=$(hl_total_all timerandwakeup)
nw=$(hl_total_all wakeup)
[ "$ntw" = "$nw" ] && [ "$ntw" -gt 0 ] ||
	lh_err "timerandwakeup holds $ntw samples, wakeup/ $nw: expected one per exclusive wakeup"
lh_case_end timerandwakeup_adds_the_offset_of_the_same_task

lh_case_begin
hl_check_invariants 1
lh_case_end invariants_hold

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
