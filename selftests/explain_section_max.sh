#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015 # lh_load_or_bail takes optional parameters; A && B || C reports
#
# explain_section_max.sh - a critical-section type explains only a section
# that reaches its CPU's maximum, also one filed before explain came on
#
# Proves (Documentation/latency_hist.rst, "explain/": "only a sample that
# becomes its CPU's maximum is explained") for the section types, which keep
# no max record: lh_load_test holds interrupts off on CPU 1 for S = 100 ms
# with irqsoff on and explain off; then explain comes on for about a second
# of the CPU's own short sections. irqsoff/explain-CPU1 must then read
# "(none)", or explain a window of at least the maximum irqsoff/CPU1 held
# before (issue 33 item 3: the first short section after explain came on
# became "the worst window"). Only where the preemptirq tracepoints exist.
#
# requires: cpu1 preemptirq lh_load_test type:irqsoff

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

S=100000	# us: the irqs-off section filed before explain comes on

lh_setup
lh_plan 2
lh_load_or_bail
lt_load mode=irq cpu=1

lh_case_begin
echo $S >"$LT_PARAMS/delay_us"
echo 1 >"$LT_PARAMS/count"
lh_enable preemptirqsoff
lh_reset irqsoff
lt_trigger || lh_err "lh_load_test mode=irq failed"
before=$(hl_max irqsoff 1)
lh_expect_write_ok "$LH_DIR/explain/enable" 1
lh_activity
lh_sleep_s 1
lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
lh_expect_write_ok "$LH_DIR/explain/enable" 0
after=$(hl_max irqsoff 1)
f=$LH_DIR/irqsoff/explain-CPU1
lh_diag "irqsoff/CPU1 maximum $before us before explain, $after us after; explain-CPU1: $(tr '\n' ' ' <"$f" | cut -c1-200)"
if [ "$before" = "<undef>" ] || [ "$before" -lt $S ]; then
	lh_err "irqsoff/CPU1 maximum $before us after a $S us irqs-off section"
elif [ "$(head -n 1 "$f")" != "(none)" ]; then
	w=$(awk '$1 == "window" { print int($2 / 1000) }' "$f")
	[ -n "$w" ] && [ "$w" -ge "$before" ] ||
		lh_err "irqsoff/explain-CPU1 explains a window of $w us, below the $before us maximum filed before explain came on"
fi
lh_case_end a_section_below_the_maximum_before_explain_is_not_explained

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
