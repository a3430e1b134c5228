#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC3043 # lh_load_or_bail takes optional parameters; local: dash, busybox ash, bash
#
# softirq.sh - the softirq type follows raises of a vector the test
# controls: one sample per raise in the vector's line of softirq/lines, which
# names it; a bottom-halves-off section around the raise is the vector's
# maximum with the section's task as culprit
#
# Proves (Documentation/latency_hist.rst, "softirq/"), with lh_softirq_test's
# raises of HI_SOFTIRQ (a tasklet of its own, each raise run before the next,
# on CPU 1):
#  1. status says softirq is available (its tracepoints exist on every
#     kernel latency_hist supports), and softirq/lines opens with
#     "#context PREEMPT_RT" on PREEMPT_RT, "#context irq_exit" elsewhere, and
#     the "#vector name samples ..." header;
#  2. COUNT raises from a hard hrtimer, GAP_US apart, file COUNT samples in
#     vector 0's line, named HI, and CPU 1's histogram holds at least those;
#     the line's minimum is below GAP_US and its mean below 2 * GAP_US (each
#     raise runs before the next is made: a stamp never cleared times the
#     k-th sample from the first raise, k * GAP_US or more); lh (where it is
#     beside the tests) reads the module's file: lh prom has the vector's
#     series, labelled vector="0", with those samples; where tracefs is,
#     the lh_sample events of those samples name the vector as victim
#     (victim=HI:0), as its max record does;
#  3. with each raise inside a HOLD_US bottom-halves-off section of
#     lh_softirq_hold on CPU 1 (the vector runs at its local_bh_enable()),
#     every sample of HI is at least HOLD_US * 9 / 10 (its minimum; the
#     section is timed on the kernel's clock), its maximum on CPU 1,
#     culprit lh_softirq_hold; CPU 1's max record, when it is that sample,
#     names vector 0, HI, and lh_softirq_hold; explain (on for this case,
#     its ring hooked before softirq's probes) broke down CPU 1's maximum
#     of the case in softirq/explain-CPU1: its window is there and at
#     least HI's maximum (HI's samples were filed while explain was on);
#     when it is CPU 1's max record or HI's maximum, the culprit ran in it
#     (lh_softirq_hold longer than any other thread when it is the
#     culprit), and the vector did not run in its own window (softirq's
#     entry probe runs before explain's);
#  4. a raise while the vector is already pending, from a raise the module
#     did not see (lh_softirq_test pending_us: as one before the type was
#     enabled), starts no window: HI gets no sample, where a window started
#     there would file one too short;
#  5. a reset of softirq empties softirq/lines;
#  6. with softirq disabled, raises file nothing;
#  7. the module unloads (the last tests of a run: a module left busy would
#     turn the next test into a skip), and dmesg is clean.
#
# requires: cpu1 lh_softirq_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

COUNT=20	# raises of a run
GAP_US=2000	# between two of them
HOLD_US=5000	# the bottom-halves-off section around a raise
HOLDS=3		# sections
HI=0		# HI_SOFTIRQ, the vector lh_softirq_test raises
LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}

lh_setup
lh_plan 8
lh_load_or_bail

sq_load cpu=1 count=$COUNT gap_us=$GAP_US

# st_run - one run of lh_softirq_test; RAISED gets its raises
st_run()
{
	local raised0
	lh_value "$SQ_PARAMS/raised"
	raised0=$LH_VALUE
	echo 1 >"$SQ_PARAMS/trigger" || lh_err "lh_softirq_test's run failed"
	lh_value "$SQ_PARAMS/raised"
	RAISED=$((LH_VALUE - raised0))
}

lh_case_begin
[ "$(lh_status_field softirq available)" = 1 ] ||
	lh_err "softirq is not available: $(lh_status_line softirq)"
lh_enable softirq
if grep -q PREEMPT_RT /proc/version 2>/dev/null; then
	context=PREEMPT_RT
else
	context=irq_exit
fi
{
	IFS= read -r head1
	IFS= read -r head2
} <"$LH_DIR/softirq/lines"
[ "$head1" = "#context $context" ] ||
	lh_err "softirq/lines starts with '$head1', expected '#context $context'"
[ "$head2" = "#vector name samples min mean p99 p99.9 max max_cpu culprit_pid culprit" ] ||
	lh_err "softirq/lines' second line is '$head2'"
lh_case_end status_and_lines_header_say_where_softirqs_run

