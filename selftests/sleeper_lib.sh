# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC3043 # variables here are used by the tests; local: dash, busybox ash, bash
#
# sleeper_lib.sh - the rt_sleeper handshake: run rt_sleeper (and helpers
# with the same handshake) so that a latency_hist pid filter can be set on
# its threads before they first sleep
#
# Sourced after lib.sh by the tests that run a sleeper. POSIX sh, same rules
# as lib.sh. Histogram readers are in hist_lib.sh; sl_go_under_sections and
# sl_go_and_wait 1 need inject_lib.sh (lh_load_test) too.
#
# The handshake (rt_sleeper.c, header comment): a program started with -w
# prints "tid <tid> ..." per thread, then "ready", and spins without ever
# blocking until SIGUSR1; only then do its threads sleep. So:
#
#   sl_start out -c 1 -p 80 -i 10000 -l 100	# rt_sleeper -w ..., wait for ready
#   lh_filter wakeup "$SL_TID"			# echo tid > wakeup/pid
#   sl_go; sl_wait				# SIGUSR1, then wait for the end
#
# sees exactly one wakeup of SL_TID per loop, and nothing else of it.

SL_PID=			# process id of the running sleeper program
SL_OUT=			# its output file
SL_TIDS=		# its thread ids, in the order it printed them
SL_TID=			# the first of them
SL_RC=			# its exit status after sl_wait
SL_LT_PID=		# the background lh_load_test run of sl_go_under_sections

# sl_cleanup - lh_cleanup hook: stop our sleeper and the lh_load_test run
# it was let go under
sl_cleanup()
{
	if [ -n "$SL_PID" ]; then
		kill -TERM "$SL_PID" 2>/dev/null
		kill -USR1 "$SL_PID" 2>/dev/null
		wait "$SL_PID" 2>/dev/null
		SL_PID=
	fi
	[ -z "$SL_LT_PID" ] || wait "$SL_LT_PID" 2>/dev/null
	SL_LT_PID=
}
# first: the sleeper stops before the modules it runs under are unloaded
LH_CLEANUP_HOOKS="sl_cleanup $LH_CLEANUP_HOOKS"

# sl_setup - lh_setup plus: rt_sleeper built, CPU 1 online
sl_setup()
{
	lh_setup
	lh_requires rt_sleeper cpu1
}

# sl_start_bin PROGRAM OUTFILE ARGS... - start PROGRAM -w ARGS in the
# background and wait for its "ready" line; SL_PID, SL_TIDS, SL_TID are set.
# Returns 1 (and says why) if it died or was not ready within 60 s.
sl_start_bin()
{
	local bin n
	bin=$1
	n=0
	SL_OUT=$2
	shift 2
	SL_TIDS=
	SL_TID=
	"$bin" -w "$@" >"$SL_OUT" 2>"$SL_OUT.err" &
	SL_PID=$!
	while ! grep -q '^ready' "$SL_OUT" 2>/dev/null; do
		if ! kill -0 "$SL_PID" 2>/dev/null || [ "$n" -ge 600 ]; then
			lh_diag "$(basename "$bin") $*: not ready: $(cat "$SL_OUT.err" 2>/dev/null)"
			sl_cleanup
			return 1
		fi
		n=$((n + 1))
		lh_sleep_s 0.1
	done
	SL_TIDS=$(awk '/^tid / { printf "%s ", $2 }' "$SL_OUT")
	SL_TIDS=${SL_TIDS% }
	SL_TID=${SL_TIDS%% *}
	[ -n "$SL_TID" ]
}

# sl_start OUTFILE ARGS... - sl_start_bin with rt_sleeper
sl_start()
{
	sl_start_bin "$LH_BINDIR/rt_sleeper" "$@"
}

# sl_tid N - print the Nth (1-based) thread id of the running sleeper
sl_tid()
{
	echo "$SL_TIDS" | awk -v n="$1" '{ print $n }'
}

# sl_go - let the sleepers start their loops (SIGUSR1)
sl_go()
{
	kill -USR1 "$SL_PID"
}

# sl_wait - wait for the sleeper program to end; SL_RC gets its exit status
sl_wait()
{
	wait "$SL_PID"
	SL_RC=$?
	SL_PID=
	if [ "$SL_RC" -ne 0 ]; then
		lh_err "sleeper exited $SL_RC: $(cat "$SL_OUT.err" 2>/dev/null)"
	fi
	return "$SL_RC"
}

