#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# sections_traced.sh - every critical section the histograms count has its
# lh_sample trace event, those that close while the module emits one too
#
# Proves (Documentation/latency_hist.rst, "Critical sections", and status's
# untraced): while the kernel's trace buffer records latency_hist:lh_sample
# on every CPU, lh_load_test sends K timer interrupts of N us to CPU 1
# while CPU 1 toggles preemption in a tight loop. The preempt_enable probe
# traces its preemptoff sample with interrupts on, so interrupts arrive
# while the module emits: the handler's irqs-off section (and those of the
# softirqs run on its return) close inside that emission. Afterwards, for
# irqsoff, preemptoff and preemptirqsoff on every CPU, the CPUx rows hold
# exactly the samples of the type's lh_sample events of that CPU, and
# status says untraced=0. A module that files those sections without
# tracing them fails here (seen: the irqsoff rows holding samples of no
# event). Counts only, no timing: it holds under plain emulation.
#
# requires: cpu1 preemptirq lh_load_test trace-cmd tracefs type:irqsoff

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

N=300		# us: each interrupt's spin
K=40		# interrupts
TYPES="irqsoff preemptoff preemptirqsoff"

lh_setup
vl_load 4
lt_load cpu=1 gap_us=1000

lh_case_begin
lh_reset $TYPES
vl_record_start "$LH_TMP/trace.dat" -b 32768 -e latency_hist:lh_sample
echo hardirq >"$LT_PARAMS/mode" &&
	echo $N >"$LT_PARAMS/delay_us" &&
	echo $K >"$LT_PARAMS/count" &&
	echo 1 >"$LT_PARAMS/busy_gap" ||
	lh_err "cannot configure lh_load_test"
lh_enable preemptirqsoff
lt_trigger || lh_err "lh_load_test trigger failed"
lh_disable_all
vl_record_stop "$LH_TMP/trace.dat" "$LH_TMP/report"
got=$(hl_at_least irqsoff 1 $N)
lh_diag "irqsoff/CPU1: $got samples >= $N us for $K interrupts; totals: $(for t in $TYPES; do printf '%s ' "$t=$(hl_total $t 1)"; done)"
[ "$got" -ge $K ] || lh_err "irqsoff/CPU1: $got samples >= $N us, expected the $K interrupts'"
lh_case_end interrupts_during_preempt_toggles_are_sections

lh_case_begin
vl_ours "$LH_TMP/report" "$LH_TMP/ours"
for t in $TYPES; do
	awk -v t=$t '$1 == t { print $2, $4 }' "$LH_TMP/ours" >"$LH_TMP/rows.$t"
	vl_rows $t "$LH_TMP/rows.$t" $LH_CPUS
done
lh_case_end every_filed_section_has_its_event

lh_case_begin
for t in $TYPES; do
	u=$(lh_status_field $t untraced)
	[ "$u" = 0 ] || lh_err "status: $t untraced=$u, expected 0 (each section closed while emitting is traced after)"
done
lh_case_end status_counts_no_untraced_section

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
