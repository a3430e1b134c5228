#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC3043 # lh_load_or_bail takes optional parameters; local: dash, busybox ash, bash
#
# irq_thread_reuse.sh - interrupt threads that come and go while irq is on
# keep being measured: a new thread on another line that gets an exited
# thread's task_struct, and new threads after more thread lifetimes than
# the table has entries
#
# Proves (Documentation/latency_hist.rst, "irq/"), with lh_irq_test's
# renew (its handler freed, so its thread exits, and requested on the
# module's other line: a new thread, which serves one interrupt), the
# test shell and kthreadd on CPU 1, where the old thread ran last (SLUB
# hands out a CPU's last freed task_struct first):
#  1. renewals until a new thread got the old one's task_struct (at most
#     REUSE_TRIES; the count is shown, and the case skips if none did):
#     after a reset, COUNT interrupts of the new thread's line file COUNT
#     samples in its row of irq/lines, and #other stays where it was (the
#     table has room: #other counts only wakeups that found it full);
#  2. LIFETIMES renewals, more than the table's 64 entries, each keeping
#     the exited thread's task_struct from reuse (lh_irq_test's keep), so
#     that every thread has a pointer of its own; then COUNT interrupts:
#     #other never moves, and the last line's rows grow by COUNT (exited
#     threads' entries are taken by new ones);
#  3. the modules unload, and dmesg is clean.
#
# requires: cpu1 lh_irq_test type:irq

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

COUNT=10		# interrupts of a run
GAP_US=2000		# between two of them
REUSE_TRIES=${LH_REUSE_TRIES:-40}	# renewals to reach a reused task_struct
LIFETIMES=72		# renewals of case 2: more than LH_IRQ_NR_LINES (64)

lh_setup
lh_plan 4
lh_load_or_bail

# rt_other - LH_VALUE gets irq/lines' #other count
rt_other()
{
	LH_VALUE=$(awk '$1 == "#other" { print $2 }' "$LH_DIR/irq/lines")
}

# rt_samples IRQ - LH_VALUE gets the samples of every row of line IRQ in
# irq/lines (an exited thread's row stays until a reset or a new thread
# takes its entry)
rt_samples()
{
	LH_VALUE=$(awk -v irq="$1" '$1 == irq { n += $3 } END { print n + 0 }' \
		"$LH_DIR/irq/lines")
}

# rt_renew - one renewal of lh_irq_test's thread; lh_err if it failed
rt_renew()
{
	echo 1 >"$IT_PARAMS/renew" || { lh_err "lh_irq_test's renew failed"; return 1; }
}

# rt_run_checked WHAT - fire COUNT interrupts of the current line: its rows
# gain COUNT samples and #other does not move
rt_run_checked()
{
	local irq other0 samples0
	lh_value "$IT_PARAMS/irq"
	irq=$LH_VALUE
	rt_other
	other0=$LH_VALUE
	rt_samples "$irq"
	samples0=$LH_VALUE
	echo 1 >"$IT_PARAMS/trigger" || lh_err "$1: lh_irq_test's run failed"
	rt_other
	[ "$LH_VALUE" = "$other0" ] ||
		lh_err "$1: #other went from $other0 to $LH_VALUE for line $irq's $COUNT interrupts"
	rt_samples "$irq"
	[ $((LH_VALUE - samples0)) = $COUNT ] ||
		lh_err "$1: line $irq's rows gained $((LH_VALUE - samples0)) samples for $COUNT interrupts"
}

# Every write from CPU 1, where the line's thread runs; kthreadd, which
# creates the new threads, too: restored on exit.
kthreadd_mask=
if command -v taskset >/dev/null 2>&1; then
	taskset -p -c 1 $$ >/dev/null 2>&1 || lh_diag "cannot pin the test shell to CPU 1"
	kthreadd_mask=$(taskset -p -c 2 2>/dev/null | sed 's/.*: //')
	taskset -p -c 1 2 >/dev/null 2>&1 || lh_diag "cannot pin kthreadd to CPU 1"
	# shellcheck disable=SC2064 # the mask now
	trap "taskset -p -c '$kthreadd_mask' 2 >/dev/null 2>&1; lh_cleanup" EXIT
else
	lh_diag "taskset is not here: a reused task_struct is less likely"
fi

# On before the load: the first thread's wakeup there takes an entry.
lh_enable irq
it_load cpu=1 count=$COUNT gap_us=$GAP_US

lh_case_begin
tries=0
LH_VALUE=0
while [ "$LH_VALUE" = 0 ] && [ $tries -lt "$REUSE_TRIES" ]; do
	rt_renew || break
	tries=$((tries + 1))
	lh_value "$IT_PARAMS/reused"
done
lh_value "$IT_PARAMS/reused"
if [ "$LH_VALUE" = 0 ]; then
	lh_diag "no new thread got its predecessor's task_struct in $tries renewals"
	lh_skip new_thread_on_a_reused_task_struct_is_measured \
		"no task_struct reused in $tries renewals"
else
	lh_diag "renewal $tries: the new thread got its predecessor's task_struct"
	lh_reset irq
	rt_run_checked "reused task_struct"
	hl_show_lines irq
	lh_case_end new_thread_on_a_reused_task_struct_is_measured
fi

lh_case_begin
rt_other
other0=$LH_VALUE
lh_value "$IT_PARAMS/reused"
reused0=$LH_VALUE
echo 1 >"$IT_PARAMS/keep" || lh_err "lh_irq_test takes no keep"
i=0
while [ $i -lt $LIFETIMES ]; do
	rt_renew || break
	i=$((i + 1))
done
lh_value "$IT_PARAMS/reused"
lh_diag "$i renewals, $((LH_VALUE - reused0)) of them on a reused task_struct"
rt_other
[ "$LH_VALUE" = "$other0" ] ||
	lh_err "#other went from $other0 to $LH_VALUE over $i thread lifetimes"
rt_run_checked "after $i thread lifetimes"
# (the exited threads' rows stay until a reset: shown only on a failure)
[ "$LH_ERRS" = 0 ] || hl_show_lines irq
lh_case_end new_threads_are_measured_after_more_lifetimes_than_entries

lh_case_begin
it_unload
lh_unload || lh_err "cannot unload $LH_NAME"
lh_case_end modules_unload
lh_case_dmesg_clean
lh_finished
