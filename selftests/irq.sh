#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086,SC3043 # lh_load_or_bail takes optional parameters; word lists; local: dash, busybox ash, bash
#
# irq.sh - the irq type follows a real threaded interrupt: one sample per
# interrupt of a line, the line named in irq/lines, a preempt-off section
# on the thread's CPU its maximum with the section's task as culprit; where
# interrupts are not threaded, the type is unavailable and says why
#
# Proves (Documentation/latency_hist.rst, "irq/"), with lh_irq_test's line
# (a threaded handler on a line of its own, fired from a pinned hard
# hrtimer on CPU 1, its thread bound there):
#  1. status says irq is available exactly where interrupts are threaded
#     (PREEMPT_RT, or threadirqs on the command line); elsewhere its reason
#     says so and enable/irq refuses (ENODEV): the rest is skipped there;
#  2. COUNT interrupts, GAP_US apart, file COUNT samples in the line's row
#     of irq/lines, which names the line (its number, action lh_irq_test),
#     and CPU 1's histogram holds at least those; the line's minimum is
#     below GAP_US and its mean below 2 * GAP_US (each interrupt is served
#     before the next is fired: an entry stamp never cleared times the k-th
#     sample from the first interrupt, k * GAP_US or more); lh (where it is beside the tests)
#     reads the module's file: lh prom has the line's series, labelled
#     irq=IRQ, with those samples;
#  3. with each interrupt fired inside a preempt-off section of lh_irq_hold
#     on CPU 1 that goes on HOLD_US after it, every sample of the line is
#     at least HOLD_US (its minimum; less a tenth for the clocks), its
#     maximum on CPU 1, culprit lh_irq_hold, or one of the named exceptions,
#     a task above the thread that woke in the section first: migration/1
#     (SCHED_FIFO 99, woken by the soft-lockup watchdog; the thread is
#     raised to SCHED_FIFO 51 with chrt, above the other lines' threads),
#     and where chrt is not here another line's thread at the same
#     priority; never the line's own thread, nor (with chrt) another
#     irq/* thread; CPU 1's max record,
#     when it is that sample, names the thread (irq/<n>-...) and the same
#     culprit, and explain (on for this case) breaks it down in
#     irq/explain-CPU1: its window_ns / 1000 is the max record's sample
#     and lh_irq_hold ran longer than any other thread in it (under TCG
#     another line's thread, virtio0's, can wait longer, even after
#     explain is off again: then the breakdown is not checked);
#  4. a reset of irq empties irq/lines;
#  5. with irq disabled, interrupts file nothing;
#  6. the module unloads (the last tests of a run: a module left busy would
#     turn the next test into a skip), and dmesg is clean; also where
#     interrupts are not threaded.
#
# requires: cpu1 lh_irq_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

COUNT=20	# interrupts of a run
GAP_US=2000	# between two of them
HOLD_US=3000	# the preempt-off section around an interrupt
HOLDS=5		# sections
LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}

lh_setup
lh_plan 7
lh_load_or_bail

# ir_rtprio PID - the task's real-time priority (0 for SCHED_OTHER and the
# like, and for a task gone), from /proc/PID/stat
ir_rtprio()
{
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo 0; return; }
	set -- ${stat##*) }
	shift 37
	case $2 in
	1 | 2) echo "$1" ;;
	*) echo 0 ;;
	esac
}

