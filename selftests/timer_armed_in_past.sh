#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# timer_armed_in_past.sh - a sleeper armed with an expiry already in the
# past is measured from its arming time, not from its stale expiry
#
# Proves (Documentation/latency_hist.rst, "missed_timer_offsets/": "A
# sleeper armed with an expiry already in the past ... measured from their
# arming time"): timer_fd -m past runs a SCHED_FIFO 80 thread on CPU 1 that
# calls clock_nanosleep(TIMER_ABSTIME) L times with a target PAST = 500 ms
# ago, busy-waiting 10 ms between calls (so it has no other sleep). Its
# timer expires at once; its expiry is 500 ms stale, its true lateness tiny.
# Under the missed_timer_offsets pid filter:
#  1. no sample reaches PAST / 2: a stale measurement reads >= PAST, while
#     a true lateness, even with the tens of ms a loaded emulator host can
#     stall a guest CPU (30 ms seen in CI), stays far below it. The exact
#     maximum is read from "#Maximum latency:", which is not capped at the
#     histogram's 10240 us; samples beyond the histogram are only reported;
#  2. the stale expiries were seen at all: at least one sample (an expiry
#     that fires before the thread has gone to sleep interrupts the thread
#     itself and is not counted, so not all L need to be). On kernels where
#     every such expiry beats the thread to sleep (seen on 6.1 non-RT: the
#     forced clock event fires before schedule()), none is counted, which is
#     the RT patch's rule; then case 2 is skipped, and says so, rather than
#     passed: case 1 alone proves nothing there;
#  3. after lh_load_test armed and cancelled PRAECOX = 70 sleepers with an
#     expiry in the past (more than latency_hist's table of arming times
#     holds), the run of case 1 again measures from the arming time: the
#     cancelled timers, which never expire, must not hold the table;
#  4. a live CLOCK_MONOTONIC entry of the table is not evicted for a
#     CLOCK_REALTIME one because their arming times, on two clocks, compare
#     so (lh_probe_test's praecox_bases: 64 REALTIME sleepers armed 1 s
#     late fill the table, then A's MONOTONIC sleeper armed LATE_A = 5 ms
#     late, then one more REALTIME one; A expires 10 us after its arming):
#     missed_timer_offsets files one sample of A below LATE_A (5010 us when
#     A's entry was evicted, issue 33 item 5b);
#  5. the invariants of every timer test (sleeper_lib.sh).
#
# requires: rt_sleeper cpu1 timer_fd type:missed_timer_offsets

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

L=30
PAST=500000
LIMIT=$((PAST / 2))
LATE_A=5000	# us: lh_probe_test's praecox_bases arms A's sleeper this late
PRAECOX=70	# cancelled past-armed sleepers: more than latency_hist keeps at once
H=missed_timer_offsets

sl_setup
lh_plan 6
lh_load_or_bail

# past_run - run timer_fd -m past under the pid filter; fail the case if a
# stale expiry was measured; sets total (samples counted)
past_run()
{
	sl_start_bin "$LH_BINDIR/timer_fd" "$LH_TMP/tf" -m past -a $PAST -g 10000 -c 1 -p 80 -l $L ||
		lh_bail "timer_fd -m past did not start"
	tid=$SL_TID
	lh_filter $H "$tid"
	lh_reset $H
	lh_enable $H
	sl_go
	sl_wait
	lh_expect_write_ok "$LH_DIR/enable/$H" 0
	lh_diag "$(grep '^done' "$LH_TMP/tf")"
	hl_show_totals $H
	hl_show_maxrecs $H
	total=$(hl_total_all $H)
	for c in $LH_CPUS; do
		m=$(hl_max $H "$c")
		[ "$m" = "<undef>" ] || [ "$m" -lt $LIMIT ] ||
			lh_err "$H/CPU$c maximum $m us for a timer armed $PAST us in the past: the stale expiry was measured"
		o=$(hl_over $H "$c")
		[ "$o" = 0 ] || lh_diag "$H/CPU$c has $o samples >= 10240 us (below $LIMIT us: emulation stalls, not stale expiries)"
	done
}

lh_case_begin
past_run
lh_case_end no_stale_offset_from_a_past_expiry

if [ "$total" -ge 1 ]; then
	lh_pass past_expiries_were_measured
else
	lh_skip past_expiries_were_measured \
		"no past-armed expiry was counted in $L tries: each fired before its thread slept (the interrupted task is the sleeper itself, which the RT patch's rule does not count)"
fi

# Cancelled past-armed sleepers (a signal right after an overrun) must not
# fill the table of arming times: after PRAECOX of them, more than it holds,
# the next ones are still measured from their arming time.
lh_case_begin
if ! lt_load; then
	lh_skip cancelled_past_armed_sleepers_are_forgotten "$LH_REQ_WHY"
else
	# enabled from here into the run: disabling empties the table
	lh_enable $H
	echo $PRAECOX >"$LT_PARAMS/praecox_cancel" ||
		lh_err "lh_load_test praecox_cancel=$PRAECOX failed"
	lt_unload
	past_run
	if [ "$LH_ERRS" = 0 ] && [ "$total" = 0 ]; then
		lh_skip cancelled_past_armed_sleepers_are_forgotten \
			"no past-armed expiry was counted after the cancelled ones (see past_expiries_were_measured)"
	else
		lh_case_end cancelled_past_armed_sleepers_are_forgotten
	fi
fi

lh_case_begin
if ! pt_load 1; then
	lh_skip a_full_table_of_another_clock_keeps_a_live_entry "$LH_REQ_WHY"
else
	lh_filter $H "$PT_A"
	lh_enable $H
	lh_reset $H
	pt_run praecox_bases
	lh_expect_write_ok "$LH_DIR/enable/$H" 0
	pt_unload
	hl_show_totals $H
	hl_show_maxrecs $H
	n=$(hl_total $H 1)
	m=$(hl_max $H 1)
	[ "$n" = 1 ] || lh_err "$H/CPU1 holds $n samples, expected 1 (A's expiry)"
	[ "$m" != "<undef>" ] && [ "$m" -lt $LATE_A ] ||
		lh_err "$H/CPU1 maximum $m us: A's arming time was evicted and its stale expiry, $LATE_A us before, measured"
	lh_case_end a_full_table_of_another_clock_keeps_a_live_entry
fi

hl_finish_checked 0
