#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# timer_pid.sh - missed_timer_offsets under a pid filter: one sample per
# expiry of an RT sleeper, never later than the sleeper saw itself
#
# Proves (Documentation/latency_hist.rst, "missed_timer_offsets/"): a
# SCHED_FIFO 80 sleeper pinned to CPU 1 sleeping L times on a 10 ms grid
# (clock_nanosleep TIMER_ABSTIME; -w handshake: no other sleep of that
# thread), with missed_timer_offsets/pid set to it:
#  1. one sample per expiry: L +-1 over all CPUs (less the sleeps that did
#     not block: sl_expect_wakeups), and all on CPU 1, where its timer is
#     armed and expires;
#  2. the module's lateness (expiry entry "now" minus the expiry) is part of
#     the sleeper's own (its clock_gettime after the wakeup minus the
#     deadline), per sample, so on the same samples the histogram's
#     maximum, minimum and average are <= the sleeper's max_us, min_us and
#     avg_us (both truncate to whole us; same clock, CLOCK_MONOTONIC). An
#     expiry the module did not count (its deadline passed while the
#     sleeper armed it, so it interrupted the sleeper itself) leaves a
#     subset of the sleeper's samples: then only the maxima compare;
#  3. max_latency-CPU1 names it: pid, priority 80, timeroffset == latency,
#     comm rt_sleeper.
#
# requires: rt_sleeper cpu1 type:missed_timer_offsets

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=100
PERIOD=10000
PRIO=80
H=missed_timer_offsets

sl_setup
lh_plan 5
lh_load_or_bail

lh_case_begin
sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
tid=$SL_TID
lh_filter $H "$tid"
lh_reset $H
lh_enable $H
sl_go
sl_wait
lh_expect_write_ok "$LH_DIR/enable/$H" 0
sl_show_summary
hl_show_totals $H
hl_show_maxrecs $H
total=$(hl_total_all $H)
sl_expect_wakeups "$tid" "$total" "$H (one sample per expiry)"
c1=$(hl_total $H 1)
[ "$c1" = "$total" ] || lh_err "only $c1 of $total samples on CPU 1, where the sleeper's timer expires"
lh_case_end one_sample_per_expiry

lh_case_begin
loops=$(sl_field "$tid" loops)
if [ "$c1" != "$total" ] || [ "$total" -gt "$loops" ]; then
	lh_err "$total samples ($c1 on CPU 1) for $loops expiries: cannot compare"
else
	stats="Maximum:max_us Minimum:min_us Average:avg_us"
	if [ "$total" -lt "$loops" ]; then
		# A deadline that passed while the sleeper was arming its timer
		# expires before it sleeps and interrupts the sleeper itself, which
		# is not counted: the samples are a subset of the sleeper's own,
		# and only the maximum of a subset is bounded by the whole's.
		stats="Maximum:max_us"
		lh_diag "$total samples for $loops expiries ($(sl_field "$tid" overruns) overruns): comparing the maximum only"
	fi
	for f in $stats; do
		ours=$(hl_field $H 1 "${f%%:*}")
		own=$(sl_field "$tid" "${f#*:}")
		[ "$ours" -le "$own" ] 2>/dev/null ||
			lh_err "${f%%:*} missed offset $ours us > the sleeper's own ${f#*:} $own us"
	done
fi
lh_case_end never_later_than_the_sleeper_saw_itself

lh_case_begin
if hl_maxrec $H 1 && [ -z "$MR_NONE" ]; then
	[ "$MR_VPID" = "$tid" ] || lh_err "victim pid $MR_VPID, expected $tid"
	[ "$MR_VPRIO" = $PRIO ] || lh_err "victim priority $MR_VPRIO, expected $PRIO"
	[ "$MR_VCOMM" = rt_sleeper ] || lh_err "victim comm '$MR_VCOMM', expected rt_sleeper"
	[ "$MR_TOFF" = "$MR_LAT" ] || lh_err "timeroffset $MR_TOFF != latency $MR_LAT"
	[ "$MR_LAT" = "$(hl_max $H 1)" ] ||
		lh_err "record latency $MR_LAT != histogram maximum $(hl_max $H 1)"
else
	lh_err "$H/max_latency-CPU1 has no record: '$MR_LINE'"
fi
lh_case_end max_record_names_the_sleeper

hl_finish_checked 0
