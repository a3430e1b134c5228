#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015 # lh_load_or_bail takes optional parameters; A && B || C reports
#
# clock_fallback.sh - the TSC clock of the probes follows a TSC rate the
# kernel refines after load, falls back when the kernel marks the TSC
# unstable, and files no window read on two clocks or two scales
#
# Proves (Documentation/latency_hist.rst, "Clocks"), where status says
# clock=tsc (an x86 kernel that vouches for its TSC: constant_tsc and
# nonstop_tsc, or tsc=reliable on the command line) and the preemptirq
# tracepoints exist, on a kernel without PREEMPT_RT:
#  - lh_load_test holds preemption off on CPU 1 for N us and, halfway
#    through, sets the kernel's tsc_khz to 4 times its rate (refine_tsc_khz:
#    what the kernel's refinement a second after boot does, by up to 1 %,
#    to a module loaded before it): that section, open across the change,
#    is not filed (max below N), clock_drops counts it, and status still
#    says clock=tsc;
#  - the next section of N us is read at the new rate: between N/4 and N/2
#    us (before the rescale code it read N);
#  - tsc_khz set back the same way, a section of N us reads N again (at
#    least N, below 3N/2: a rescale that overshoots reads 4N, TSC cycles
#    taken for ns 2-3N);
#  - the same section, halfway through which lh_load_test tells the kernel
#    the TSC is unstable (mark_tsc_unstable()):
#    that section, open across the fall back, is not filed in preemptoff/
#    (its maximum stays below N: the fall back makes real sections of its
#    own, the clocksource switch's stop_machine(), 17 ms seen under
#    emulation, so N is 60 ms), status then says clock=local_clock
#    (irqsoff) and clock=mono_fast (wakeup) with
#    clock_why=tsc_marked_unstable_since_load, and clock_drops counts at
#    least that section;
#  - the next section of N us, read on the kernel's clocks, is filed with
#    its length (the maximum is >= N us and below 3N/2: a fallback clock
#    read in TSC cycles, or scaled at the old rate, reads more);
#  - on local_clock(), CPU 1 offline for 2 s and back files no section of a
#    second (the kernel resynchronizes a CPU's local_clock() only at its
#    first tick back, which moves it on by the time offline).
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
lh_plan 7

# cf_section [PARAM VALUE] - one section of N us on CPU 1 (halfway through
# which lh_load_test does what PARAM=VALUE asks) from a reset preemptoff/;
# its maximum in CF_MAX, clock_drops before and after in CF_DROPS0, CF_DROPS
cf_section()
{
	lh_reset preemptoff
	CF_DROPS0=$(lh_status_field irqsoff clock_drops)
	[ $# = 0 ] || lh_expect_write_ok "$LT_PARAMS/$1" "$2"
	lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 1
	lt_trigger || lh_err "lh_load_test trigger failed"
	lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
	CF_MAX=$(hl_max preemptoff 1)
	CF_DROPS=$(lh_status_field irqsoff clock_drops)
	lh_diag "${1:+$1=$2: }preemptoff/CPU1 max $CF_MAX us; clock_drops $CF_DROPS0 -> $CF_DROPS"
}

# cf_dropped WHAT - lh_err unless cf_section's section, open across WHAT,
# was dropped and counted
cf_dropped()
{
	[ "$CF_MAX" = "<undef>" ] || [ "$CF_MAX" -lt $N ] ||
		lh_err "the section open across $1 was filed (max $CF_MAX us >= $N us)"
	[ "$CF_DROPS" -gt "$CF_DROPS0" ] ||
		lh_err "clock_drops did not grow: $CF_DROPS0 -> $CF_DROPS"
}

khz=$(cat "$LT_PARAMS/tsc_khz")
lh_diag "tsc_khz $khz"

lh_case_begin
cf_section refine_tsc_khz $((khz * 4))
cf_dropped "the rescale"
got=$(lh_status_field irqsoff clock)
[ "$got" = tsc ] || lh_err "clock=$got after a rescale, expected tsc"
lh_case_end section_open_across_a_rescale_is_dropped

lh_case_begin
cf_section
[ "$CF_MAX" != "<undef>" ] && [ "$CF_MAX" -ge $((N / 4)) ] && [ "$CF_MAX" -lt $((N / 2)) ] ||
	lh_err "a $N us section at 4 times the rate read $CF_MAX us, not $((N / 4)) to $((N / 2))"
lh_case_end sections_after_a_rescale_are_read_at_the_new_rate

lh_case_begin
cf_section refine_tsc_khz "$khz"
cf_dropped "the rescale back"
cf_section
[ "$CF_MAX" != "<undef>" ] && [ "$CF_MAX" -ge $N ] && [ "$CF_MAX" -lt $((N * 3 / 2)) ] ||
	lh_err "a $N us section back at the TSC's rate read $CF_MAX us, not $N to $((N * 3 / 2))"
lh_case_end sections_after_the_rate_is_back_read_their_length

lh_case_begin
cf_section mark_tsc_unstable 1
cf_dropped "the fall back"
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
cf_section
[ "$CF_MAX" != "<undef>" ] && [ "$CF_MAX" -ge $N ] && [ "$CF_MAX" -lt $((N * 3 / 2)) ] ||
	lh_err "a $N us section on the kernel's clock was filed as $CF_MAX us, not $N to $((N * 3 / 2))"
lh_case_end sections_after_the_fall_back_are_filed

lt_unload
hl_offline_sections offline_time_on_local_clock_is_not_a_section
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
