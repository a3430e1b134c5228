# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC3043 # variables here are used by the tests; local: dash, busybox ash, bash
#
# inject_lib.sh - the test modules that inject what latency_hist measures:
# lh_load_test (critical sections: irqs or preemption off for delay_us on a
# CPU, count times, gap_us apart; lh_load_test.c), lh_probe_test (made-up
# scheduler and hrtimer events in an exact order, fed to the probes;
# lh_probe_test.c) and lh_irq_test (a threaded interrupt line fired from a
# hard hrtimer; lh_irq_test.c).
#
# Sourced after lib.sh. POSIX sh, same rules as lib.sh. LH_LOAD_TEST_MODULE
# names lh_load_test.ko; lh_probe_test.ko and lh_irq_test.ko are built next
# to it. Whatever this
# file loaded is unloaded by lh_cleanup (EXIT), after sleeper_lib.sh's
# sleeper has stopped.

LT_LOADED=		# set when this test loaded lh_load_test
LT_PARAMS=/sys/module/lh_load_test/parameters
PT_LOADED=		# set when this test loaded lh_probe_test
PT_PARAMS=/sys/module/lh_probe_test/parameters
PT_A=			# lh_probe_test's wakee thread ids, after pt_load
PT_B=
IT_LOADED=		# set when this test loaded lh_irq_test
IT_PARAMS=/sys/module/lh_irq_test/parameters
IT_IRQ=			# lh_irq_test's line, after it_load
SQ_LOADED=		# set when this test loaded lh_softirq_test
SQ_PARAMS=/sys/module/lh_softirq_test/parameters

# lt_cleanup - lh_cleanup hook: unload the test modules this test loaded
lt_cleanup()
{
	if [ -n "$LT_LOADED" ]; then
		rmmod lh_load_test 2>/dev/null
		LT_LOADED=
	fi
	if [ -n "$PT_LOADED" ]; then
		rmmod lh_probe_test 2>/dev/null
		PT_LOADED=
	fi
	if [ -n "$IT_LOADED" ]; then
		rmmod lh_irq_test 2>/dev/null
		IT_LOADED=
	fi
	if [ -n "$SQ_LOADED" ]; then
		rmmod lh_softirq_test 2>/dev/null
		SQ_LOADED=
	fi
}
LH_CLEANUP_HOOKS="$LH_CLEANUP_HOOKS lt_cleanup"

# lt_load PARAM=VALUE... - insmod lh_load_test; returns 1 (the caller skips
# with LH_REQ_WHY) if LH_LOAD_TEST_MODULE is not set, bails if it does not load
lt_load()
{
	lh_req_met lh_load_test || return 1
	insmod "$LH_LOAD_TEST_MODULE" "$@" ||
		lh_bail "cannot load lh_load_test $*"
	LT_LOADED=1
}

# lt_trigger - run the configured sections now; returns when done
lt_trigger()
{
	echo 1 >"$LT_PARAMS/trigger"
}

# lt_unload - rmmod lh_load_test
lt_unload()
{
	rmmod lh_load_test || lh_err "cannot unload lh_load_test"
	LT_LOADED=
}

# lt_noise_reason BASE_MAX MAX N CULPRIT_PID STALL - for the *_injected
# tests, whose max record should blame the sections: print why the maximum
# of the run with sections (MAX) may not be one the sections made, and
# return 0; else return 1. Either the run without sections (BASE_MAX)
# already reached N/2, the bound at which the tests take a sample for a
# section's (so emulation alone can own the maximum: 5.5 ms without
# sections, then a 7.9 ms maximum blaming swapper, seen on 6.1-rt on a
# loaded host), or MAX exceeds N, which an N us section cannot cause by
# itself (a vCPU stalled by the host can, while another task or the idle
# task runs), or the culprit is the idle task (pid 0) and STALL, non-empty,
# is the evidence of a stall the run showed (the sleeper overran a period:
# sl_overrun_reason). A section ends in lh_load_test, which is the task its
# late interrupt or its held wakeup finds running, so a maximum that found
# the CPU idle was the host's (7.7 ms, swapper, beside a 2.6 ms run without
# sections, seen on 6.1-rt in CI) or the module's misattribution, the very
# thing the culprit check is for: without a stall seen, it is not excused.
# "<undef>" is an empty histogram. The tests call it only when the culprit
# is not lh_load_test, and check the victim either way.
lt_noise_reason()
{
	if [ "$1" != "<undef>" ] && [ "$1" -ge $(($3 / 2)) ]; then
		echo "emulation alone reached $1 us >= $(($3 / 2)) us without sections"
	elif [ "$2" != "<undef>" ] && [ "$2" -gt "$3" ]; then
		echo "maximum $2 us > $3 us: more than a $3 us section can cause, an emulator stall"
	elif [ "$4" = 0 ] && [ -n "${5:-}" ]; then
		echo "the CPU was idle, and the run stalled ($5): a vCPU stalled by the host"
	else
		return 1
	fi
}

