#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_blocked.sh - a wakee that cannot preempt the task running on its
# CPU waits by design: no sample of that wait, in wakeup/ or sharedprio/
#
# Proves (Documentation/latency_hist.rst, "What a sample means"), without a
# pid filter, as a user runs it (RT throttling, and on 6.12+ the fair
# server of CPU 1, are off meanwhile, so the hogs hold their CPU for the
# whole time):
#  1. a SCHED_FIFO 10 sleeper on CPU 1, due 3.05 s after its start, and a
#     SCHED_FIFO 80 thread (rt_hog) that starts spinning 4000 ms on CPU 1
#     just after that start, before enable/wakeup: the sleeper wakes after
#     enable and waits behind the spinner for hundreds of ms (its own clock
#     says so). latency_hist must not file it: the bug this test was written
#     for filed it, culprit the spinner, because no context switch had
#     happened on CPU 1 since enable. Skipped, saying so, if enabling took
#     so long that the sleeper woke before it;
#  2. the same wait made by priority inheritance: a SCHED_FIFO 10 owner of
#     a PI mutex spins 300 ms on CPU 1 (started after enable), and a
#     SCHED_FIFO 80 waiter on CPU 0 blocks on the mutex, which boosts the
#     owner above the sleeper (SCHED_FIFO 50, 50 ms period, CPU 1) without a
#     context switch; the sleeper waits until the unlock deboosts the owner;
#  3. the invariants of every wakeup test (sleeper_lib.sh).
# In both runs the histograms must also hold the sleeper's other wakeups,
# so the test can tell "dropped" from "never recorded". A run in which the
# sleeper did not see a long wait is skipped, and says why.
#
# requires: rt_sleeper cpu1 rt_hog

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

BOUND=100000	# us: far above emulation noise, far below the waits made
RT_RUNTIME=/proc/sys/kernel/sched_rt_runtime_us

sl_setup
[ -w "$RT_RUNTIME" ] || lh_skip_all "cannot turn RT throttling off ($RT_RUNTIME)"
rt_runtime=$(cat "$RT_RUNTIME")
# 6.12+ also runs fair tasks for 50 ms a second through a deadline server,
# which would switch CPU 1 away from the spinner and back: off on CPU 1 too.
FAIR1=$LH_DEBUGFS/sched/fair_server/cpu1/runtime
fair1=
[ -w "$FAIR1" ] && fair1=$(cat "$FAIR1")

# sched_restore - put RT throttling and CPU 1's fair server back as they were; the fair server first:
# 6.12 refuses (EBUSY) RT throttling back on while a fair server has no runtime
sched_restore()
{
	if [ -n "$fair1" ] && [ "$(cat "$FAIR1")" != "$fair1" ]; then
		echo "$fair1" >"$FAIR1" || return 1
	fi
	if [ "$(cat "$RT_RUNTIME")" != "$rt_runtime" ]; then
		echo "$rt_runtime" >"$RT_RUNTIME" || return 1
	fi
	return 0
}
trap 'sched_restore || lh_diag "could not restore $RT_RUNTIME / $FAIR1"; lh_cleanup' EXIT
echo -1 >"$RT_RUNTIME"
if [ -n "$fair1" ]; then
	echo 0 >"$FAIR1" || lh_skip_all "cannot turn the fair server of CPU 1 off ($FAIR1)"
fi
lh_plan 5
lh_load_or_bail
# The shell stays off CPU 1, which the hogs hold for hundreds of ms.
taskset -p -c 0 $$ >/dev/null 2>&1 || lh_diag "cannot pin the test shell to CPU 0"

# uptime_cs - the time since boot in hundredths of a second
uptime_cs()
{
	awk '{ split($1, t, "."); print t[1] * 100 + t[2] }' /proc/uptime
}

# hog_start MODE ARGS... - start rt_hog MODE -w ARGS and wait until its
# threads wait for go
hog_start()
{
	hs_mode=$1
	shift
	"$LH_BINDIR/rt_hog" "$hs_mode" -w "$@" >"$LH_TMP/hog" 2>"$LH_TMP/hog.err" &
	hog=$!
	until hog_said ready; do
		kill -0 $hog 2>/dev/null || lh_bail "rt_hog $*: $(cat "$LH_TMP/hog.err")"
		lh_sleep_s 0.01
	done
}

# hog_said WORD - true once a line of rt_hog's output starts with WORD
# (shell builtins only)
hog_said()
{
	while IFS= read -r hs_line; do
		case $hs_line in
		"$1"*) return 0 ;;
		esac
	done <"$LH_TMP/hog"
	return 1
}