lh_case_begin
lh_reset softirq
T=$(lh_tracefs) || T=
[ -n "$T" ] && [ -d "$T/events/latency_hist/lh_sample" ] || T=
if [ -n "$T" ]; then
	echo 0 >"$T/tracing_on"
	echo >"$T/trace"
	echo 'type_name == "softirq" && cpu == 1' >"$T/events/latency_hist/lh_sample/filter"
	echo 1 >"$T/events/latency_hist/lh_sample/enable"
	echo 1 >"$T/tracing_on"
fi
st_run
if [ -n "$T" ]; then
	echo 0 >"$T/events/latency_hist/lh_sample/enable"
	echo 0 >"$T/events/latency_hist/lh_sample/filter"
	grep 'lh_sample:' "$T/trace" >"$LH_TMP/events"
	echo >"$T/trace"
	named=$(grep -c " victim=HI:$HI prio=" "$LH_TMP/events")
	lh_diag "lh_sample events of softirq on CPU 1: $(wc -l <"$LH_TMP/events"), naming HI: $named"
	[ "$named" -ge "$RAISED" ] ||
		lh_err "$named lh_sample events name HI as victim for $RAISED raises: $(grep -v " victim=HI:" "$LH_TMP/events" | head -n 2)"
else
	lh_diag "no tracefs or no lh_sample event: the events' victim not checked"
fi
hl_show_lines softirq
if ! hl_line softirq $HI; then
	lh_err "softirq/lines has no row for vector $HI after $RAISED raises"
else
	[ "$RAISED" = $COUNT ] || lh_err "lh_softirq_test raised $RAISED times, expected $COUNT"
	[ "$LN_SAMPLES" = "$RAISED" ] ||
		lh_err "vector $HI has $LN_SAMPLES samples for $RAISED raises"
	[ "$LN_NAME" = HI ] || lh_err "vector $HI is named '$LN_NAME', expected HI"
	total=$(hl_total softirq 1)
	[ "$total" -ge "$RAISED" ] ||
		lh_err "softirq/CPU1 holds $total samples, fewer than HI's $RAISED"
	hl_line_ordered "vector $HI"
	[ "$LN_MIN" -lt $GAP_US ] ||
		lh_err "vector $HI: minimum $LN_MIN us >= the $GAP_US us between raises"
	hl_mean_below $((GAP_US * 2)) ||
		lh_err "vector $HI: mean $LN_MEAN us >= $((GAP_US * 2)) us, raises $GAP_US us apart"
	if [ -r "$LH_TOOL" ]; then
		want="latency_hist_line_samples_total{type=\"softirq\",vector=\"$HI\",name=\"HI\"} $LN_SAMPLES"
		LH_ROOT=$LH_DIR sh "$LH_TOOL" prom >"$LH_TMP/prom" 2>&1 ||
			lh_err "lh prom failed: $(head -c 300 "$LH_TMP/prom")"
		grep -qxF "$want" "$LH_TMP/prom" ||
			lh_err "lh prom lacks $want: $(grep latency_hist_line_samples "$LH_TMP/prom" | head -n 3)"
	else
		lh_diag "$LH_TOOL is not here: lh's reading of softirq/lines not checked"
	fi
fi
lh_case_end one_sample_per_raise_in_the_named_vector

# st_check_explain - softirq/explain-CPU1 (explain was on for the sections)
# broke down CPU 1's maximum of the case: its window is there and at least
# HI's maximum (the line hl_line read), as HI's samples were filed while
# explain was on. When it is CPU 1's max record (read by hl_maxrec) or HI's
# maximum, its breakdown is checked, and the vector it explains did not run
# in its own window; a longer window of another vector, no longer CPU 1's
# maximum after explain went off, is not.
st_check_explain()
{
	local f="$LH_DIR/softirq/explain-CPU1" win vec
	win=$(awk '$1 == "window" && $2 ~ /^[0-9]+$/ { print $2; exit }' "$f")
	if [ -z "$win" ]; then
		lh_err "$(lh_name "$f") has no window after HI's maximum of $LN_MAX us: $(head -n 1 "$f")"
		return
	fi
	if [ "$((win / 1000))" -lt "$LN_MAX" ]; then
		lh_err "$(lh_name "$f"): window $win ns, shorter than HI's maximum of $LN_MAX us filed while explain was on"
		return
	fi
	if [ -n "$MR_LAT" ] && [ "$((win / 1000))" = "$MR_LAT" ]; then
		vec=$MR_VPID
		hl_check_explain softirq 1 "$MR_LAT" "$MR_CPID" "$MR_CCOMM" lh_softirq_hold
	elif [ "$((win / 1000))" = "$LN_MAX" ]; then
		vec=$HI
		hl_check_explain softirq 1 "$LN_MAX" "$LN_CPID" "$LN_CCOMM" lh_softirq_hold
	else
		lh_diag "breakdown not checked: its window ($win ns) is another vector's, longer than HI's maximum and no longer CPU 1's"
		return
	fi
	! grep -q "^  softirq $vec " "$f" ||
		lh_err "$(lh_name "$f"): vector $vec's own entry is in the window it ends"
}

