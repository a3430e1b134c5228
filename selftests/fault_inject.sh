#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC3043 # optional lh_load_or_bail args; A && B || C skips; local: dash, busybox ash, bash
#
# fault_inject.sh - a failed allocation fails an enable or a load cleanly
#
# Proves (Documentation/stress.rst, "Memory pressure"), on kernels with
# failslab and fail-nth (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS):
# for N = 1, 2, ... the N-th slab allocation of a write that enables
# wakeup, missed_timer_offsets or the counters fails, until the write
# passes fewer allocations than N. Each failed write fails with ENOMEM and
# leaves the switch off, and the module stays usable: the same write
# without a fault succeeds and records samples, and it unloads. While
# counting, a new event set whose N-th allocation fails either goes
# through or fails with ENOMEM leaving the old set counting. Then
# LH_FAULT_LOADS (default 30) loads run with the module's own allocations
# failing at random (1 to 60 % of every 1st to 76th; needs the failslab
# stack filter): each
# either fails with ENOMEM and leaves no module and no debugfs directory,
# or loads with the whole tree. Where interrupts are not threaded by
# PREEMPT_RT, the irq type's load-time test of threadirqs (a line of the
# module's own, set up in a kworker of the loading CPU) meets failing
# allocations: failing every time it is tried, irq is unavailable with a
# reason that names the error (never "interrupts are not threaded");
# failing once, the module tries again and irq's status line is the one of a
# load without faults. The kernel log stays clean. Elsewhere it skips.
#
# requires: failslab module-file

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

W=$LH_BINDIR/lh_write
MAX_ENABLE=60		# more than any enable passes
LOADS=${LH_FAULT_LOADS:-30}	# loads with random allocation failures

lh_setup
FS=$LH_DEBUGFS/failslab
lh_plan 5

# failslab as it was, put back on exit
FS_ATTRS="ignore-gfp-wait verbose probability interval times space task-filter require-start require-end"
for a in $FS_ATTRS; do
	[ -e "$FS/$a" ] && echo "$a $(cat "$FS/$a")"
done >"$LH_TMP/failslab.saved"
# shellcheck disable=SC2016 # expanded when the trap runs
trap 'while read -r a v; do echo "$v" >"$FS/$a"; done <"$LH_TMP/failslab.saved"; lh_cleanup' EXIT

# Fail GFP_KERNEL allocations too, and quietly: the stack dumps of the
# default verbosity are not what the dmesg check is about.
echo N >"$FS/ignore-gfp-wait"
echo 0 >"$FS/verbose"

# enable_under_faults FILE - the fail-nth loop over one enabling write
enable_under_faults()
{
	ef_file=$1
	ef_enomem=0
	ef_absorbed=0
	ef_n=1
	while [ "$ef_n" -le $MAX_ENABLE ]; do
		lh_load_or_bail
		[ "$ef_file" = counters/enable ] &&
			lh_expect_write_ok "$LH_DIR/counters/events" cpu-clock
		ef_out=$("$W" -F $ef_n "$LH_DIR/$ef_file" 1)
		case $ef_out in
		"OK 1 fault=unused")
			break ;;
		"OK 1 fault=injected")
			ef_absorbed=$((ef_absorbed + 1))
			lh_expect_content "$LH_DIR/$ef_file" 1 ;;
		"ENOMEM fault=injected")
			ef_enomem=$((ef_enomem + 1))
			lh_expect_content "$LH_DIR/$ef_file" 0
			lh_expect_write_ok "$LH_DIR/$ef_file" 1 ;;
		*)
			lh_err "$ef_file, allocation $ef_n failing: '$ef_out', expected ENOMEM" ;;
		esac
		lh_activity
		if [ "$ef_file" != counters/enable ]; then
			[ "$(hl_samples_sum)" -gt 0 ] ||
				lh_err "$ef_file, allocation $ef_n failed: no sample recorded after enabling again"
		fi
		lh_unload || lh_bail "$ef_file, allocation $ef_n failed: the module does not unload"
		ef_n=$((ef_n + 1))
	done
	[ "$ef_n" -le $MAX_ENABLE ] || lh_err "$ef_file: still failing at allocation $MAX_ENABLE"
	[ "$ef_enomem" -gt 0 ] || lh_err "$ef_file: no allocation failure reached the module"
	lh_diag "$ef_file: $((ef_n - 1)) allocations failed in turn: $ef_enomem ENOMEM, $ef_absorbed absorbed"
	lh_unload_or_bail
}

