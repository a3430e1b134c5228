#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_pid.sh - the wakeup pid filter follows one RT sleeper: one sample
# per wakeup, on its CPU, and the max record names it
#
# Proves (Documentation/latency_hist.rst, "wakeup/"): with wakeup/pid set to
# the thread id of a SCHED_FIFO 73 sleeper pinned to CPU 1 that sleeps
# exactly L times (rt_sleeper -w handshake: no other wakeup of that thread
# once its tid is known), wakeup + wakeup/sharedprio hold L samples (+-1 for
# the boundary, less the sleeps that did not block: sl_expect_wakeups) over
# all CPUs, all of them on CPU 1, none on the others;
# wakeup/max_latency-CPU1 names the thread (pid = tid, priority 73 in the
# 99-prio convention, comm rt_sleeper, timeroffset 0) with the histogram's
# maximum as its latency; and no wakeup latency exceeds the lateness the
# sleeper measured of itself (the kernel's window, sched_waking to
# sched_switch, lies inside the sleeper's deadline-to-return window).
#
# requires: rt_sleeper cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=100		# loops
PERIOD=10000	# us: longer than any emulation stall, so no overrun
PRIO=73

sl_setup
lh_plan 6
lh_load_or_bail

lh_case_begin
lh_enable wakeup
if ! sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L; then
	lh_bail "rt_sleeper did not start"
fi
tid=$SL_TID
lh_filter wakeup "$tid"
lh_reset wakeup wakeup/sharedprio
sl_go
sl_wait
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
sl_show_summary
hl_show_totals wakeup wakeup/sharedprio
hl_show_maxrecs wakeup
loops=$(sl_field "$tid" loops)
[ "$loops" = $L ] || lh_err "the sleeper did $loops loops, expected $L"
total=$(hl_total_all wakeup wakeup/sharedprio)
sl_expect_wakeups "$tid" "$total" "wakeup + sharedprio"
lh_case_end one_sample_per_wakeup_under_the_pid_filter

lh_case_begin
for c in $LH_CPUS; do
	[ "$c" = 1 ] && continue
	for h in wakeup wakeup/sharedprio; do
		n=$(hl_total $h "$c")
		[ "$n" = 0 ] || lh_err "$h/CPU$c holds $n samples; the sleeper only ran on CPU 1"
	done
done
n=$(( $(hl_total wakeup 1) + $(hl_total wakeup/sharedprio 1) ))
[ "$n" = "$total" ] || lh_err "CPU 1 holds $n of the $total samples"
[ "$(hl_total wakeup 1)" -gt 0 ] ||
	lh_err "wakeup/CPU1 is empty: an exclusive FIFO $PRIO sleeper filed nothing under wakeup/"
lh_case_end all_samples_on_the_sleepers_cpu

lh_case_begin
if ! hl_maxrec wakeup 1; then
	lh_err "wakeup/max_latency-CPU1 malformed: '$MR_LINE'"
elif [ -n "$MR_NONE" ]; then
	lh_err "wakeup/max_latency-CPU1 is (none) after $total samples"
else
	[ "$MR_VPID" = "$tid" ] || lh_err "max record victim pid $MR_VPID, expected $tid"
	[ "$MR_VPRIO" = $PRIO ] || lh_err "max record victim priority $MR_VPRIO, expected $PRIO"
	[ "$MR_VCOMM" = rt_sleeper ] || lh_err "max record victim comm '$MR_VCOMM', expected rt_sleeper"
	[ "$MR_TOFF" = 0 ] || lh_err "max record timeroffset $MR_TOFF, expected 0 in wakeup/"
	hmax=$(hl_max wakeup 1)
	[ "$MR_LAT" = "$hmax" ] ||
		lh_err "max record latency $MR_LAT != histogram maximum $hmax"
fi
lh_case_end max_record_names_pid_priority_and_comm

lh_case_begin
own_max=$(sl_field "$tid" max_us)
for h in wakeup wakeup/sharedprio; do
	m=$(hl_max $h 1)
	[ "$m" = "<undef>" ] && continue
	[ "$m" -le "$own_max" ] ||
		lh_err "$h/CPU1 maximum $m us > the sleeper's own worst lateness $own_max us"
done
lh_case_end wakeup_latency_never_exceeds_the_sleepers_own_lateness

hl_finish_checked 0