# ir_raise_thread - make the line's thread (TID) SCHED_FIFO 51, above the
# other lines' threads (50), where chrt is here: another line's interrupt on
# CPU 1 (virtio's, under TCG) whose thread woke first inside a section would
# otherwise run first when the section ends, and be the switch-in's
# culprit. PRIO gets the thread's priority, RAISED 1 if chrt raised it.
ir_raise_thread()
{
	RAISED=0
	TID=$(grep -l "^irq/$IRQ-" /proc/[0-9]*/comm 2>/dev/null | head -n 1)
	TID=${TID#/proc/}
	TID=${TID%/comm}
	if [ -z "$TID" ]; then
		lh_err "line $IRQ has no thread irq/$IRQ-..."
	elif ! command -v chrt >/dev/null 2>&1; then
		lh_diag "chrt is not here: thread $TID stays at its priority"
	else
		chrt -f -p 51 "$TID" >/dev/null || lh_err "chrt -f -p 51 $TID failed"
		RAISED=1
	fi
	PRIO=$(ir_rtprio "$TID")
	lh_diag "lh_irq_test: line $IRQ, thread $TID, SCHED_FIFO $PRIO"
}

# ir_culprit_allowed PID COMM - may PID (COMM), the culprit of a sample of
# the line taken in a section of lh_irq_hold, have run before the thread?
# lh_irq_hold itself; migration/1 (the stopper, above every other thread,
# woken by the soft-lockup watchdog); and, where chrt could not raise the
# thread above the other lines' threads, another line's thread (irq/*) at
# the thread's priority. Never the line's own thread (TID): a switch-in
# does not switch out the task it switches in.
ir_culprit_allowed()
{
	[ "$1" != "$TID" ] || return 1
	case $2 in
	lh_irq_hold) return 0 ;;
	migration/1) [ "$(ir_rtprio "$1")" -gt "$PRIO" ] ;;
	"irq/$IRQ-"*) return 1 ;;
	irq/*) [ "$RAISED" = 0 ] && [ "$(ir_rtprio "$1")" -ge "$PRIO" ] ;;
	*) return 1 ;;
	esac
}

# ir_finish - the last cases: the unload (lh_irq_test, if loaded, then the
# module) and a clean dmesg; then the KTAP totals
ir_finish()
{
	lh_case_begin
	[ -z "$IT_LOADED" ] || it_unload
	lh_unload || lh_err "cannot unload $LH_NAME"
	lh_case_end module_unloads
	lh_case_dmesg_clean
	lh_finished
}

# ir_threaded - are device interrupts threaded on this boot?
ir_threaded()
{
	grep -q PREEMPT_RT /proc/version 2>/dev/null ||
		grep -qw threadirqs /proc/cmdline 2>/dev/null
}

lh_case_begin
avail=$(lh_status_field irq available)
if ir_threaded; then
	[ "$avail" = 1 ] || lh_err "interrupts are threaded here, but irq is not available: $(lh_status_line irq)"
else
	[ "$avail" = 0 ] || lh_err "interrupts are not threaded here, but irq is available"
	case $(lh_status_line irq) in
	*" reason=interrupts are not threaded"*) ;;
	*) lh_err "no reason in: $(lh_status_line irq)" ;;
	esac
	lh_expect_write_errno "$LH_DIR/enable/irq" 1 ENODEV
fi
lh_case_end status_says_whether_interrupts_are_threaded
if [ "$avail" != 1 ]; then
	why="interrupts are not threaded on this boot (no PREEMPT_RT, no threadirqs)"
	lh_skip one_sample_per_interrupt_in_the_named_line "$why"
	lh_skip preempt_off_section_is_the_lines_max_with_its_culprit "$why"
	lh_skip reset_empties_the_lines "$why"
	lh_skip disabled_files_nothing "$why"
	ir_finish
fi

it_load cpu=1 count=$COUNT gap_us=$GAP_US
IRQ=$IT_IRQ
ir_raise_thread

lh_case_begin
lh_enable irq
lh_reset irq
lh_value "$IT_PARAMS/fired"
fired0=$LH_VALUE
echo 1 >"$IT_PARAMS/trigger" || lh_err "lh_irq_test's run failed"
lh_value "$IT_PARAMS/fired"
fired=$((LH_VALUE - fired0))
hl_show_lines irq
if ! hl_line irq "$IRQ"; then
	lh_err "irq/lines has no row for line $IRQ"
else
	[ "$fired" = $COUNT ] || lh_err "lh_irq_test fired $fired interrupts, expected $COUNT"
	[ "$LN_SAMPLES" = "$fired" ] ||
		lh_err "line $IRQ has $LN_SAMPLES samples for $fired interrupts"
	[ "$LN_NAME" = lh_irq_test ] || lh_err "line $IRQ is named '$LN_NAME', expected lh_irq_test"
	total=$(hl_total irq 1)
	[ "$total" -ge "$fired" ] ||
		lh_err "irq/CPU1 holds $total samples, fewer than the line's $fired"
	hl_line_ordered "line $IRQ"
	[ "$LN_MIN" -lt $GAP_US ] ||
		lh_err "line $IRQ: minimum $LN_MIN us >= the $GAP_US us between interrupts"
	hl_mean_below $((GAP_US * 2)) ||
		lh_err "line $IRQ: mean $LN_MEAN us >= $((GAP_US * 2)) us, interrupts $GAP_US us apart"
	if [ -r "$LH_TOOL" ]; then
		want="latency_hist_line_samples_total{type=\"irq\",irq=\"$IRQ\",name=\"lh_irq_test\"} $LN_SAMPLES"
		LH_ROOT=$LH_DIR sh "$LH_TOOL" prom >"$LH_TMP/prom" 2>&1 ||
			lh_err "lh prom failed: $(head -c 300 "$LH_TMP/prom")"
		grep -qxF "$want" "$LH_TMP/prom" ||
			lh_err "lh prom lacks $want: $(grep latency_hist_line_samples "$LH_TMP/prom" | head -n 3)"
	else
		lh_diag "$LH_TOOL is not here: lh's reading of irq/lines not checked"
	fi
fi
lh_case_end one_sample_per_interrupt_in_the_named_line

lh_case_begin
lh_reset irq
lh_expect_write_ok "$LH_DIR/explain/enable" 1
echo $HOLDS >"$IT_PARAMS/count"
echo $HOLD_US >"$IT_PARAMS/hold_us"
echo 1 >"$IT_PARAMS/trigger" || lh_err "lh_irq_test's run with sections failed"
lh_expect_write_ok "$LH_DIR/explain/enable" 0
hl_show_lines irq
hl_show_maxrecs irq
if ! hl_line irq "$IRQ"; then
	lh_err "irq/lines has no row for line $IRQ"
else
	[ "$LN_SAMPLES" = $HOLDS ] || lh_err "line $IRQ has $LN_SAMPLES samples for $HOLDS sections"
	# (the section spins HOLD_US on the clock after the interrupt: a
	# tenth off for the two clocks' reads)
	[ "$LN_MIN" -ge $((HOLD_US * 9 / 10)) ] ||
		lh_err "line $IRQ: minimum $LN_MIN us < $((HOLD_US * 9 / 10)) us, every interrupt inside a $HOLD_US us section"
	[ "$LN_MAXCPU" = 1 ] || lh_err "line $IRQ: maximum on CPU $LN_MAXCPU, expected 1"
	if [ "$LN_CCOMM" = lh_irq_hold ]; then
		:
	elif ir_culprit_allowed "$LN_CPID" "$LN_CCOMM"; then
		lh_diag "line $IRQ: culprit $LN_CCOMM ($LN_CPID), at SCHED_FIFO $(ir_rtprio "$LN_CPID"), ran first"
	else
		lh_err "line $IRQ: culprit '$LN_CCOMM' ($LN_CPID, SCHED_FIFO $(ir_rtprio "$LN_CPID")), expected lh_irq_hold or a named exception; the line's thread is $TID"
	fi
	if hl_maxrec irq 1 && [ -z "$MR_NONE" ] && [ "$MR_LAT" = "$LN_MAX" ]; then
		case $MR_VCOMM in
		"irq/$IRQ-"*) ;;
		*) lh_err "irq/max_latency-CPU1 victim '$MR_VCOMM', expected irq/$IRQ-..." ;;
		esac
		[ "$MR_CCOMM" = "$LN_CCOMM" ] ||
			lh_err "irq/max_latency-CPU1 culprit '$MR_CCOMM', the line's is $LN_CCOMM"
	else
		lh_diag "irq/max_latency-CPU1 is another line's: $MR_LINE"
	fi
fi
if ! hl_maxrec irq 1 || [ -n "$MR_NONE" ]; then
	lh_err "irq/max_latency-CPU1 holds no record after $HOLDS samples there"
else
	# (explain is off again: another line's later max, virtio0's under
	# TCG, has a record but no breakdown)
	case $MR_VCOMM in
	"irq/$IRQ-"*) hl_check_explain irq 1 "$MR_LAT" "$MR_CPID" "$MR_CCOMM" lh_irq_hold ;;
	*) lh_diag "explain not checked: CPU 1's max record is another line's, $MR_VCOMM" ;;
	esac
fi
lh_case_end preempt_off_section_is_the_lines_max_with_its_culprit

lh_case_begin
lh_reset irq
hl_line irq "$IRQ" && lh_err "line $IRQ still has a row after the reset: $LN_SAMPLES samples"
lh_case_end reset_empties_the_lines

lh_case_begin
lh_expect_write_ok "$LH_DIR/enable/irq" 0
echo 0 >"$IT_PARAMS/hold_us"
echo 3 >"$IT_PARAMS/count"
echo 1 >"$IT_PARAMS/trigger" || lh_err "lh_irq_test's run failed"
hl_line irq "$IRQ" && lh_err "line $IRQ has $LN_SAMPLES samples with irq disabled"
lh_case_end disabled_files_nothing

ir_finish
