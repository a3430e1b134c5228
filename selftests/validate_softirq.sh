#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086 # lh_load_or_bail takes optional parameters; word lists
#
# validate_softirq.sh - every softirq sample, filed again offline from
# the kernel's softirq_raise and softirq_entry events, equals ours, and the
# files hold exactly our samples
#
# Proves (Documentation/validation.rst, "Sample by sample"): while
# lh_softirq_test raises HI on CPU 1, COUNT times from a hard hrtimer and
# HELD times inside a HOLD_US bottom-halves-off section, and the kernel
# raises its own vectors (TIMER, RCU, SCHED, ...), trace-cmd records every
# CPU's lh_sample events of softirq, softirq_raise, softirq_entry and what
# interrupts the two probes of an entry (irq handlers, x86 vectors,
# switches). vl_softirq files every sample again from those events alone
# (each window ending at ftrace's softirq_entry), between two trace markers
# written while the type is on (leaving out the first entry of each vector
# after the first marker, on both sides); per run the module's and the
# recomputed samples pair one to one: equal counts, each pair on the same
# CPU, >= 99 % within 2 us, none beyond 10 us, at least the raises of HI
# but its first; softirq/CPUx hold exactly the recorded samples of each CPU
# and softirq/lines those of each vector; and the held run's samples hold
# the sections (at least HELD - 1 of HOLD_US - 10 % or more). The bounds
# need instruction time (LH_VM_ICOUNT=1: the validate suite), where two
# probes of one tracepoint are a fixed few hundred instructions apart.
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: cpu1 icount trace-cmd tracefs lh_softirq_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

COUNT=200	# raises of the free run
HELD=20		# raises of the held run, each in a section
HOLD_US=500	# the bottom-halves-off section around a held raise
GAP_US=2000	# between two raises

lh_setup
T=$(lh_tracefs)
vl_load 6
# the x86 interrupt vectors (the local timer's among them), where the kernel has them
VS_VECTORS=
[ -d "$T/events/irq_vectors" ] && VS_VECTORS="-e irq_vectors"

sq_load cpu=1 gap_us=$GAP_US

# vs_run NAME COUNT HOLD_US - one run of lh_softirq_test recorded, its
# samples paired (one case), the files checked against them (one case)
vs_run()
{
	local from to
	# every CPU (softirq/lines sums them), with what interrupts the two
	# probes of softirq_entry (vl_softirq); the type reset before it is
	# enabled, so that every sample the files hold is in the recording
	vl_record_start "$LH_TMP/$1.dat" \
		-e latency_hist:lh_sample -f 'type_name == "softirq"' \
		-e irq:softirq_raise -e irq:softirq_entry \
		-e irq:irq_handler_entry -e irq:irq_handler_exit -e sched:sched_switch $VS_VECTORS
	lh_reset softirq
	lh_enable softirq
	taskset -c 1 sh -c "echo lh-validate-$1 >$T/trace_marker" || lh_err "cannot write the trace marker"
	echo "$2" >"$SQ_PARAMS/count"
	echo "$3" >"$SQ_PARAMS/hold_us"
	echo 1 >"$SQ_PARAMS/trigger" || lh_err "lh_softirq_test's run failed ($1)"
	taskset -c 1 sh -c "echo lh-validate-$1-end >$T/trace_marker" || lh_err "cannot write the trace marker"
	# (while the type is on: a disable empties it)
	vl_read_lines softirq "$LH_TMP/$1.lines"
	lh_disable_all
	vl_record_stop "$LH_TMP/$1.dat" "$LH_TMP/$1.report"
	hl_show_totals softirq
	from=$(vl_marker "$LH_TMP/$1.report" "lh-validate-$1")
	to=$(vl_marker "$LH_TMP/$1.report" "lh-validate-$1-end")
	[ -n "$from" ] && [ -n "$to" ] || lh_err "no trace markers lh-validate-$1(-end) in the report"
	vl_softirq "$LH_TMP/$1.report" "${from:-0}" "${to:-0}" "$LH_TMP/$1.ours" "$LH_TMP/$1.recomputed" \
		"$LH_TMP/$1.filed"
	# (HI's first entry after the marker is left out, as every vector's)
	vl_pair softirq "$LH_TMP/$1.ours" "$LH_TMP/$1.recomputed" $(($2 - 1)) "$1"
	# what users read: every sample of the recording in softirq/CPUx
	# (read with the type off) and softirq/lines (keyed on the vector of
	# the entry each sample was paired with)
	lh_case_begin
	awk '{ print $1, $3 }' "$LH_TMP/$1.filed" >"$LH_TMP/$1.rows"
	vl_rows softirq "$LH_TMP/$1.rows" $LH_CPUS
	awk '{ print $2, $3, $4 }' "$LH_TMP/$1.filed" >"$LH_TMP/$1.keyed"
	vl_lines softirq "$LH_TMP/$1.lines" "$LH_TMP/$1.keyed" \
		"$(vl_marker "$LH_TMP/$1.report" lh-lines-read)" "$(vl_marker "$LH_TMP/$1.report" lh-lines-read-end)"
	lh_case_end "$1_softirq_files_hold_the_samples"
}

vs_run free $COUNT 0
vs_run held $HELD $HOLD_US

lh_case_begin
lo=$((HOLD_US - HOLD_US / 10))
k=$(awk -v lo=$lo '$1 == "softirq" && $4 >= lo' "$LH_TMP/held.ours" | wc -l)
[ "$k" -ge $((HELD - 1)) ] || lh_err "$k softirq samples >= $lo us in the held run, expected $((HELD - 1))"
lh_case_end held_sections_among_the_pairs

lh_case_begin
sq_unload
lh_case_end lh_softirq_test_unloads

lh_unload_or_bail
lh_finished
