#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_lifecycle.sh - reset, disable/enable and unload while wakeups and
# sleeper timers are being recorded
#
# Proves (Documentation/latency_hist.rst, "Controls", "How it works"): with
# SCHED_FIFO sleepers waking every 2 ms on both CPUs (two of equal priority
# per instant, so wakeup/, sharedprio/, missed_timer_offsets and
# timerandwakeup all record) and wakeup, missed_timer_offsets and
# timerandwakeup enabled:
#  1. resets during recording: 20 resets of all four histograms in a row
#     succeed; right after a reset the histograms hold fewer samples than
#     before it (the reset did empty them), and recording goes on after it
#     (samples come back).
#  2. 10 disable/enable cycles of all three switches: every write succeeds,
#     the switches read 1 at the end, and samples are recorded afterwards.
#  3. unload while enabled (twice: once with pid filters set to a running
#     sleeper, once without): rmmod succeeds and the tree is gone.
#  4. no warning, BUG or lockdep splat in the kernel log (the rig also scans
#     the whole guest log, kmemleak included where the kernel has it).
#
# requires: rt_sleeper cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

HISTS="wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup"
SWITCHES="wakeup missed_timer_offsets timerandwakeup"

sl_setup
lh_plan 5

# all_samples - samples over all CPUs of the four histograms
all_samples()
{
	# shellcheck disable=SC2086 # word list
	hl_total_all $HISTS
}

lh_load_or_bail
lh_enable $SWITCHES
# Runs until killed (-l 0); not pinned: both CPUs get wakeups. The handshake
# only serves to get the tids.
sl_start "$LH_TMP/sl" -p 80 -n 2 -i 2000 -l 0 || lh_bail "rt_sleeper did not start"
sl_go
lh_sleep_s 2

# Writes in the loops are the shell's builtin echo: no exec between them
# (an exec costs up to 0.4 s under emulation), so they come back to back.
lh_case_begin
before=$(hl_total_all wakeup)
[ "$before" -gt 0 ] || lh_err "no wakeup sample recorded before the resets"
i=0
while [ $i -lt 20 ]; do
	for h in $HISTS; do
		echo 1 2>/dev/null >"$LH_DIR/$h/reset" || lh_err "$h/reset: write failed"
	done
	i=$((i + 1))
done
after=$(hl_total_all wakeup)
lh_diag "wakeup samples before the resets $before, right after $after"
[ "$after" -lt "$before" ] || lh_err "reset during recording did not empty: $before samples before, $after after"
lh_sleep_s 0.5
again=$(all_samples)
[ "$again" -gt "$after" ] || lh_err "no sample recorded after the resets ($after, then $again)"
lh_case_end reset_during_recording

lh_case_begin
i=0
while [ $i -lt 10 ]; do
	for s in wakeup missed_timer_offsets; do
		echo 0 2>/dev/null >"$LH_DIR/enable/$s" || lh_err "enable/$s: write 0 failed"
	done
	read -r v <"$LH_DIR/enable/timerandwakeup"
	[ "$v" = 0 ] || lh_err "timerandwakeup reads '$v' with both parents disabled"
	for s in $SWITCHES; do
		echo 1 2>/dev/null >"$LH_DIR/enable/$s" || lh_err "enable/$s: write 1 failed"
	done
	i=$((i + 1))
done
for s in $SWITCHES; do
	lh_expect_content "$LH_DIR/enable/$s" 1
done
lh_reset $HISTS
lh_sleep_s 0.5
for h in wakeup missed_timer_offsets timerandwakeup; do
	n=$(hl_total_all $h)
	[ "$n" -gt 0 ] || lh_err "$h recorded nothing after the enable/disable cycles"
done
lh_case_end disable_enable_cycles_while_recording

lh_case_begin
lh_filter wakeup "$SL_TID"
lh_filter missed_timer_offsets "$SL_TID"
lh_sleep_s 0.3
lh_unload || lh_err "rmmod while enabled (pid filters set) failed"
[ ! -d "$LH_DIR" ] || lh_err "$LH_DIR still exists after rmmod"
lh_load || lh_bail "cannot reload $LH_NAME"
lh_write "$LH_DIR/enable/wakeup" 1 && lh_write "$LH_DIR/enable/missed_timer_offsets" 1 &&
	lh_write "$LH_DIR/enable/timerandwakeup" 1 || lh_err "cannot enable after reload: $LH_RESULT"
lh_sleep_s 0.3
n=$(all_samples)
[ "$n" -gt 0 ] || lh_err "nothing recorded after the reload"
lh_unload || lh_err "rmmod while enabled failed"
[ ! -d "$LH_DIR" ] || lh_err "$LH_DIR still exists after rmmod"
kill -TERM "$SL_PID" 2>/dev/null
wait "$SL_PID"
SL_PID=
lh_case_end unload_while_enabled

lh_load_or_bail
hl_finish_checked 0
