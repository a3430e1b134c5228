# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # variables here are used by the tests
#
# sleeper_lib.sh - run rt_sleeper (and helpers with the same handshake) under
# a latency_hist pid filter, and read the wakeup/timer histograms
#
# Sourced after lib.sh by the wakeup_*.sh and timer_*.sh tests. POSIX sh,
# same rules as lib.sh (no "local", busybox tools only). Only the lib.sh
# functions of its first version are used (lh_write, lh_hist_total,
# lh_possible_cpus, ...).
#
# The handshake (rt_sleeper.c, header comment): a program started with -w
# prints "tid <tid> ..." per thread, then "ready", and spins without ever
# blocking until SIGUSR1; only then do its threads sleep. So:
#
#   sl_start out -c 1 -p 80 -i 10000 -l 100	# rt_sleeper -w ..., wait for ready
#   sl_filter wakeup "$SL_TID"			# echo tid > wakeup/pid
#   sl_go; sl_wait				# SIGUSR1, then wait for the end
#
# sees exactly one wakeup of SL_TID per loop, and nothing else of it.

SL_PID=			# process id of the running sleeper program
SL_OUT=			# its output file
SL_TIDS=		# its thread ids, in the order it printed them
SL_TID=			# the first of them
SL_RC=			# its exit status after sl_wait
SL_LOADTEST=		# set when this test loaded lh_load_test
SL_LT_PID=		# the background lh_load_test run of sl_go_under_sections
SL_LT_PARAMS=/sys/module/lh_load_test/parameters
SL_PROBETEST=		# set when this test loaded lh_probe_test
SL_PT_PARAMS=/sys/module/lh_probe_test/parameters

# sl_cleanup - EXIT trap part: stop our sleeper, unload our test modules
sl_cleanup()
{
	if [ -n "$SL_PID" ]; then
		kill -TERM "$SL_PID" 2>/dev/null
		kill -USR1 "$SL_PID" 2>/dev/null
		wait "$SL_PID" 2>/dev/null
		SL_PID=
	fi
	[ -z "$SL_LT_PID" ] || wait "$SL_LT_PID" 2>/dev/null
	if [ -n "$SL_LOADTEST" ]; then
		rmmod lh_load_test 2>/dev/null
		SL_LOADTEST=
	fi
	if [ -n "$SL_PROBETEST" ]; then
		rmmod lh_probe_test 2>/dev/null
		SL_PROBETEST=
	fi
}

# sl_setup - lh_setup plus: sleeper cleanup, rt_sleeper built, CPU 1 online
sl_setup()
{
	lh_setup
	trap 'sl_cleanup; lh_cleanup' EXIT
	[ -x "$LH_BINDIR/rt_sleeper" ] ||
		lh_skip_all "rt_sleeper is not built (make -C selftests)"
	SL_CPU1=$(awk -F, '{ for (i = 1; i <= NF; i++) if ($i ~ /-/ || $i == "1") { print 1; exit } }' \
		/sys/devices/system/cpu/online)
	[ "$SL_CPU1" = 1 ] || lh_skip_all "needs CPU 1 online (2 or more CPUs)"
	SL_CPUS=$(lh_possible_cpus)
}

# sl_sleep_s SECONDS - sleep, also where sleep takes whole seconds only
sl_sleep_s()
{
	sleep "$1" 2>/dev/null || sleep 1
}

# sl_start_bin PROGRAM OUTFILE ARGS... - start PROGRAM -w ARGS in the
# background and wait for its "ready" line; SL_PID, SL_TIDS, SL_TID are set.
# Returns 1 (and says why) if it died or was not ready within 60 s.
sl_start_bin()
{
	SL_BIN=$1
	SL_OUT=$2
	shift 2
	SL_TIDS=
	SL_TID=
	"$SL_BIN" -w "$@" >"$SL_OUT" 2>"$SL_OUT.err" &
	SL_PID=$!
	SL_N=0
	while ! grep -q '^ready' "$SL_OUT" 2>/dev/null; do
		if ! kill -0 "$SL_PID" 2>/dev/null || [ "$SL_N" -ge 600 ]; then
			lh_diag "$(basename "$SL_BIN") $*: not ready: $(cat "$SL_OUT.err" 2>/dev/null)"
			sl_cleanup
			return 1
		fi
		SL_N=$((SL_N + 1))
		sl_sleep_s 0.1
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
# avg_us, max_us) of thread TID from the summary lines of the last sleeper
sl_field()
{
	awk -v t="$1" -v f="$2" '$1 == "thread" && $4 == t {
		for (i = 1; i < NF; i++)
			if ($i == f) { print $(i + 1); exit }
	}' "$SL_OUT"
}

