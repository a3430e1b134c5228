#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015 # lh_load_or_bail takes optional parameters; A && B || C reports
#
# clock_fallback.sh - the TSC clock of the probes falls back when the kernel
# marks the TSC unstable, and no window read on two clocks is filed
#
# Proves (Documentation/latency_hist.rst, "Clocks"), where status says
# clock=tsc (an x86 kernel that vouches for its TSC: constant_tsc and
# nonstop_tsc, or tsc=reliable on the command line) and the preemptirq
# tracepoints exist, on a kernel without PREEMPT_RT:
#  - lh_load_test holds preemption off on CPU 1 for N us and, halfway
#    through, tells the kernel the TSC is unstable (mark_tsc_unstable()):
#    that section, open across the fall back, is not filed in preemptoff/
#    (its maximum stays below N: the fall back makes real sections of its
#    own, the clocksource switch's stop_machine(), 17 ms seen under
#    emulation, so N is 60 ms), status then says clock=local_clock
#    (irqsoff) and clock=mono_fast (wakeup) with
#    clock_why=tsc_marked_unstable_since_load, and clock_drops counts at
#    least that section;
#  - the next section of N us, read on the kernel's clocks, is filed with
#    its length (the maximum is >= N us).
# Run last: the boot's TSC stays unstable afterwards, so it runs only where
# LH_DISPOSABLE_BOOT=1 says the machine is rebooted after the tests (the
# VMs of scripts/run-tests.sh); on a rig it skips, saying so, rather than
# leave its clocksource off the TSC until the next reboot. Elsewhere it
# skips, saying why.
#
# requires: disposable-boot cpu1 preemptirq not-rt lh_load_test type:irqsoff

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

N=60000		# us: a section, far above what emulation adds

lh_setup
lh_load_or_bail
lh_status_get irqsoff clock
clock=$LH_FIELD
lh_status_get irqsoff clock_why
why=$LH_FIELD
if [ "$clock" != tsc ]; then
	lh_unload_or_bail
	lh_skip_all "the probes read clock=$clock here ($why), not the TSC: nothing to fall back from"
fi
lt_load cpu=1 mode=preempt delay_us=$N count=1
lh_plan 3

lh_case_begin
drops0=$(lh_status_field irqsoff clock_drops)
lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 1
lh_expect_write_ok "$LT_PARAMS/mark_tsc_unstable" 1
lt_trigger || lh_err "lh_load_test trigger failed"
lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
max=$(hl_max preemptoff 1)
drops=$(lh_status_field irqsoff clock_drops)
lh_diag "preemptoff/CPU1: max $max us; clock_drops $drops0 -> $drops"
[ "$max" = "<undef>" ] || [ "$max" -lt $N ] ||
	lh_err "the section open across the fall back was filed (max $max us >= $N us)"
[ "$drops" -gt "$drops0" ] ||
	lh_err "clock_drops did not grow: $drops0 -> $drops"
for pair in irqsoff:local_clock wakeup:mono_fast; do
	h=${pair%%:*}
	want=${pair#*:}
	got=$(lh_status_field "$h" clock)
	[ "$got" = "$want" ] || lh_err "$h: clock=$got after the fall back, expected $want"
done
got=$(lh_status_field irqsoff clock_why)
[ "$got" = tsc_marked_unstable_since_load ] ||
	lh_err "clock_why=$got after the fall back"
lh_case_end section_open_across_the_fall_back_is_dropped

lh_case_begin
lh_reset preemptoff
lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 1
lt_trigger || lh_err "lh_load_test trigger failed"
lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
max=$(hl_max preemptoff 1)
lh_diag "after the fall back: preemptoff/CPU1 max $max us"
[ "$max" != "<undef>" ] && [ "$max" -ge $N ] ||
	lh_err "a $N us section on the kernel's clock was not filed with its length (max $max us)"
lh_case_end sections_after_the_fall_back_are_filed

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
