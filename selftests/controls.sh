#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# controls.sh - enable, pid and reset files do what
# Documentation/latency_hist.rst ("Controls") says
#
# Proves: enable files read 0 after load, 1 after any non-zero write ("1",
# "5", "1\n") and 0 after "0"; enabling wakeup (available on every kernel)
# shows enabled=1 and bytes>0 in status for wakeup and wakeup/sharedprio, and
# bytes stays >0 after disable (data stays readable); the same for
# missed_timer_offsets; pid files read 0, take 123, PID_MAX_LIMIT and 0;
# every reset file accepts 1 and 0, 0 keeps the data and 1 clears it, and
# wakeup/reset leaves sharedprio alone; timerandwakeup refuses to enable
# (EINVAL) unless wakeup and missed_timer_offsets are both enabled, and
# disabling either parent disables it; so does every switch that needs
# others (status needs=).
#
# requires: none

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

E=""	# set after load: "$LH_DIR/enable"

# expect_status NAME ENABLED BYTES - BYTES is "0", ">0" or "-" (any)
expect_status()
{
	lh_status_get "$1" enabled
	got_en=$LH_FIELD
	lh_status_get "$1" bytes
	got_bytes=$LH_FIELD
	[ "$got_en" = "$2" ] || lh_err "status $1: enabled=$got_en, expected $2"
	case $3 in
	-)	;;
	0)	[ "$got_bytes" = 0 ] || lh_err "status $1: bytes=$got_bytes, expected 0" ;;
	*)	[ "${got_bytes:-0}" -gt 0 ] 2>/dev/null ||
			lh_err "status $1: bytes=$got_bytes, expected > 0" ;;
	esac
}

lh_setup
lh_plan 10
lh_load_or_bail
E=$LH_DIR/enable

lh_case_begin
for e in $LH_ENABLES; do
	lh_expect_content "$E/$e" 0
done
lh_case_end enable_files_read_0_after_load

lh_case_begin
lh_expect_write_ok "$E/wakeup" 1
lh_expect_content "$E/wakeup" 1
expect_status wakeup 1 ">0"
expect_status wakeup/sharedprio 1 ">0"
lh_expect_write_ok "$E/wakeup" 0
lh_expect_content "$E/wakeup" 0
expect_status wakeup 0 ">0"
expect_status wakeup/sharedprio 0 ">0"
lh_expect_write_ok "$E/wakeup" 5
lh_expect_content "$E/wakeup" 1
lh_expect_write_ok "$E/wakeup" 1	# same state again: a no-op
lh_expect_content "$E/wakeup" 1
lh_expect_write_ok "$E/wakeup" 0
lh_write "$E/wakeup" '1\n' -e ||
	lh_err "enable/wakeup: write '1\\n' failed: $LH_RESULT"
lh_expect_content "$E/wakeup" 1
lh_write "$E/wakeup" '0\n' -e ||
	lh_err "enable/wakeup: write '0\\n' failed: $LH_RESULT"
lh_expect_content "$E/wakeup" 0
expect_status wakeup 0 ">0"
lh_case_end enable_wakeup_reads_back_and_shows_in_status

lh_case_begin
if lh_req_met type:missed_timer_offsets; then
	expect_status missed_timer_offsets 0 0
	lh_expect_write_ok "$E/missed_timer_offsets" 1
	lh_expect_content "$E/missed_timer_offsets" 1
	expect_status missed_timer_offsets 1 ">0"
	lh_expect_write_ok "$E/missed_timer_offsets" 0
	lh_expect_content "$E/missed_timer_offsets" 0
	expect_status missed_timer_offsets 0 ">0"
	lh_case_end enable_missed_timer_offsets_reads_back_and_shows_in_status
else
	lh_skip enable_missed_timer_offsets_reads_back_and_shows_in_status "$LH_REQ_WHY"
fi

lh_case_begin
for d in $LH_PID_DIRS; do
	lh_expect_content "$LH_DIR/$d/pid" 0
	lh_expect_write_ok "$LH_DIR/$d/pid" 123
	lh_expect_content "$LH_DIR/$d/pid" 123
	lh_expect_write_ok "$LH_DIR/$d/pid" $LH_PID_MAX
	lh_expect_content "$LH_DIR/$d/pid" $LH_PID_MAX
	lh_write "$LH_DIR/$d/pid" '77\n' -e ||
		lh_err "$d/pid: write '77\\n' failed: $LH_RESULT"
	lh_expect_content "$LH_DIR/$d/pid" 77
	lh_expect_write_ok "$LH_DIR/$d/pid" 0
	lh_expect_content "$LH_DIR/$d/pid" 0
done
lh_case_end pid_files_read_back_what_was_written

lh_case_begin
for h in $LH_HISTS; do
	lh_expect_write_ok "$LH_DIR/$h/reset" 1
	lh_expect_write_ok "$LH_DIR/$h/reset" 0
	lh_expect_write_ok "$LH_DIR/$h/reset" 7
done
lh_case_end reset_files_accept_1_and_0

