#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# timer_rules.sh - timerandwakeup's enable rules, and reset of the timer
# histograms' max records
#
# Proves (Documentation/latency_hist.rst, "Controls"):
#  1. enable/timerandwakeup refuses 1 with EINVAL unless wakeup and
#     missed_timer_offsets are both enabled (neither, only one, only the
#     other), and then reads 0 and status says enabled=0;
#  2. disabling either parent disables it (reads 0, status enabled=0), the
#     other parent stays on, re-enabling the parent does not bring it back,
#     and while it is off it records nothing although the sleeper runs;
#  3. after samples with max records (an RT sleeper under both pid
#     filters), missed_timer_offsets/reset empties that histogram and shows
#     "(none)" on every CPU but leaves timerandwakeup alone; then
#     timerandwakeup/reset does the same for it; the module parameter
#     reset=missed_timer_offsets clears it as well.
#
# requires: rt_sleeper cpu1 type:missed_timer_offsets type:timerandwakeup

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

E=""
L=30
PERIOD=10000

sl_setup
lh_plan 5
lh_load_or_bail
E=$LH_DIR/enable

# taw_is V - timerandwakeup reads V and status agrees
taw_is()
{
	lh_expect_content "$E/timerandwakeup" "$1"
	[ "$(lh_status_field timerandwakeup enabled)" = "$1" ] ||
		lh_err "status timerandwakeup enabled=$(lh_status_field timerandwakeup enabled), expected $1"
}

# sleep_run - L sleeps of an RT sleeper on CPU 1 under both pid filters
sleep_run()
{
	sl_start "$LH_TMP/sl" -c 1 -p 80 -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
	lh_filter wakeup "$SL_TID"
	lh_filter missed_timer_offsets "$SL_TID"
	sl_go
	sl_wait
}

# expect_empty HIST - every CPU: no sample, max record (none)
expect_empty()
{
	for c in $LH_CPUS; do
		n=$(hl_total "$1" "$c")
		[ "$n" = 0 ] || lh_err "$1/CPU$c holds $n samples after reset"
		lh_expect_content "$LH_DIR/$1/max_latency-CPU$c" "(none)"
	done
}

lh_case_begin
taw_is 0
lh_expect_write_errno "$E/timerandwakeup" 1 EINVAL
taw_is 0
lh_expect_write_ok "$E/wakeup" 1
lh_expect_write_errno "$E/timerandwakeup" 1 EINVAL
taw_is 0
lh_expect_write_ok "$E/wakeup" 0
lh_expect_write_ok "$E/missed_timer_offsets" 1
lh_expect_write_errno "$E/timerandwakeup" 1 EINVAL
taw_is 0
lh_expect_write_ok "$E/wakeup" 1
lh_expect_write_ok "$E/timerandwakeup" 1
taw_is 1
lh_case_end timerandwakeup_needs_both_parents

lh_case_begin
for parent in wakeup missed_timer_offsets; do
	other=wakeup
	[ $parent = wakeup ] && other=missed_timer_offsets
	lh_expect_write_ok "$E/timerandwakeup" 1
	taw_is 1
	lh_expect_write_ok "$E/$parent" 0
	taw_is 0
	lh_expect_content "$E/$other" 1
	lh_reset timerandwakeup
	sleep_run
	n=$(hl_total_all timerandwakeup)
	[ "$n" = 0 ] || lh_err "timerandwakeup recorded $n samples after $parent was disabled"
	lh_expect_write_ok "$E/$parent" 1
	taw_is 0
done
lh_case_end disabling_a_parent_clears_timerandwakeup

lh_case_begin
lh_expect_write_ok "$E/timerandwakeup" 1
lh_reset wakeup missed_timer_offsets timerandwakeup
sleep_run
for h in missed_timer_offsets timerandwakeup; do
	if hl_maxrec $h 1 && [ -z "$MR_NONE" ]; then
		[ "$MR_VPID" = "$SL_TID" ] || lh_err "$h/max_latency-CPU1 victim $MR_VPID, expected $SL_TID"
	else
		lh_err "$h/max_latency-CPU1 has no record after $L sleeps: '$MR_LINE'"
	fi
done
hl_snapshot timerandwakeup >"$LH_TMP/taw.before"
lh_expect_write_ok "$LH_DIR/missed_timer_offsets/reset" 1
expect_empty missed_timer_offsets
hl_snapshot timerandwakeup >"$LH_TMP/taw.after"
cmp -s "$LH_TMP/taw.before" "$LH_TMP/taw.after" ||
	lh_err "missed_timer_offsets/reset changed timerandwakeup"
lh_expect_write_ok "$LH_DIR/timerandwakeup/reset" 1
expect_empty timerandwakeup
sleep_run
[ "$(hl_total_all missed_timer_offsets)" -gt 0 ] ||
	lh_err "missed_timer_offsets recorded nothing after its reset"
lh_expect_write_ok "$LH_SYSMOD/parameters/reset" missed_timer_offsets
expect_empty missed_timer_offsets
lh_disable_all
lh_case_end reset_clears_samples_and_max_records

hl_finish_checked 0