lh_case_begin
# (explain on first, then softirq's probes hooked again after its ring's:
# the entry probe must still run first, with the higher priority)
lh_expect_write_ok "$LH_DIR/explain/enable" 1
lh_expect_write_ok "$LH_DIR/enable/softirq" 0
lh_expect_write_ok "$LH_DIR/enable/softirq" 1
lh_reset softirq
echo $HOLDS >"$SQ_PARAMS/count"
echo $HOLD_US >"$SQ_PARAMS/hold_us"
st_run
lh_expect_write_ok "$LH_DIR/explain/enable" 0
hl_show_lines softirq
hl_show_maxrecs softirq
if ! hl_line softirq $HI; then
	lh_err "softirq/lines has no row for vector $HI after $RAISED raises"
else
	[ "$LN_SAMPLES" = $HOLDS ] ||
		lh_err "vector $HI has $LN_SAMPLES samples for $HOLDS sections"
	[ "$LN_MIN" -ge $((HOLD_US * 9 / 10)) ] ||
		lh_err "vector $HI: minimum $LN_MIN us < $((HOLD_US * 9 / 10)) us, every raise inside a $HOLD_US us section"
	[ "$LN_MAXCPU" = 1 ] || lh_err "vector $HI: maximum on CPU $LN_MAXCPU, expected 1"
	[ "$LN_CCOMM" = lh_softirq_hold ] ||
		lh_err "vector $HI: culprit '$LN_CCOMM', expected lh_softirq_hold"
	if hl_maxrec softirq 1 && [ -z "$MR_NONE" ] && [ "$MR_LAT" = "$LN_MAX" ]; then
		[ "$MR_VPID $MR_VCOMM" = "$HI HI" ] ||
			lh_err "softirq/max_latency-CPU1 victim '$MR_VPID $MR_VCOMM', expected '$HI HI'"
		[ "$MR_CCOMM" = lh_softirq_hold ] ||
			lh_err "softirq/max_latency-CPU1 culprit '$MR_CCOMM', expected lh_softirq_hold"
	else
		lh_diag "softirq/max_latency-CPU1 is another vector's: $MR_LINE"
	fi
	st_check_explain
fi
lh_case_end bh_off_section_is_the_vectors_max_with_its_culprit

lh_case_begin
# (the vector pending from a raise latency_hist did not see, as one before
# the type was enabled: the raise in the section is not the first, and the
# time the vector waited is unknown)
lh_reset softirq
echo $HOLD_US >"$SQ_PARAMS/pending_us"
st_run
echo 0 >"$SQ_PARAMS/pending_us"
hl_show_lines softirq
if hl_line softirq $HI; then
	lh_err "vector $HI has $LN_SAMPLES samples (min $LN_MIN us, max $LN_MAX us) for $RAISED raises while it was pending unseen: a raise while the vector is pending starts no window"
fi
lh_case_end raise_while_pending_starts_no_window

lh_case_begin
lh_reset softirq
hl_line softirq $HI && lh_err "vector $HI still has a row after the reset: $LN_SAMPLES samples"
lh_case_end reset_empties_the_lines

lh_case_begin
lh_expect_write_ok "$LH_DIR/enable/softirq" 0
echo 0 >"$SQ_PARAMS/hold_us"
echo 3 >"$SQ_PARAMS/count"
st_run
hl_line softirq $HI && lh_err "vector $HI has $LN_SAMPLES samples with softirq disabled"
lh_case_end disabled_files_nothing

lh_case_begin
sq_unload
lh_unload || lh_err "cannot unload $LH_NAME"
lh_case_end module_unloads
lh_case_dmesg_clean

lh_finished