# Data stays after disable; reset 0 keeps it, reset 1 clears it.
lh_case_begin
lh_enable_available
lh_activity
lh_disable_all
hl_empty_cpux >"$LH_TMP/empty"
tested=0
for h in $LH_HISTS; do
	[ "$(hl_total_all "$h")" -gt 0 ] || continue
	tested=$((tested + 1))
	hl_snapshot "$h" >"$LH_TMP/before"
	lh_expect_write_ok "$LH_DIR/$h/reset" 0
	hl_snapshot "$h" >"$LH_TMP/after"
	cmp -s "$LH_TMP/before" "$LH_TMP/after" ||
		lh_err "$h: writing 0 to reset changed the histogram"
	if [ "$h" = wakeup ]; then
		hl_snapshot wakeup/sharedprio >"$LH_TMP/shared.before"
	fi
	lh_expect_write_ok "$LH_DIR/$h/reset" 1
	for c in $LH_CPUS; do
		lh_same_bytes "$LH_TMP/empty" "$LH_DIR/$h/CPU$c" ||
			lh_err "$h/CPU$c: not empty after reset"
		[ -e "$LH_DIR/$h/max_latency-CPU$c" ] &&
			lh_expect_content "$LH_DIR/$h/max_latency-CPU$c" "(none)"
	done
	if [ "$h" = wakeup ]; then
		hl_snapshot wakeup/sharedprio >"$LH_TMP/shared.after"
		cmp -s "$LH_TMP/shared.before" "$LH_TMP/shared.after" ||
			lh_err "wakeup/reset changed wakeup/sharedprio"
	fi
done
if [ "$tested" -gt 0 ]; then
	lh_diag "histograms with samples: $tested"
	lh_case_end reset_0_keeps_data_and_reset_1_clears_it
else
	lh_skip reset_0_keeps_data_and_reset_1_clears_it "no histogram recorded a sample"
fi

lh_case_begin
if lh_req_met type:wakeup && lh_req_met type:missed_timer_offsets; then
	lh_expect_write_errno "$E/timerandwakeup" 1 EINVAL
	lh_expect_content "$E/timerandwakeup" 0
	lh_expect_write_ok "$E/wakeup" 1
	lh_expect_write_errno "$E/timerandwakeup" 1 EINVAL
	lh_expect_write_ok "$E/wakeup" 0
	lh_expect_write_ok "$E/missed_timer_offsets" 1
	lh_expect_write_errno "$E/timerandwakeup" 1 EINVAL
	lh_expect_content "$E/timerandwakeup" 0
	expect_status timerandwakeup 0 -	# bytes: enabled in an earlier case
	lh_expect_write_ok "$E/wakeup" 1
	lh_expect_write_ok "$E/timerandwakeup" 1
	lh_expect_content "$E/timerandwakeup" 1
	expect_status timerandwakeup 1 ">0"
	lh_expect_write_ok "$E/wakeup" 0
	lh_expect_content "$E/timerandwakeup" 0
	expect_status timerandwakeup 0 ">0"
	lh_expect_write_ok "$E/wakeup" 1
	lh_expect_write_ok "$E/timerandwakeup" 1
	lh_expect_write_ok "$E/missed_timer_offsets" 0
	lh_expect_content "$E/timerandwakeup" 0
	lh_expect_content "$E/wakeup" 1
	lh_expect_write_ok "$E/timerandwakeup" 0	# disabling is always fine
	lh_disable_all
	lh_case_end timerandwakeup_needs_both_parents
else
	lh_skip timerandwakeup_needs_both_parents "$LH_REQ_WHY"
fi

# Every switch that needs others (status needs=), as timerandwakeup above:
# refused (EINVAL) while any direct need is off, on once they all are,
# and off again as soon as one of them goes off.
lh_case_begin
tested=
for e in $LH_ENABLES; do
	needs=$(lh_switch_needs "$e")
	[ -n "$needs" ] || continue
	lh_switch_available "$e" || continue
	tested="$tested $e"
	lh_disable_all
	lh_expect_write_errno "$E/$e" 1 EINVAL
	lh_expect_content "$E/$e" 0
	for n in $needs; do
		lh_enable_needs "$e"
		lh_expect_write_ok "$E/$n" 0
		lh_expect_write_errno "$E/$e" 1 EINVAL
		lh_expect_content "$E/$e" 0
	done
	for n in $needs; do
		lh_enable_needs "$e"
		lh_expect_write_ok "$E/$e" 1
		lh_expect_content "$E/$e" 1
		lh_expect_write_ok "$E/$n" 0
		lh_expect_content "$E/$e" 0
		[ "$(lh_status_field "$e" enabled)" = 0 ] ||
			lh_err "status $e: still enabled after $n went off"
	done
done
lh_disable_all
if [ -n "$tested" ]; then
	lh_diag "switches with needs:$tested"
	lh_case_end switches_are_refused_without_their_needs_and_follow_them_off
else
	lh_skip switches_are_refused_without_their_needs_and_follow_them_off \
		"no switch with needs is available"
fi

lh_case_begin
for e in $LH_ENABLES; do
	lh_expect_content "$E/$e" 0
done
for h in $LH_HISTS; do
	[ "$(lh_status_field "$h" enabled)" = 0 ] || lh_err "status $h: still enabled"
done
lh_case_end everything_disabled_at_the_end

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
