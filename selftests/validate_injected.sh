#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086,SC2046 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# validate_injected.sh - known injected latencies come out at their length,
# to within 5 % + 20 us
#
# Proves (Documentation/validation.rst, "injected latencies"): lh_load_test
# holds interrupts off on CPU 1 for N us (N = 100, 500, 2000, 5000, 3 times
# each, 3 ms apart): irqsoff/CPU1 then holds at least 3 samples in
# [N, N + 5 % + 20 us]. An injected section stretched beyond that leaves
# fewer than 3 there; samples above it are the kernel's own irqs-off
# sections (a lockdep kernel has some of several hundred us) and are only
# reported. The sections spin on local_clock(), so
# only the module's and the probes' own time can add to them; that holds in
# instruction time (-icount shift=0,sleep=off, as scripts/validate.sh runs
# it), where no host stall stretches a section. Under plain emulation only
# the lower bound holds (critical_sections.sh checks that one), so this test
# skips itself unless LH_VM_ICOUNT=1 says the guest runs in instruction time.
# Needs the preemptirq tracepoints (6.12-preempt, 7.3-rt-debug).
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: cpu1 icount preemptirq lh_load_test type:irqsoff

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/inject_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

COUNT=3
SIZES="100 500 2000 5000"

lh_setup
lh_load_or_bail
lt_load cpu=1 mode=irq count=$COUNT gap_us=3000
lh_plan 5

for n in $SIZES; do
	lh_case_begin
	hi=$((n + n / 20 + 20))
	lh_reset irqsoff
	echo $n >"$LT_PARAMS/delay_us" || lh_err "cannot set delay_us"
	lh_enable preemptirqsoff
	lt_trigger || lh_err "lh_load_test trigger failed"
	lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
	set -- $(awk -v n=$n -v hi=$hi '
		/^#There are .* greater or equal than / { above += $3 }
		NF == 2 && $1 ~ /^ *[0-9]+$/ && $2 > 0 && $1 + 0 >= n {
			if ($1 + 0 <= hi) { inside += $2; if ($1 + 0 > max) max = $1 + 0 }
			else above += $2 }
		END { print inside + 0, above + 0, max + 0 }' "$LH_DIR/irqsoff/CPU1")
	inside=$1 above=$2 max=$3
	r=PASS
	[ "$inside" -ge $COUNT ] ||
		{ r=FAIL; lh_err "N = $n us: $inside samples in [$n, $hi] us, expected $COUNT ($above above)"; }
	[ "$above" = 0 ] || [ $r = FAIL ] ||
		lh_diag "N = $n us: $above samples above $hi us, sections of the kernel's own: the $COUNT injected ones are inside"
	vl_table injected "N = $n us in [N, N + 5 % + 20 us]" "$inside in [$n, $hi] us (largest $max), $above above" $r
	lh_case_end "injected_${n}_us_within_5_percent_plus_20_us"
done

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
