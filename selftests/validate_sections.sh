#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086 # lh_load_or_bail takes optional parameters; word lists
#
# validate_sections.sh - every irqsoff, preemptoff and preemptirqsoff sample
# of CPU 1, filed again offline from the preemptirq trace events, equals
# ours: injected sections of known length and the kernel's own
#
# Proves (Documentation/validation.rst, "Sample by sample"): with
# preemptirqsoff on, lh_load_test holds interrupts, preemption, and both off
# on CPU 1 for N = 100, 500 and 2000 us, three times each, while trace-cmd
# records CPU 1 only: the module's lh_sample events and irq_disable,
# irq_enable, preempt_disable, preempt_enable and cpu_idle. vl_sections
# files every section again from those events; between two trace markers
# (written on CPU 1 once the switch is on and before it goes off), the
# module's and the recomputed samples of each type pair one to one: equal
# counts, >= 99 % within 2 us, none beyond 10 us; each type's CPU1 holds
# exactly CPU 1's recorded samples; and the injected sections are among
# them (at least 9 of each type at >= 100 us). Needs the preemptirq
# tracepoints (6.12-preempt, 7.3-rt-debug). The bounds need instruction time
# (LH_VM_ICOUNT=1, the validate suite): under plain emulation a vCPU stall
# between the two probes of one tracepoint moves one side by milliseconds.
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: cpu1 icount trace-cmd tracefs preemptirq lh_load_test type:irqsoff type:preemptoff type:preemptirqsoff

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

COUNT=3
SIZES="100 500 2000"
MODES="irq preempt preemptirq"
TYPES="irqsoff preemptoff preemptirqsoff"

lh_setup
T=$(lh_tracefs)
lh_load_or_bail
lt_load cpu=1 count=$COUNT gap_us=3000
lh_plan 5

# vs_mark TEXT - a trace marker written on CPU 1, the only CPU recorded
vs_mark()
{
	taskset -c 1 sh -c "echo $1 >$T/trace_marker" || lh_err "cannot write the trace marker $1"
}

lh_reset $TYPES
vl_record_start "$LH_TMP/trace.dat" -M 2 -b 16384 \
	-e latency_hist:lh_sample \
	-e preemptirq:irq_disable -e preemptirq:irq_enable \
	-e preemptirq:preempt_disable -e preemptirq:preempt_enable \
	-e power:cpu_idle
lh_enable preemptirqsoff
vs_mark lh-validate-on
for mode in $MODES; do
	echo $mode >"$LT_PARAMS/mode" || lh_err "cannot set mode $mode"
	for n in $SIZES; do
		echo $n >"$LT_PARAMS/delay_us" || lh_err "cannot set delay_us"
		lt_trigger || lh_err "lh_load_test trigger failed ($mode, $n us)"
	done
done
vs_mark lh-validate-off
lh_disable_all
vl_record_stop "$LH_TMP/trace.dat" "$LH_TMP/report"
hl_show_totals $TYPES

from=$(vl_marker "$LH_TMP/report" lh-validate-on)
to=$(vl_marker "$LH_TMP/report" lh-validate-off)
if [ -z "$from" ] || [ -z "$to" ]; then
	lh_bail "trace markers not found in the report"
fi
vl_ours "$LH_TMP/report" "$LH_TMP/ours.all"
vl_sections "$LH_TMP/report" "$LH_TMP/recomputed.all"
vl_window "$LH_TMP/ours.all" "$LH_TMP/ours" "$from" "$to"
vl_window "$LH_TMP/recomputed.all" "$LH_TMP/recomputed" "$from" "$to"
lh_diag "report: $(grep -c . "$LH_TMP/report") lines over $(((to - from) / 1000)) us; ours $(wc -l <"$LH_TMP/ours") samples, recomputed $(wc -l <"$LH_TMP/recomputed")"
for t in $TYPES; do
	lh_diag "$t: $(awk -v t=$t '$1 == t && $4 >= 100' "$LH_TMP/ours" | wc -l) samples of ours >= 100 us"
	vl_pair $t "$LH_TMP/ours" "$LH_TMP/recomputed" 1
done

# What users read: CPU 1's rows (recorded from before the enable to after
# the disable; the reset before both) hold exactly its lh_sample events.
# CPU 0 files too, unrecorded (-M 2: the preemptirq events of every CPU
# would overflow the buffer).
lh_case_begin
for t in $TYPES; do
	awk -v t=$t '$1 == t { print $2, $4 }' "$LH_TMP/ours.all" >"$LH_TMP/rows.$t"
	vl_rows $t "$LH_TMP/rows.$t" 1
done
lh_case_end cpu1_files_hold_the_samples

lh_case_begin
# Each mode's sections are irqsoff or preemptoff samples, and all three
# preemptirqsoff ones (interrupts go off inside a preempt-off section and
# the other way round): at least COUNT per size in the paired lists.
for t in $TYPES; do
	for n in $SIZES; do
		hi=$((n + n / 20 + 20))
		k=$(awk -v t=$t -v n=$n -v hi=$hi '$1 == t && $2 == 1 && $4 >= n && $4 <= hi' "$LH_TMP/ours" | wc -l)
		[ "$k" -ge $COUNT ] || lh_err "$t: $k samples in [$n, $hi] us on CPU 1, expected >= $COUNT injected"
	done
done
lh_case_end injected_sections_among_the_pairs

lt_unload
lh_unload_or_bail
lh_finished
