#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086,SC3043 # lh_load_or_bail takes optional parameters; word lists; local
#
# validate_types.sh - every sample of a followed RT sleeper, filed again
# offline from the kernel's own trace events, equals ours
#
# Proves (Documentation/validation.rst, "Sample by sample"): while a
# SCHED_FIFO 80 rt_sleeper on CPU 1 wakes L times from clock_nanosleep
# (wakeup/pid and missed_timer_offsets/pid on its thread; wakeup,
# missed_timer_offsets, timerandwakeup, switchtime and timerwakeupswitch
# on), trace-cmd records in one buffer the module's lh_sample events of the
# thread and sched_switch and sched_waking of real-time tasks,
# sched_migrate_task, hrtimer_start, hrtimer_expire_entry/exit and
# raw_syscalls (not its sched_yield() calls while it waits for the start).
# vl_recompute files every
# sample again from the kernel events alone; per type, the module's and the
# recomputed samples pair one to one: equal counts, each pair on the same
# CPU, >= 99 % within 2 us, none beyond 10 us; and each type's CPUx (the
# pid filters leave only the thread's samples) hold exactly the recorded
# samples of each CPU. In instruction time (the validate suite's -icount)
# two probes of one tracepoint are a fixed few hundred instructions apart,
# so a pair differs only by a truncation to us.
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: rt_sleeper cpu1 icount trace-cmd cpp tracefs type:wakeup type:missed_timer_offsets type:timerandwakeup type:switchtime type:timerwakeupswitch

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

L=400
PERIOD=5000
PRIO=80
TYPES="wakeup missed_timer_offsets timerandwakeup switchtime timerwakeupswitch"

sl_setup
YIELD_NR=$(vl_syscall_nr sched_yield)
vl_load 14

# vt_run NAME MIN_WAKEUP MIN_SHARED SLEEPER-ARGS... - the workload NAME: an
# rt_sleeper with SLEEPER-ARGS, its first thread followed and recorded; then
# one case per type (vl_pair), each wanting at least MIN pairs (MIN_WAKEUP
# for the exclusive types, MIN_SHARED for wakeup/sharedprio)
vt_run()
{
	local name min_w min_s tid t
	name=$1 min_w=$2 min_s=$3
	shift 3
	sl_start "$LH_TMP/sl.$name" "$@" || lh_bail "rt_sleeper did not start"
	tid=$SL_TID
	lh_filter wakeup "$tid"
	lh_filter missed_timer_offsets "$tid"
	# CPU 1 only: the sleeper's timer, wakeups and switches are all there.
	# Until the start, its threads spin on sched_yield() as SCHED_OTHER
	# tasks (rt_sleeper.c), some 400000 calls a second of instruction
	# time, and two of them switch to each other at every call: events
	# that would fill the buffer before the first sample. So: its system
	# calls but sched_yield(); the switches and wakings of real-time tasks
	# only (kernel prio < 100): the rules look at tasks of the thread's
	# priority or more important ones, and where a SCHED_OTHER task is
	# left as a CPU's last known one while another runs, they decide the
	# same.
	# Recording starts first, so at every tracepoint ftrace's probe runs
	# before ours: its event's cost lands before our stamp at both ends of
	# a window and cancels, where with ours first the switch-in's end would
	# carry our filing and its lh_sample event (2-3 us in instruction time)
	# that the waking's does not.
	vl_record_start "$LH_TMP/$name.dat" -M 2 \
		-e latency_hist:lh_sample -f "victim_pid == $tid" \
		-e sched:sched_switch -f "prev_prio < 100 || next_prio < 100" \
		-e sched:sched_waking -f "prio < 100" \
		-e sched:sched_migrate_task -f "pid == $tid" \
		-e timer:hrtimer_start -f "common_pid == $tid" \
		-e timer:hrtimer_expire_entry -e timer:hrtimer_expire_exit \
		-e raw_syscalls:sys_enter -f "common_pid == $tid && id != $YIELD_NR" \
		-e raw_syscalls:sys_exit -f "common_pid == $tid && id != $YIELD_NR"
	# (reset before the enable: every sample the files hold is recorded)
	lh_reset wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup switchtime timerwakeupswitch
	lh_enable $TYPES
	sl_go
	sl_wait
	lh_disable_all
	lh_diag "$name: $(date +%s) recorded"
	vl_record_stop "$LH_TMP/$name.dat" "$LH_TMP/$name.report"
	lh_diag "$name: $(date +%s) reported"
	sl_show_summary
	hl_show_totals $TYPES wakeup/sharedprio

	vl_ours "$LH_TMP/$name.report" "$LH_TMP/$name.ours"
	lh_diag "$name: $(date +%s) ours"
	vl_recompute "$LH_TMP/$name.report" "$tid" "$LH_TMP/$name.recomputed"
	lh_diag "$name: $(date +%s) recomputed"
	lh_diag "$name: report $(grep -c . "$LH_TMP/$name.report") lines, ours $(wc -l <"$LH_TMP/$name.ours") samples, recomputed $(wc -l <"$LH_TMP/$name.recomputed")"
	for t in $TYPES; do
		vl_pair $t "$LH_TMP/$name.ours" "$LH_TMP/$name.recomputed" $min_w "$name"
	done
	vl_pair wakeup/sharedprio "$LH_TMP/$name.ours" "$LH_TMP/$name.recomputed" $min_s "$name"
	# what users read: the pid filters leave only the thread's samples,
	# so each CPUx (read with the types off) holds exactly its events
	# (none on CPU 0: the thread runs on CPU 1)
	lh_case_begin
	for t in $TYPES wakeup/sharedprio; do
		awk -v t="$t" '$1 == t { print $2, $4 }' "$LH_TMP/$name.ours" >"$LH_TMP/$name.rows"
		vl_rows "$t" "$LH_TMP/$name.rows" $LH_CPUS
	done
	lh_case_end "${name}_files_hold_the_samples"
}

# One SCHED_FIFO 80 sleeper: every wakeup exclusive.
vt_run exclusive $((L * 9 / 10)) 0 -c 1 -p $PRIO -i $PERIOD -l $L
# Two at that priority on one grid: the followed one's wakeups all share it
# (the other is woken by its own timer at the same instant, before or after).
vt_run sharedprio 0 $((L * 9 / 10)) -c 1 -p $PRIO -n 2 -i $PERIOD -l $L

lh_unload_or_bail
lh_finished