# lt_check_culprit BASE MAX N OVERRUN - the max record's culprit (hl_maxrec's MR_CCOMM, MR_CPID) is
# lh_load_test, or lt_noise_reason BASE MAX N excuses it (LT_NOISE then says why); else an error
lt_check_culprit()
{
	LT_NOISE=
	[ "$MR_CCOMM" = lh_load_test ] && return 0
	if LT_NOISE=$(lt_noise_reason "$1" "$2" "$3" "$MR_CPID" "$4"); then
		LT_NOISE="culprit $MR_CCOMM ($MR_CPID) not checked: $LT_NOISE"
	else
		lh_err "culprit '$MR_CCOMM' ($MR_CPID), expected lh_load_test"
	fi
}

# lt_case_end_culprit NAME - end the max-record case NAME: a skip that says why when only its
# culprit went unchecked (lt_check_culprit), else pass or fail as the case's checks say
lt_case_end_culprit()
{
	if [ -n "$LT_NOISE" ] && [ "$LH_ERRS" = 0 ]; then
		lh_skip "$1" "$LT_NOISE; the victim is the sleeper"
	else
		lh_case_end "$1"
	fi
}

# pt_load CPU - insmod lh_probe_test (next to lh_load_test.ko) with its
# wakees on CPU; sets PT_A and PT_B to their tids. Returns 1 (the caller
# skips with LH_REQ_WHY) if it was not built, bails if it does not load.
pt_load()
{
	lh_req_met lh_probe_test || return 1
	insmod "${LH_LOAD_TEST_MODULE%/*}/lh_probe_test.ko" cpu="$1" ||
		lh_bail "cannot load lh_probe_test cpu=$1"
	PT_LOADED=1
	PT_A=$(cat "$PT_PARAMS/tid_a")
	PT_B=$(cat "$PT_PARAMS/tid_b")
}

# pt_run SCENARIO - run one of lh_probe_test's event sequences
pt_run()
{
	echo "$1" >"$PT_PARAMS/run" || lh_err "lh_probe_test: run=$1 failed"
}

# pt_unload - rmmod lh_probe_test
pt_unload()
{
	rmmod lh_probe_test || lh_err "cannot unload lh_probe_test"
	PT_LOADED=
}

# it_load PARAM=VALUE... - insmod lh_irq_test (next to lh_load_test.ko);
# IT_IRQ gets its line's number. Bails if it does not load (the tests name
# lh_irq_test in their requires line).
it_load()
{
	insmod "${LH_LOAD_TEST_MODULE%/*}/lh_irq_test.ko" "$@" ||
		lh_bail "cannot load lh_irq_test $*"
	IT_LOADED=1
	lh_value "$IT_PARAMS/irq"
	IT_IRQ=$LH_VALUE
}

# it_unload - rmmod lh_irq_test
it_unload()
{
	rmmod lh_irq_test || lh_err "cannot unload lh_irq_test"
	IT_LOADED=
}

# sq_load PARAM=VALUE... - insmod lh_softirq_test (next to lh_load_test.ko).
# Bails if it does not load (the tests name lh_softirq_test in their
# requires line).
sq_load()
{
	insmod "${LH_LOAD_TEST_MODULE%/*}/lh_softirq_test.ko" "$@" ||
		lh_bail "cannot load lh_softirq_test $*"
	SQ_LOADED=1
}

# sq_unload - rmmod lh_softirq_test
sq_unload()
{
	rmmod lh_softirq_test || lh_err "cannot unload lh_softirq_test"
	SQ_LOADED=
}
