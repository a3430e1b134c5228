#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086 # lh_load_or_bail takes optional parameters; word lists
#
# validate_irq.sh - every irq sample of a threaded line, filed again
# offline from the kernel's irq and sched events, equals ours, and the files
# hold exactly our samples
#
# Proves (Documentation/validation.rst, "Sample by sample"): while
# lh_irq_test fires its threaded line from a pinned hard hrtimer on CPU 1
# (its thread bound there), COUNT times with nothing in the way and HELD
# times inside a HOLD_US preempt-off section on CPU 1, trace-cmd records
# the module's lh_sample events of the irq type (every line's),
# irq_handler_entry and irq_handler_exit of the line and the thread's
# sched_switch events. vl_irq_recompute files every sample of the line
# again from those events alone; per run the module's and the recomputed
# samples pair one to one: equal counts, each pair on the same CPU, >= 99 %
# within 2 us, none beyond 10 us; irq/CPUx hold exactly the recorded irq
# samples of each CPU and irq/lines those of each line; and the held run's
# samples hold the sections (at least HELD of HOLD_US - 10 % or more);
# lh_irq_test then unloads. Needs threaded interrupts (PREEMPT_RT, or a
# threadirqs boot). The bounds need instruction time (LH_VM_ICOUNT=1: the
# validate suite), where two probes of one tracepoint are a fixed few
# hundred instructions apart.
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: cpu1 icount trace-cmd tracefs lh_irq_test type:irq

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

COUNT=200	# interrupts of the free run
HELD=20		# interrupts of the held run, each in a section
HOLD_US=500	# the preempt-off section around a held interrupt
GAP_US=2000	# between two interrupts

lh_setup
vl_load 6

it_load cpu=1 gap_us=$GAP_US
IRQ=$IT_IRQ
THREAD=$(grep -l "^irq/$IRQ-" /proc/[0-9]*/comm 2>/dev/null | head -n 1)
THREAD=${THREAD#/proc/}
THREAD=${THREAD%/comm}
[ -n "$THREAD" ] || lh_bail "no thread irq/$IRQ-... for lh_irq_test's line $IRQ"
lh_diag "lh_irq_test: line $IRQ, thread $THREAD ($(cat /proc/$THREAD/comm))"

# vi_run NAME COUNT HOLD_US - fire COUNT interrupts (each in a HOLD_US
# preempt-off section, 0: none) while recording; pair the samples
vi_run()
{
	# every irq sample (the files hold every line's), the type reset
	# before it is enabled: every sample the files hold is recorded
	vl_record_start "$LH_TMP/$1.dat" \
		-e latency_hist:lh_sample -f 'type_name == "irq"' \
		-e irq:irq_handler_entry -f "irq == $IRQ" \
		-e irq:irq_handler_exit -f "irq == $IRQ" \
		-e sched:sched_switch -f "prev_pid == $THREAD || next_pid == $THREAD"
	lh_reset irq
	lh_enable irq
	echo "$2" >"$IT_PARAMS/count"
	echo "$3" >"$IT_PARAMS/hold_us"
	echo 1 >"$IT_PARAMS/trigger" || lh_err "lh_irq_test's run failed ($1)"
	# (while the type is on: a disable empties it)
	vl_read_lines irq "$LH_TMP/$1.lines"
	lh_disable_all
	vl_record_stop "$LH_TMP/$1.dat" "$LH_TMP/$1.report"
	hl_show_totals irq
	vl_ours "$LH_TMP/$1.report" "$LH_TMP/$1.ours" "$THREAD"
	vl_irq_recompute "$LH_TMP/$1.report" "$IRQ" "$THREAD" "$LH_TMP/$1.recomputed"
	vl_pair irq "$LH_TMP/$1.ours" "$LH_TMP/$1.recomputed" "$2" "$1"
	# what users read: every irq sample of the recording (all lines') in
	# irq/CPUx (read with the type off) and irq/lines
	lh_case_begin
	vl_irq_filed "$LH_TMP/$1.report" "$LH_TMP/$1.rows" "$LH_TMP/$1.keyed"
	vl_rows irq "$LH_TMP/$1.rows" $LH_CPUS
	vl_lines irq "$LH_TMP/$1.lines" "$LH_TMP/$1.keyed" \
		"$(vl_marker "$LH_TMP/$1.report" lh-lines-read)" "$(vl_marker "$LH_TMP/$1.report" lh-lines-read-end)"
	lh_case_end "$1_irq_files_hold_the_samples"
}

vi_run free $COUNT 0
vi_run held $HELD $HOLD_US

lh_case_begin
# A held interrupt's thread waits for the end of its section: HOLD_US
# minus the timer's LH_FIRE_DELAY_US (20 us) and the interrupt's entry,
# 477 us on 6.12 with threadirqs in instruction time, where udelay() and
# the clocks agree.
lo=$((HOLD_US - HOLD_US / 10))
k=$(awk -v lo=$lo '$1 == "irq" && $4 >= lo' "$LH_TMP/held.ours" | wc -l)
[ "$k" -ge $HELD ] || lh_err "$k irq samples >= $lo us in the held run, expected $HELD"
lh_case_end held_sections_among_the_pairs

lh_case_begin
it_unload
lh_case_end lh_irq_test_unloads

lh_unload_or_bail
lh_finished
