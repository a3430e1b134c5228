#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086 # lh_load_or_bail takes optional parameters; word lists
#
# suspend_sections.sh - a suspend-to-idle files no critical section as long
# as the suspend
#
# Proves (Documentation/latency_hist.rst, "Suspend"): with every available
# type on, the guest suspends to idle for W = 5 s (echo s2idle >
# /sys/power/mem_sleep; rtcwake -m mem -s W), and resumes:
#  1. the suspend happened (suspend_stats/success went up, rtcwake took at
#     least W - 1 s);
#  2. irqsoff, preemptoff and preemptirqsoff hold no sample of W / 2 or more
#     on any CPU (issue 33 item 2: enter_s2idle_proper() emits no cpu_idle
#     event, so the irqs-off section open there closed at resume as one
#     sample of about W, on every CPU). Only where the preemptirq
#     tracepoints exist and the kernel can suspend (CONFIG_SUSPEND);
#  3. the guest's dmesg is clean.
# Suspending changes the boot (timekeeping, devices): runs only with
# LH_DISPOSABLE_BOOT=1 (a VM).
#
# requires: disposable-boot s2idle rtcwake rtc-wakealarm

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

W=5	# s asleep
SECTIONS="irqsoff preemptoff preemptirqsoff"

lh_setup
lh_plan 3
lh_load_or_bail

lh_case_begin
have=
for t in $SECTIONS wakeup missed_timer_offsets; do
	lh_available $t && have="$have $t"
done
lh_enable_available
lh_reset $have
n0=$(cat /sys/power/suspend_stats/success)
echo s2idle >/sys/power/mem_sleep
t0=$(date +%s)
rtcwake -m mem -s $W >"$LH_TMP/rtcwake" 2>&1 || lh_err "rtcwake -m mem -s $W failed: $(cat "$LH_TMP/rtcwake")"
t1=$(date +%s)
n1=$(cat /sys/power/suspend_stats/success)
lh_diag "suspended to idle: suspend_stats/success $n0 -> $n1, rtcwake took $((t1 - t0)) s"
[ "$n1" -gt "$n0" ] || lh_err "suspend_stats/success did not go up: no suspend"
[ $((t1 - t0)) -ge $((W - 1)) ] || lh_err "rtcwake returned after $((t1 - t0)) s, expected $W"
lh_case_end the_guest_suspended_to_idle

lh_case_begin
lh_disable_all
hl_show_totals $have
sections=
for t in $SECTIONS; do
	case " $have " in *" $t "*) sections="$sections $t" ;; esac
done
if [ -z "$sections" ]; then
	lh_skip no_section_as_long_as_the_suspend "no preemptirq tracepoints in this kernel"
else
	for t in $sections; do
		for c in $LH_CPUS; do
			m=$(hl_max $t "$c")
			[ "$m" = "<undef>" ] || [ "$m" -lt $((W * 500000)) ] ||
				lh_err "$t/CPU$c maximum $m us: the ${W} s suspend was filed as a section"
		done
	done
	lh_case_end no_section_as_long_as_the_suspend
fi

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