# sl_field TID FIELD - print FIELD (loops, overruns, migrated, min_us,
# avg_us, max_us, noblock) of thread TID from the summary lines of the last
# sleeper
sl_field()
{
	awk -v t="$1" -v f="$2" '$1 == "thread" && $4 == t {
		for (i = 1; i < NF; i++)
			if ($i == f) { print $(i + 1); exit }
	}' "$SL_OUT"
}

# sl_expect_wakeups TID N WHAT - check that WHAT, which holds N samples of
# thread TID of the last sleeper, holds one per loop +-1 for the boundary.
# A sleep that returned without blocking (its deadline passed between
# rt_sleeper's check and clock_nanosleep(): a guest stall there) woke nobody,
# and where the kernel does not even arm an expired sleeper's timer (7.3:
# hrtimer_sleeper_start_expires()) no timer expired either: rt_sleeper counts
# those sleeps exactly ("noblock", from the thread's voluntary context
# switches), and each lowers the bound by one, for the timer types too.
# Each period the sleeper overran (a guest stalled for periods is not a rig)
# may lose one more, and is reported: a shortfall beyond the overruns fails
# (7.3-rt-debug under load: 98 samples for 100 loops, 14 overruns).
sl_expect_wakeups()
{
	local loops nb ov
	loops=$(sl_field "$1" loops)
	nb=$(sl_field "$1" noblock)
	ov=$(sl_field "$1" overruns)
	if [ "$2" -gt $((loops + 1)) ]; then
		lh_err "$3 holds $2 samples of tid $1, expected one per loop: $loops +-1"
	elif [ "$2" -ge $((loops - 1 - nb)) ]; then
		[ "$nb" = 0 ] || lh_diag "$3: $2 samples of tid $1, $loops loops, $nb of them did not block"
	elif [ "$2" -ge $((loops - 1 - nb - ov)) ]; then
		lh_diag "$3 holds $2 samples of tid $1 for $loops loops ($nb did not block): within the $ov periods the sleeper overran"
	else
		lh_err "$3 holds $2 samples of tid $1, expected one per loop: $loops +-1, less its $nb sleeps that did not block and its $ov overruns"
	fi
}

# sl_overruns_sum - total overruns of every thread of the last sleeper
sl_overruns_sum()
{
	awk '$1 == "thread" { for (i = 1; i < NF; i++) if ($i == "overruns") s += $(i + 1) }
	     END { print s + 0 }' "$SL_OUT"
}

# sl_show_summary - diagnostics: the summary lines of the last sleeper
sl_show_summary()
{
	local line
	while IFS= read -r line; do
		case $line in
		thread*) lh_diag "sleeper: $line" ;;
		esac
	done <"$SL_OUT"
}

# sl_overrun_reason - when the last sleeper overran (woke more than a period
# late, so a period's expiry can coincide with the previous one), print that
# and return 0: its per-loop sample count is not exact then. Else return 1.
sl_overrun_reason()
{
	[ "$(sl_overruns_sum)" -gt 0 ] || return 1
	echo "the sleeper overran $(sl_overruns_sum) periods"
}

# sl_go_under_sections - start an lh_load_test run in the background and let
# the sleeper go (sl_go): its first loop is due 60 ms later (rt_sleeper's
# START_DELAY_NS plus one period), time for the run's kthread to start even
# under a slow emulator. Size the run to outlast the loops, so that the
# sections surround them whichever of the two starts late.
# sl_sections_join waits for the run and reports a failed trigger.
sl_go_under_sections()
{
	lt_trigger &
	SL_LT_PID=$!
	sl_go
}

# sl_go_and_wait WITH_SECTIONS - let the sleeper go and wait for it; with
# WITH_SECTIONS = 1 under an lh_load_test run (sl_go_under_sections)
sl_go_and_wait()
{
	if [ "$1" = 1 ]; then
		sl_go_under_sections
		sl_wait
		sl_sections_join
	else
		sl_go
		sl_wait
	fi
}

# sl_sections_join - wait for the run of sl_go_under_sections
sl_sections_join()
{
	wait "$SL_LT_PID" || lh_err "lh_load_test trigger failed"
	SL_LT_PID=
}
