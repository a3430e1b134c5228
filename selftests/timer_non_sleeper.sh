#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# timer_non_sleeper.sh - timers without a sleeping task (timerfd, POSIX
# timers) produce no missed_timer_offsets sample
#
# Proves (Documentation/latency_hist.rst, "missed_timer_offsets/": "POSIX
# timers, timerfd, itimers and timer-wheel timers have no sleeping task and
# are not counted"): timer_fd runs one SCHED_FIFO 80 thread pinned to CPU 1
# that wakes L times on a 10 ms period from a timerfd (blocking read) or a
# POSIX timer (signal to the thread, sigwaitinfo). With both pid filters
# set to that thread, missed_timer_offsets holds no sample of it, while
# wakeup/ shows that it did wake (about L samples: the filters are right
# and its timers did fire). The same program in nanosleep mode, the
# positive control, gets one missed offset per loop (L +-1).
#
# requires: rt_sleeper cpu1 timer_fd type:missed_timer_offsets

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=50
PERIOD=10000
H=missed_timer_offsets

sl_setup
lh_plan 5
lh_load_or_bail

# run MODE - one run of timer_fd -m MODE under both pid filters; sets
# mto (missed offsets) and woke (wakeup + sharedprio) of its thread
run()
{
	sl_start_bin "$LH_BINDIR/timer_fd" "$LH_TMP/tf" -m "$1" -c 1 -p 80 -i $PERIOD -l $L ||
		lh_bail "timer_fd -m $1 did not start"
	lh_filter wakeup "$SL_TID"
	lh_filter $H "$SL_TID"
	lh_reset wakeup wakeup/sharedprio $H
	lh_enable wakeup $H
	sl_go
	sl_wait
	lh_expect_write_ok "$LH_DIR/enable/$H" 0
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	mto=$(hl_total_all $H)
	woke=$(hl_total_all wakeup wakeup/sharedprio)
	lh_diag "$1: $(grep '^done' "$LH_TMP/tf"); wakeups $woke, missed offsets $mto"
	grep -q "^done loops $L " "$LH_TMP/tf" || lh_err "timer_fd -m $1 did not finish $L loops"
}

for mode in timerfd posix; do
	lh_case_begin
	run $mode
	[ "$mto" = 0 ] ||
		lh_err "$H holds $mto samples of a thread woken only by a $mode timer"
	[ "$woke" -ge $((L / 2)) ] ||
		lh_err "only $woke wakeups of the $mode thread recorded: did its timer wake it?"
	hl_show_maxrecs $H
	lh_case_end ${mode}_produces_no_missed_offset
done

lh_case_begin
run nanosleep
lh_in_range "$mto" $((L - 1)) $((L + 1)) ||
	lh_err "$H holds $mto samples of the nanosleep control, expected $L +-1"
lh_case_end nanosleep_control_is_counted

hl_finish_checked 0