# sl_overruns_sum - total overruns of every thread of the last sleeper
sl_overruns_sum()
{
	awk '$1 == "thread" { for (i = 1; i < NF; i++) if ($i == "overruns") s += $(i + 1) }
	     END { print s + 0 }' "$SL_OUT"
}

# sl_filter DIR TID - set DIR/pid (wakeup or missed_timer_offsets)
sl_filter()
{
	lh_expect_write_ok "$LH_DIR/$1/pid" "$2"
}

# sl_enable NAME... - enable each named histogram switch
sl_enable()
{
	for SL_X in "$@"; do
		lh_expect_write_ok "$LH_DIR/enable/$SL_X" 1
	done
}

# sl_reset HIST... - reset each named histogram (wakeup/sharedprio etc.)
sl_reset()
{
	for SL_X in "$@"; do
		lh_expect_write_ok "$LH_DIR/$SL_X/reset" 1
	done
}

# sl_total HIST CPU - "#Total samples:" of HIST/CPUx
sl_total()
{
	lh_hist_total "$LH_DIR/$1/CPU$2"
}

# sl_total_all HIST... - "#Total samples:" summed over every CPU of each HIST
sl_total_all()
{
	SL_SUM=0
	for SL_H in "$@"; do
		for SL_C in $SL_CPUS; do
			SL_SUM=$((SL_SUM + $(sl_total "$SL_H" "$SL_C")))
		done
	done
	echo "$SL_SUM"
}

# sl_hist_max HIST CPU - "#Maximum latency:" of HIST/CPUx ("<undef>" if empty)
sl_hist_max()
{
	awk '/^#Maximum latency: / { print $3; exit }' "$LH_DIR/$1/CPU$2"
}

# sl_kth_largest HIST CPU K - the Kth largest sample (us) of HIST/CPUx, from
# its rows and "greater or equal" count (10240 for those); empty if fewer
sl_kth_largest()
{
	awk -v k="$3" '
		/^#There are .* greater or equal than / { over = $3 }
		/^[ 0-9]/ && $2 > 0 { n++; v[n] = $1 + 0; c[n] = $2 }
		END {
			if (over >= k) { print 10240; exit }
			seen = over
			for (i = n; i >= 1; i--) {
				seen += c[i]
				if (seen >= k) { print v[i]; exit }
			}
		}' "$LH_DIR/$1/CPU$2"
}

# sl_hist_field HIST CPU WHICH - Minimum, Average or Maximum of HIST/CPUx
sl_hist_field()
{
	awk -v w="#$3" '$1 == w { print $3; exit }' "$LH_DIR/$1/CPU$2"
}

# sl_over HIST CPU - the "greater or equal than 10240" count of HIST/CPUx
sl_over()
{
	awk '/^#There are .* greater or equal than / { print $3; exit }' "$LH_DIR/$1/CPU$2"
}