lh_case_begin
enable_under_faults enable/wakeup
enable_under_faults enable/missed_timer_offsets
enable_under_faults counters/enable
lh_case_end enabling_fails_with_enomem_when_an_allocation_fails

# A new event set while counting: the old events are released and the new
# ones hooked in; if that fails, the write fails and the old set counts on.
lh_case_begin
lh_load_or_bail
lh_expect_write_ok "$LH_DIR/counters/events" cpu-clock
lh_expect_write_ok "$LH_DIR/counters/enable" 1
es_enomem=0
es_n=1
while [ "$es_n" -le $MAX_ENABLE ]; do
	es_out=$("$W" -F $es_n "$LH_DIR/counters/events" cpu-clock,page-faults)
	case $es_out in
	"OK "*" fault=unused")
		break ;;
	"OK "*" fault=injected")
		;;
	"ENOMEM fault=injected")
		es_enomem=$((es_enomem + 1))
		lh_expect_content "$LH_DIR/counters/events" cpu-clock
		lh_expect_content "$LH_DIR/counters/enable" 1
		grep -q "^cpu-clock .* CPU0=active" "$LH_DIR/counters/status" ||
			lh_err "events write failing at allocation $es_n: cpu-clock no longer counts: $(sed -n 2p "$LH_DIR/counters/status")" ;;
	*)
		lh_err "events write, allocation $es_n failing: '$es_out', expected OK or ENOMEM" ;;
	esac
	lh_expect_write_ok "$LH_DIR/counters/events" cpu-clock
	es_n=$((es_n + 1))
done
[ "$es_n" -le $MAX_ENABLE ] || lh_err "counters/events: still failing at allocation $MAX_ENABLE"
[ "$es_enomem" -gt 0 ] || lh_err "counters/events: no allocation failure reached the module"
lh_diag "counters/events: $((es_n - 1)) allocations failed in turn: $es_enomem ENOMEM"
lh_unload_or_bail
lh_case_end a_failed_event_set_change_keeps_the_old_set_counting

# ------------------------------------------------ irq's test at load
# The module asks at load whether threadirqs threads every handler, by
# setting up a line of its own in a kworker of the loading CPU
# (lh_irq_forced_threads(), up to 3 tries). Failures are confined to that
# kworker: the loader runs on CPU 1, every kworker of CPU 1's pool may fail
# (make-it-fail, task-filter), only allocations with module code on the
# stack (the stack filter), and only the first TIMES (the test's first
# allocation, its descriptor, fails cleanly).

# fi_irq_load TIMES - load the module from CPU 1 with the first TIMES
# allocations of module code in CPU 1's kworkers failing; FI_LEFT gets how
# many of them were not used
fi_irq_load()
{
	local kw k
	kw=$(grep -lE '^kworker/1:[0-9]+([-+]|$)' /proc/[0-9]*/comm 2>/dev/null)
	echo "0x$etext" >"$FS/require-start"
	echo 0xffffffffffffffff >"$FS/require-end"
	echo Y >"$FS/task-filter"
	echo 1 >"$FS/interval"
	echo 0 >"$FS/space"
	echo "$1" >"$FS/times"
	for k in $kw; do echo 1 >"${k%/comm}/make-it-fail"; done 2>/dev/null
	echo 100 >"$FS/probability"
	taskset -c 1 insmod "$LH_MODULE" || lh_err "load with $1 failing allocations in CPU 1's kworkers failed"
	echo 0 >"$FS/probability"
	for k in $kw; do echo 0 >"${k%/comm}/make-it-fail"; done 2>/dev/null
	lh_value "$FS/times"
	FI_LEFT=$LH_VALUE
	echo -1 >"$FS/times"
	LH_LOADED_BY_US=1
}

lh_case_begin
etext=$(awk '$3 == "_etext" { print $1 }' /proc/kallsyms)
if grep -q PREEMPT_RT /proc/version; then
	lh_skip irq_test_failing_at_load_names_its_error \
		"PREEMPT_RT threads every handler: irq tests nothing at load"
elif [ ! -e "$FS/require-start" ]; then
	lh_skip irq_test_failing_at_load_names_its_error \
		"no failslab stack filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)"
