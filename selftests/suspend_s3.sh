#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086 # lh_load_or_bail takes optional parameters; word lists
#
# suspend_s3.sh - a suspend to RAM files no window as long as the suspend,
# nor a negative one, and explain still covers the windows after it
#
# Proves (Documentation/latency_hist.rst, "Clocks"): with every available
# type and explain on, lh_probe_test wakes its task A on CPU 0 (waking_a;
# the boot CPU stays online through S3), the guest suspends to RAM for
# W s (deep in /sys/power/mem_sleep; lh_suspend), resumes, and
# A is switched in (switch_in_a): A's wakeup window is open across the
# suspend.
#  1. the suspend happened (suspend_stats/success went up, the machine was
#     away at least W - 1 s);
#  2. no histogram holds a sample of W / 2 or more, on any CPU, nor one
#     read on the probes' clock (not a timer's offset) a negative one; on
#     the cycle counter (status clock=tsc) clock_drops counted A's
#     window. Issue 33 item 1: stamps are the raw count, which a resume may
#     restart near 0, or which counts the whole suspend where it runs
#     through it, as under qemu; before a resume started a generation of
#     the clock, A's wakeup was filed as the suspend, about W s;
#  3. A woken and switched in again after the resume: explain-CPU0 of
#     wakeup/ (or of sharedprio/) breaks that window down with less than all of it "uncovered" (where
#     the count restarts, the replay stopped at the first event from before
#     the suspend, and every window was uncovered until the ring wrapped);
#  4. the guest's dmesg is clean.
# Suspending changes the boot (timekeeping, devices): runs only with
# LH_DISPOSABLE_BOOT=1 (a VM).
#
# requires: disposable-boot s3 suspend-wake lh_probe_test type:wakeup

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

# s asleep: long enough for a TCG guest on a busy host to be in S3 when
# the host wakes it (vm-run.sh presses again every 5 s until it woke)
W=10

lh_setup
lh_plan 4
lh_load_or_bail
pt_load 0 || lh_bail "lh_probe_test: $LH_REQ_WHY"

lh_case_begin
have=
for h in $LH_HISTS; do
	lh_available "$h" && have="$have $h"
done
lh_filter wakeup "$PT_A"
lh_enable_available
lh_expect_write_ok "$LH_DIR/explain/enable" 1
lh_reset $have
lh_status_get wakeup clock
clock=$LH_FIELD
drops0=$(lh_status_field wakeup clock_drops)
pt_run waking_a
lh_suspend deep $W
pt_run switch_in_a
dmesg | grep -E 'PM: (suspend (entry|exit)|suspend-to-idle|Syncing|Preparing|Entering|Waking|resume|Finishing)|ACPI: PM: (Low-level|Waking|Restoring|Preparing)' |
	while IFS= read -r line; do lh_diag "$line"; done
drops=$(lh_status_field wakeup clock_drops)
lh_diag "clock=$clock, clock_drops $drops0 -> $drops"
[ "$LH_SUSPEND_S" -ge $((W - 1)) ] || lh_err "the machine was away $LH_SUSPEND_S s, expected $W"
lh_case_end the_guest_suspended_to_ram

lh_case_begin
for h in $have; do
	for c in $LH_CPUS; do
		f=$LH_DIR/$h/CPU$c
		m=$(hl_max "$h" "$c")
		[ "$m" = "<undef>" ] || [ "$m" -lt $((W * 500000)) ] ||
			lh_err "$h/CPU$c maximum $m us: a window open across the ${W} s suspend was filed"
		# a timer's offset is the timer base's, and may be negative
		case $(lh_status_field "$h" clock) in timer_base*) continue ;; esac
		low=$(awk '/^#There are .* lower than / { print $3; exit }' "$f")
		[ "$low" = 0 ] || lh_err "$h/CPU$c holds $low negative sample(s)"
	done
done
if [ "$clock" = tsc ]; then
	[ "$drops" -gt "$drops0" ] ||
		lh_err "clock_drops did not grow ($drops0 -> $drops): A's window across the suspend was not dropped"
else
	lh_diag "clock=$clock: a window across the suspend is read on the kernel's clock, not dropped"
fi
lh_case_end no_window_across_the_suspend_is_filed

lh_case_begin
lh_reset wakeup wakeup/sharedprio
pt_run waking_a
pt_run switch_in_a
# in sharedprio/ if a task of A's priority ran on CPU 0 meanwhile (an IRQ
# thread on PREEMPT_RT)
f=$LH_DIR/wakeup/explain-CPU0
[ "$(head -n 1 "$f")" != "(none)" ] || f=$LH_DIR/wakeup/sharedprio/explain-CPU0
lh_diag "$(lh_name "$f"):"
while IFS= read -r line; do lh_diag "  $line"; done <"$f"
win=$(awk '$1 == "window" { print $2; exit }' "$f")
unc=$(awk '$1 == "uncovered" { print $2; exit }' "$f")
if [ -z "$win" ]; then
	lh_err "no record of A's wakeup after the resume in wakeup/ or wakeup/sharedprio/ explain-CPU0"
elif [ "${unc:-0}" -ge "$win" ]; then
	lh_err "$(lh_name "$f"): $unc ns of the $win ns window uncovered"
fi
lh_case_end explain_covers_a_window_after_the_resume

lh_disable_all
lh_expect_write_ok "$LH_DIR/explain/enable" 0
lh_filter wakeup 0
pt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