# sl_maxrec HIST CPU - parse HIST/max_latency-CPUx into MR_* variables:
#   MR_LINE (raw), MR_NONE (1 for "(none)"), MR_VPID MR_VPRIO MR_LAT MR_TOFF
#   MR_VCOMM (victim), MR_CPID MR_CPRIO MR_CCOMM (culprit), MR_TS.
# Comms may hold spaces: the victim comm is everything between "(offset) "
# and " <- ", the culprit comm everything between its prio and the
# timestamp. Returns 1 if the line does not have that shape.
sl_maxrec()
{
	MR_LINE=
	MR_NONE=
	MR_VPID='' MR_VPRIO='' MR_LAT='' MR_TOFF='' MR_VCOMM=''
	MR_CPID='' MR_CPRIO='' MR_CCOMM='' MR_TS=''
	IFS= read -r MR_LINE <"$LH_DIR/$1/max_latency-CPU$2" 2>/dev/null
	if [ "$MR_LINE" = "(none)" ]; then
		MR_NONE=1
		return 0
	fi
	case $MR_LINE in
	*" <- "*) ;;
	*) return 1 ;;
	esac
	SL_V=${MR_LINE%% <- *}
	SL_CU=${MR_LINE#* <- }
	# victim: pid prio lat (toff) comm
	MR_VPID=${SL_V%% *}; SL_V=${SL_V#* }
	MR_VPRIO=${SL_V%% *}; SL_V=${SL_V#* }
	MR_LAT=${SL_V%% *}; SL_V=${SL_V#* }
	MR_TOFF=${SL_V%% *}; MR_VCOMM=${SL_V#* }
	MR_TOFF=${MR_TOFF#(}; MR_TOFF=${MR_TOFF%)}
	# culprit: pid prio comm ts
	MR_CPID=${SL_CU%% *}; SL_CU=${SL_CU#* }
	MR_CPRIO=${SL_CU%% *}; SL_CU=${SL_CU#* }
	MR_TS=${SL_CU##* }; MR_CCOMM=${SL_CU% *}
	for SL_X in "$MR_VPID" "$MR_LAT" "$MR_TOFF" "$MR_CPID"; do
		case $SL_X in
		"" | *[!0-9-]*) return 1 ;;
		esac
	done
	return 0
}

# sl_show_maxrecs HIST - diagnostics: HIST's max record on every CPU
sl_show_maxrecs()
{
	for SL_C in $SL_CPUS; do
		lh_diag "$1/max_latency-CPU$SL_C: $(cat "$LH_DIR/$1/max_latency-CPU$SL_C" 2>/dev/null)"
	done
}

# sl_show_totals HIST... - diagnostics: total and max per CPU of each HIST
sl_show_totals()
{
	for SL_H in "$@"; do
		for SL_C in $SL_CPUS; do
			lh_diag "$SL_H/CPU$SL_C: total $(sl_total "$SL_H" "$SL_C") max $(sl_hist_max "$SL_H" "$SL_C")"
		done
	done
}

# sl_show_summary - diagnostics: the summary lines of the last sleeper
sl_show_summary()
{
	while IFS= read -r SL_L; do
		case $SL_L in
		thread*) lh_diag "sleeper: $SL_L" ;;
		esac
	done <"$SL_OUT"
}

# sl_noise_reason BASE_MAX MAX N - for the *_injected tests, whose max
# record should blame the sections: print why the maximum of the run with
# sections (MAX) may not be one the sections made, and return 0; else
# return 1. Either the run without sections (BASE_MAX) already reached N/2,
# the bound at which the tests take a sample for a section's (so emulation
# alone can own the maximum: 5.5 ms without sections, then a 7.9 ms
# maximum blaming swapper, seen on 6.1-rt on a loaded host), or MAX exceeds
# N, which an N us section cannot cause by itself (a vCPU stalled by the
# host can, while another task or the idle task runs). "<undef>" is an
# empty histogram. The tests call it only when the culprit is not
# lh_load_test.
sl_noise_reason()
{
	if [ "$1" != "<undef>" ] && [ "$1" -ge $(($3 / 2)) ]; then
		echo "emulation alone reached $1 us >= $(($3 / 2)) us without sections"
	elif [ "$2" != "<undef>" ] && [ "$2" -gt "$3" ]; then
		echo "maximum $2 us > $3 us: more than a $3 us section can cause, an emulator stall"
	else
		return 1
	fi
}

# sl_overrun_reason - when the last sleeper overran (woke more than a period
# late, so a period's expiry can coincide with the previous one), print that
# and return 0: its per-loop sample count is not exact then. Else return 1.
sl_overrun_reason()
{
	[ "$(sl_overruns_sum)" -gt 0 ] || return 1
	echo "the sleeper overran $(sl_overruns_sum) periods"
}

# sl_in_range VALUE LO HI - true if LO <= VALUE <= HI (integers)
sl_in_range()
{
	[ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ] 2>/dev/null
}

# sl_loadtest_load PARAM=VALUE... - insmod lh_load_test; returns 1 (the caller
# skips) if LH_LOAD_TEST_MODULE is not set, bails if it does not load
sl_loadtest_load()
{
	[ -n "${LH_LOAD_TEST_MODULE:-}" ] && [ -r "$LH_LOAD_TEST_MODULE" ] ||
		return 1
	insmod "$LH_LOAD_TEST_MODULE" "$@" ||
		lh_bail "cannot load lh_load_test $*"
	SL_LOADTEST=1
}

# sl_loadtest_trigger - run the configured sections now; returns when done
sl_loadtest_trigger()
{
	echo 1 >"$SL_LT_PARAMS/trigger"
}

# sl_go_under_sections - start an lh_load_test run in the background and let
# the sleeper go (sl_go): its first loop is due 60 ms later (rt_sleeper's
# START_DELAY_NS plus one period), time for the run's kthread to start even
# under a slow emulator. Size the run to outlast the loops, so that the
# sections surround them whichever of the two starts late.
# sl_sections_join waits for the run and reports a failed trigger.
sl_go_under_sections()
{
	sl_loadtest_trigger &
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

# sl_loadtest_unload - rmmod lh_load_test
sl_loadtest_unload()
{
	rmmod lh_load_test || lh_err "cannot unload lh_load_test"
	SL_LOADTEST=
}

# sl_is_rt_kernel - true on a PREEMPT_RT kernel
sl_is_rt_kernel()
{
	case $(uname -v) in
	*PREEMPT_RT*) return 0 ;;
	esac
	return 1
}

# sl_check_invariants SAME_INTERVAL - what every wakeup and timer test must
# leave true (Documentation/latency_hist.rst, "What a sample means"); call
# inside a case, it reports through lh_err. It turns every switch off, then:
#  - no wakeup/ (exclusive) max record names a culprit that outranks its
#    victim: a real-time culprit (printed prio >= 0, which is 99 - the
#    kernel prio) with a higher printed prio than the victim's;
#  - on every CPU, each max_latency-CPUx value equals the "#Maximum
#    latency" of that type's CPUx ("(none)" goes with "<undef>");
#  - with SAME_INTERVAL = 1 (the test enabled wakeup and timerandwakeup for
#    the same interval and filtered one thread), wakeup/CPUx and
#    timerandwakeup/CPUx hold the same number of samples.
# The rows-and-totals identity of every CPUx file is checked by lh_readcheck
# in stress_races.sh and by the format tests.
sl_check_invariants()
{
	lh_disable_all
	for SL_C in $SL_CPUS; do
		if sl_maxrec wakeup "$SL_C" && [ -z "$MR_NONE" ] &&
			[ "$MR_CPRIO" -ge 0 ] && [ "$MR_CPRIO" -gt "$MR_VPRIO" ]; then
			lh_err "wakeup/max_latency-CPU$SL_C: culprit $MR_CPID ($MR_CCOMM, prio $MR_CPRIO) outranks victim $MR_VPID ($MR_VCOMM, prio $MR_VPRIO): '$MR_LINE'"
		fi
		for SL_H in wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup; do
			[ -r "$LH_DIR/$SL_H/max_latency-CPU$SL_C" ] || continue
			SL_M=$(sl_hist_max "$SL_H" "$SL_C")
			if ! sl_maxrec "$SL_H" "$SL_C"; then
				lh_err "$SL_H/max_latency-CPU$SL_C does not parse: '$MR_LINE'"
			elif [ -n "$MR_NONE" ]; then
				[ "$SL_M" = "<undef>" ] ||
					lh_err "$SL_H/max_latency-CPU$SL_C is (none), CPU$SL_C's maximum is $SL_M"
			elif [ "$MR_LAT" != "$SL_M" ]; then
				lh_err "$SL_H/max_latency-CPU$SL_C holds $MR_LAT us, CPU$SL_C's maximum is $SL_M"
			fi
		done
		if [ "$1" = 1 ] && [ "$(sl_total wakeup "$SL_C")" != "$(sl_total timerandwakeup "$SL_C")" ]; then
			lh_err "CPU$SL_C: wakeup/ holds $(sl_total wakeup "$SL_C") samples, timerandwakeup/ $(sl_total timerandwakeup "$SL_C"), enabled over the same interval"
		fi
	done
}

# sl_probetest_load CPU - insmod lh_probe_test (next to lh_load_test.ko) with
# its wakees on CPU; sets SL_PT_A and SL_PT_B to their tids. Returns 1 (the
# caller skips) if it was not built, bails if it does not load.
sl_probetest_load()
{
	SL_PT_KO=${LH_LOAD_TEST_MODULE:+${LH_LOAD_TEST_MODULE%/*}/lh_probe_test.ko}
	[ -n "$SL_PT_KO" ] && [ -r "$SL_PT_KO" ] || return 1
	insmod "$SL_PT_KO" cpu="$1" || lh_bail "cannot load lh_probe_test cpu=$1"
	SL_PROBETEST=1
	SL_PT_A=$(cat "$SL_PT_PARAMS/tid_a")
	SL_PT_B=$(cat "$SL_PT_PARAMS/tid_b")
}

# sl_probetest_run SCENARIO - run one of lh_probe_test's event sequences
sl_probetest_run()
{
	echo "$1" >"$SL_PT_PARAMS/run" || lh_err "lh_probe_test: run=$1 failed"
}

# sl_probetest_unload - rmmod lh_probe_test
sl_probetest_unload()
{
	rmmod lh_probe_test || lh_err "cannot unload lh_probe_test"
	SL_PROBETEST=
}