elif [ -z "$etext" ] || [ "$etext" = 0000000000000000 ]; then
	lh_skip irq_test_failing_at_load_names_its_error \
		"/proc/kallsyms does not show _etext"
elif ! command -v taskset >/dev/null 2>&1; then
	lh_skip irq_test_failing_at_load_names_its_error "taskset is not here"
else
	lh_load_or_bail
	want=$(lh_status_line irq)
	lh_unload_or_bail
	fi_irq_load 3
	got=$(lh_status_line irq)
	lh_diag "3 failing: $got"
	[ "$FI_LEFT" = 0 ] ||
		lh_err "3 failing allocations in CPU 1's kworkers: $FI_LEFT not used (the test at load gave up early, or ran elsewhere)"
	case $got in
	*" reason=cannot tell whether interrupts are threaded (error -12 at load"*) ;;
	*) lh_err "irq's test at load failed 3 times, but status says: $got" ;;
	esac
	lh_expect_write_errno "$LH_DIR/enable/irq" 1 ENODEV
	lh_unload_or_bail
	fi_irq_load 1
	got=$(lh_status_line irq)
	[ "$FI_LEFT" = 0 ] ||
		lh_err "1 failing allocation in CPU 1's kworkers: not used (the test at load ran elsewhere)"
	[ "$got" = "$want" ] ||
		lh_err "irq's test at load failed once: status says '$got', without faults '$want'"
	lh_unload_or_bail
	lh_case_end irq_test_failing_at_load_names_its_error
fi

# ---------------------------------------------------------------- loading
# The loader's own allocations come first and the kernel warns when they
# fail, which is not ours to test: failures are confined to allocations
# with module code on the stack (the stack filter: from the end of the
# kernel's text up) of the loading task (task-filter, make-it-fail), at a
# probability that changes from load to load so that later allocations of
# the module's init are reached too.

lh_case_begin
etext=$(awk '$3 == "_etext" { print $1 }' /proc/kallsyms)
if [ ! -e "$FS/require-start" ]; then
	lh_skip loading_fails_cleanly_when_an_allocation_fails \
		"no failslab stack filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)"
elif [ -z "$etext" ] || [ "$etext" = 0000000000000000 ]; then
	lh_skip loading_fails_cleanly_when_an_allocation_fails \
		"/proc/kallsyms does not show _etext"
else
	lh_load_or_bail
	want=$(find "$LH_DIR" | wc -l)
	lh_unload_or_bail
	echo "0x$etext" >"$FS/require-start"
	echo 0xffffffffffffffff >"$FS/require-end"
	echo Y >"$FS/task-filter"
	echo -1 >"$FS/times"
	echo 1 >"$FS/interval"
	echo 0 >"$FS/space"
	failed=0
	loaded=0
	i=1
	while [ "$i" -le $LOADS ]; do
		# every allocation, or only every 26th, 51st, 76th may fail:
		# sparse enough that some loads get through whole
		echo $((1 + (i % 4) * 25)) >"$FS/interval"
		echo $(((i * 7) % 60 + 1)) >"$FS/probability"
		out=$(sh -c 'echo 1 >/proc/self/make-it-fail && exec "$0" -M "$1" ""' \
			"$W" "$LH_MODULE" 2>&1)
		echo 0 >"$FS/probability"
		case $out in
		"OK 0")
			loaded=$((loaded + 1))
			have=$(find "$LH_DIR" | wc -l)
			[ "$have" = "$want" ] ||
				lh_err "load $i: loaded with $have of the $want debugfs entries"
			LH_LOADED_BY_US=1
			lh_unload || lh_bail "load $i: the module does not unload" ;;
		ENOMEM)
			failed=$((failed + 1))
			! lh_loaded || lh_err "load $i: failed, but the module is there"
			[ ! -e "$LH_DIR" ] || lh_err "load $i: failed, but $LH_DIR is left" ;;
		*)
			lh_err "load $i under failing allocations: '$out', expected OK 0 or ENOMEM" ;;
		esac
		i=$((i + 1))
	done
	lh_diag "$LOADS loads with module allocations failing at 1-60 %, every 1st to 76th: $failed failed with ENOMEM, $loaded loaded whole"
	[ "$failed" -gt 0 ] || lh_err "no load failed: the injection did not reach the module"
	lh_case_end loading_fails_cleanly_when_an_allocation_fails
fi

lh_case_dmesg_clean
lh_finished