# asleep_fifo TID - true if thread TID of the sleeper program sleeps as
# SCHED_FIFO (state S, policy 1 in /proc/<pid>/task/<tid>/stat; builtins only)
asleep_fifo()
{
	IFS= read -r af_stat <"/proc/$SL_PID/task/$1/stat" 2>/dev/null || return 1
	# shellcheck disable=SC2086 # the fields after "(comm) ", split on blanks
	set -- ${af_stat##*) }
	[ "$1" = S ] || return 1
	shift 38
	[ "$1" = 1 ]
}

# hog_wait - wait for rt_hog to end
hog_wait()
{
	wait $hog || lh_err "rt_hog failed: $(cat "$LH_TMP/hog.err")"
}

# blocked_check NAME - after a run: the sleeper waited long, CPU 1's
# histograms hold none of it but hold its other wakeups; NAME passes, fails,
# or (no long wait, or SKIP_WHY set) skips
blocked_check()
{
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	sl_show_summary
	hl_show_totals wakeup wakeup/sharedprio
	hl_show_maxrecs wakeup
	hl_show_maxrecs wakeup/sharedprio
	waited=$(sl_field "$tid" max_us)
	if [ "$LH_ERRS" = 0 ] && [ -n "$SKIP_WHY" ]; then
		lh_skip "$1" "$SKIP_WHY"
		return
	fi
	if [ "$LH_ERRS" = 0 ] && [ "${waited:-0}" -lt $((2 * BOUND)) ]; then
		lh_skip "$1" "the sleeper's longest wait was ${waited:-?} us: rt_hog did not hold CPU 1 against it"
		return
	fi
	for h in wakeup wakeup/sharedprio; do
		m=$(hl_max $h 1)
		[ "$m" = "<undef>" ] || [ "$m" -lt $BOUND ] ||
			lh_err "$h/CPU1 maximum $m us: the sleeper's wait of $waited us behind a more important task was filed"
	done
	[ "$(hl_total_all wakeup wakeup/sharedprio)" -gt 0 ] ||
		lh_err "no wakeup sample at all: the sleeper's free wakeups were not recorded either"
	lh_case_end "$1"
}

lh_case_begin
SKIP_WHY=
sl_start "$LH_TMP/sl" -c 1 -p 10 -i 3000000 -l 2 || lh_bail "rt_sleeper did not start"
tid=$SL_TID
lh_reset wakeup wakeup/sharedprio
hog_start spin -c 1 -p 80 -d 4000
t_go=$(uptime_cs)
sl_go
# The sleeper must be asleep (as SCHED_FIFO) before the spinner takes CPU 1,
# or it could not get there until the spin ends.
until asleep_fifo "$tid"; do
	kill -0 "$SL_PID" 2>/dev/null || break
done
kill -USR1 $hog
# Enable only once CPU 1 runs the spinner: no context switch happens there
# after enable before the sleeper wakes (the case the bug was about).
# Builtins only: an exec can take a second on a loaded emulator host.
until hog_said spinning; do
	kill -0 $hog 2>/dev/null || break
done
# the shell's own echo: an exec can take longer than a second under emulation
echo 1 >"$LH_DIR/enable/wakeup" || lh_err "cannot enable wakeup"
t_enabled=$(uptime_cs)
[ $((t_enabled - t_go)) -lt 290 ] ||
	SKIP_WHY="enabling took $((t_enabled - t_go))0 ms: the sleeper, due 3050 ms after its start, may have woken before it"
hog_wait
sl_wait
blocked_check wait_behind_a_more_important_spinner_is_not_filed

lh_case_begin
SKIP_WHY=
sl_start "$LH_TMP/sl" -c 1 -p 50 -i 50000 -l 40 || lh_bail "rt_sleeper did not start"
tid=$SL_TID
lh_reset wakeup wakeup/sharedprio
sl_go
hog_start pi -c 1 -p 10 -C 0 -P 80 -d 300
lh_enable wakeup
kill -USR1 $hog
hog_wait
sl_wait
blocked_check wait_behind_a_pi_boosted_owner_is_not_filed

lh_case_begin
sched_restore || lh_err "RT throttling or the fair server of CPU 1 not restored:" \
	"$(cat "$RT_RUNTIME") / $(cat "$FAIR1" 2>/dev/null)"
lh_case_end scheduler_settings_restored

hl_finish_checked 0
