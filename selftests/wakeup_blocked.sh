#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_blocked.sh - a wakee that cannot preempt the task running on its
# CPU waits by design: no sample of that wait, in wakeup/ or sharedprio/
#
# Proves (Documentation/latency_hist.rst, "What a sample means"), without a
# pid filter, as a user runs it:
#  1. a SCHED_FIFO 10 sleeper on CPU 1 (200 ms period) and a SCHED_FIFO 80
#     thread spinning 400 ms on CPU 1, started before enable/wakeup: the
#     sleeper's wakeup during the spin waits >= 200 ms (its own clock says
#     so); latency_hist must not file it (the bug this test was written
#     for filed 268 ms, culprit the spinner);
#  2. the same wait made by priority inheritance: a SCHED_FIFO 10 owner of
#     a PI mutex spins 300 ms on CPU 1, and a SCHED_FIFO 80 waiter on CPU 0
#     blocks on the mutex, which boosts the owner above the sleeper
#     (SCHED_FIFO 50, 50 ms period, CPU 1) without a context switch; the
#     sleeper waits until the unlock deboosts the owner;
#  3. the invariants of every wakeup test (sleeper_lib.sh).
# In both runs the histograms must also hold the sleeper's other wakeups,
# so the test can tell "dropped" from "never recorded". A run in which the
# sleeper itself did not see a long wait (the hog started late) is skipped,
# and says why.

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

BOUND=100000	# us: far above emulation noise, far below the waits made

sl_setup
[ -x "$LH_BINDIR/rt_hog" ] || lh_skip_all "rt_hog is not built (make -C selftests)"
lh_plan 4
lh_load_or_bail
# The shell stays off CPU 1, which the hogs hold for hundreds of ms.
taskset -p -c 0 $$ >/dev/null 2>&1 || lh_diag "cannot pin the test shell to CPU 0"

# blocked_run NAME SLEEPER_ARGS -- HOG_ARGS - start the sleeper, let it go,
# start rt_hog, enable wakeup (no pid filter), wait for both; then check
# that CPU 1 holds none of the sleeper's long wait
blocked_run()
{
	br_name=$1
	shift
	br_sl=
	while [ "$1" != -- ]; do
		br_sl="$br_sl $1"
		shift
	done
	shift
	lh_case_begin
	sl_start "$LH_TMP/sl" $br_sl || lh_bail "rt_sleeper did not start"
	tid=$SL_TID
	sl_reset wakeup wakeup/sharedprio
	sl_go
	sl_sleep_s 0.3
	"$LH_BINDIR/rt_hog" "$@" >"$LH_TMP/hog" 2>"$LH_TMP/hog.err" &
	hog=$!
	while ! grep -q '^tid ' "$LH_TMP/hog" 2>/dev/null && kill -0 $hog 2>/dev/null; do
		sl_sleep_s 0.01
	done
	sl_enable wakeup
	wait $hog || lh_err "rt_hog $* failed: $(cat "$LH_TMP/hog.err")"
	sl_wait
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	sl_show_summary
	sl_show_totals wakeup wakeup/sharedprio
	sl_show_maxrecs wakeup
	sl_show_maxrecs wakeup/sharedprio
	waited=$(sl_field "$tid" max_us)
	if [ "$LH_ERRS" = 0 ] && [ "${waited:-0}" -lt $((2 * BOUND)) ]; then
		lh_skip "$br_name" "the sleeper's longest wait was ${waited:-?} us: rt_hog did not hold CPU 1 against it"
		return
	fi
	for h in wakeup wakeup/sharedprio; do
		m=$(sl_hist_max $h 1)
		[ "$m" = "<undef>" ] || [ "$m" -lt $BOUND ] ||
			lh_err "$h/CPU1 maximum $m us: the sleeper's wait of $waited us behind a more important task was filed"
	done
	[ "$(sl_total_all wakeup wakeup/sharedprio)" -gt 0 ] ||
		lh_err "no wakeup sample at all: the sleeper's free wakeups were not recorded either"
	lh_case_end "$br_name"
}

blocked_run wait_behind_a_more_important_spinner_is_not_filed \
	-c 1 -p 10 -i 200000 -l 8 -- spin -c 1 -p 80 -d 400

blocked_run wait_behind_a_pi_boosted_owner_is_not_filed \
	-c 1 -p 50 -i 50000 -l 16 -- pi -c 1 -p 10 -C 0 -P 80 -d 300

lh_case_begin
sl_check_invariants 0
lh_case_end invariants_hold

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
