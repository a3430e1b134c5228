#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# validate_rtla.sh - how our figures relate to rtla timerlat's, checked on
# the same run
#
# rtla timerlat runs a SCHED_FIFO 95 kernel thread timerlat/N per CPU that
# arms an hrtimer of its own every period. rtla's IRQ latency is that
# timer's lateness at its interrupt handler; its thread latency is the time
# from the timer's due instant until the thread runs: IRQ latency, plus the
# handler's wakeup of the thread, plus the switch to it. So (Documentation/
# validation.rst, "rtla timerlat"), with our pid filters on timerlat/1:
#  1. missed_timer_offsets gets no sample: timerlat's timer is not a sleeper
#     timer (its callback is not hrtimer_wakeup); rtla's IRQ latency has no
#     counterpart in our files;
#  2. our wakeup samples of timerlat/1 are one per rtla thread sample (the
#     filter is set once the thread exists, so at least half of rtla's
#     count for a run of 4 s, and at most rtla's count + 1);
#  3. our wakeup maximum is <= rtla's thread maximum: a sample of ours is
#     the part of one thread latency from the wakeup to the switch. The
#     second largest is compared: rtla stopping its thread (kthread_stop)
#     is one more wakeup, of no timer (it was our largest on 6.12-rt).
# Needs rtla and the timerlat tracer (Debian's RT kernels have it).
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: cpu1 rtla tracefs timerlat

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

lh_setup
lh_plan 4
lh_load_or_bail

# vr_field ROW COLUMN - rtla's summary ROW (count:, max:) for IRQ (2) or Thr (3)
vr_field()
{
	awk -v row="$1" -v col="$2" '$1 == row { print $col + 0; exit }' "$LH_TMP/rtla.out"
}

# Follow no task until timerlat/1 exists (PID_MAX_LIMIT is no task's id).
lh_filter wakeup 4194304
lh_filter missed_timer_offsets 4194304
lh_reset wakeup wakeup/sharedprio missed_timer_offsets
lh_enable wakeup missed_timer_offsets
rtla timerlat hist -c 1 -p 5000 -d 4 -E 10240 >"$LH_TMP/rtla.out" 2>&1 &
rtla_pid=$!
tid=
n=0
while [ -z "$tid" ] && [ $n -lt 100 ]; do
	for d in /proc/[0-9]*; do
		read -r comm <"$d/comm" 2>/dev/null || continue
		[ "$comm" = timerlat/1 ] && tid=${d#/proc/}
	done
	[ -n "$tid" ] || lh_sleep_s 0.05
	n=$((n + 1))
done
[ -n "$tid" ] || lh_bail "timerlat/1 did not appear: $(cat "$LH_TMP/rtla.out")"
echo $tid >"$LH_DIR/wakeup/pid"
echo $tid >"$LH_DIR/missed_timer_offsets/pid"
wait $rtla_pid || lh_bail "rtla exited $?: $(tail -n 5 "$LH_TMP/rtla.out")"
lh_expect_write_ok "$LH_DIR/enable/missed_timer_offsets" 0
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
hl_show_totals wakeup wakeup/sharedprio missed_timer_offsets
rc=$(vr_field count: 3)
rmax=$(vr_field max: 3)
imax=$(vr_field max: 2)
lh_diag "rtla timerlat/1 (tid $tid): $rc thread samples, IRQ max $imax us, thread max $rmax us"

lh_case_begin
nm=$(hl_total_all missed_timer_offsets)
r=PASS
[ "$nm" = 0 ] || { r=FAIL; lh_err "missed_timer_offsets: $nm samples of timerlat/1, expected none"; }
vl_table "rtla timerlat" "no missed-offset sample (not a sleeper timer)" "$nm samples; rtla IRQ max $imax us" $r
lh_case_end timerlat_timer_is_no_sleeper_timer

lh_case_begin
nw=$(hl_total_all wakeup wakeup/sharedprio)
r=PASS
[ -n "$rc" ] && [ "$rc" -gt 0 ] && [ $((2 * nw)) -ge "$rc" ] && [ "$nw" -le $((rc + 1)) ] ||
	{ r=FAIL; lh_err "wakeup: $nw samples of timerlat/1, rtla $rc thread samples"; }
vl_table "rtla timerlat" "one wakeup per thread sample" "ours $nw (from the filter on), rtla $rc" $r
lh_case_end one_wakeup_per_timerlat_sample

lh_case_begin
m=$(hl_kth_largest 2 "$LH_DIR/wakeup/CPU1" "$LH_DIR/wakeup/sharedprio/CPU1")
r=PASS
[ -n "$m" ] && [ -n "$rmax" ] && [ "$m" -le "$rmax" ] ||
	{ r=FAIL; lh_err "wakeup sample 2 from the top '$m' us > rtla thread max '$rmax' us"; }
vl_table "rtla timerlat" "wakeup max <= thread max" "$m <= $rmax us (sample 2 from the top)" $r
lh_case_end wakeup_max_within_thread_latency

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
