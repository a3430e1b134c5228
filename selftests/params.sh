#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2012,SC2119,SC2086 # ls -l for modes; optional lh_load_or_bail args; word lists
#
# params.sh - module parameters are a second, equivalent control path
#
# Proves: /sys/module/latency_hist/parameters holds exactly enable_*,
# wakeup_pid, missed_timer_offsets_pid, reset, threshold_*, outlier_*, counters,
# counter_events and explain, mode 0644, reading 0 / 0 / an empty line after load
# (counter_events: the default set; counters.sh tests both); a parameter write shows in debugfs and status
# (thresholds in <type>/threshold)
# and a debugfs write shows in the parameter; invalid values are refused with
# EINVAL (ENODEV for an unavailable type) and change nothing;
# enable_timerandwakeup obeys the same parent rule; reset takes every
# histogram name and "all" and refuses unknown names; load-time arguments
# (enable_wakeup=1 wakeup_pid=1) take effect and an invalid one fails the load.
#
# requires: none

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

P=$LH_SYSMOD/parameters
THRESHOLDS=	# threshold_<type>, '/' as '_', per histogram of status
OUTLIERS=	# outlier_<type>, likewise
PARAMS=		# every parameter the types of status give

# expect_enabled TYPE VALUE - param, debugfs file and status agree on VALUE
expect_enabled()
{
	lh_expect_content "$P/enable_$1" "$2"
	lh_expect_content "$LH_DIR/enable/$1" "$2"
	lh_status_get "$1" enabled
	[ "$LH_FIELD" = "$2" ] || lh_err "status $1: enabled=$LH_FIELD, expected $2"
}

# expect_param_rejects PARAM ERRNO VALUE... - each VALUE fails, PARAM keeps its value
expect_param_rejects()
{
	pr_param=$1
	pr_errno=$2
	shift 2
	lh_value "$P/$pr_param"
	pr_before=$LH_VALUE
	for v in "$@"; do
		lh_expect_write_errno "$P/$pr_param" "$v" "$pr_errno"
		lh_value "$P/$pr_param"
		[ "$LH_VALUE" = "$pr_before" ] ||
			lh_err "$pr_param: changed to '$LH_VALUE' by rejected '$v'"
	done
}

# type_params - set THRESHOLDS and PARAMS from the types of the status file
type_params()
{
	THRESHOLDS=
	OUTLIERS=
	for h in $LH_HISTS; do
		THRESHOLDS="$THRESHOLDS threshold_$(echo "$h" | tr / _)"
		OUTLIERS="$OUTLIERS outlier_$(echo "$h" | tr / _)"
	done
	PARAMS="reset $THRESHOLDS $OUTLIERS counters counter_events explain task_view_tasks task_view_cgroups"
	for e in $LH_ENABLES; do
		PARAMS="$PARAMS enable_$e"
	done
	for d in $LH_PID_DIRS; do
		PARAMS="$PARAMS ${d}_pid"
	done
}

lh_setup
lh_plan 13
lh_load_or_bail
type_params

lh_case_begin
ls "$P" 2>/dev/null | sort >"$LH_TMP/have"
for p in $PARAMS; do
	echo "$p"
done | sort >"$LH_TMP/want"
cmp -s "$LH_TMP/want" "$LH_TMP/have" ||
	lh_err "parameters: have '$(tr '\n' ' ' <"$LH_TMP/have")', want '$(tr '\n' ' ' <"$LH_TMP/want")'"
for p in $PARAMS; do
	[ -e "$P/$p" ] || continue
	mode=$(ls -l "$P/$p" | awk '{ print substr($1, 1, 10) }')
	[ "$mode" = "-rw-r--r--" ] || lh_err "$p: mode $mode, expected -rw-r--r--"
done
lh_case_end parameters_exist_with_mode_0644

lh_case_begin
for p in $PARAMS; do
	case $p in
	reset | counter_events) continue ;;
	task_view_tasks) lh_expect_content "$P/$p" 256; continue ;;
	task_view_cgroups) lh_expect_content "$P/$p" 64; continue ;;
	esac
	lh_expect_content "$P/$p" 0
done
lh_expect_content "$P/reset" ""
[ "$(cat "$P/counter_events")" = "$(tr '\n' ' ' <"$LH_DIR/counters/events" | sed 's/ $//')" ] ||
	lh_err "counter_events '$(cat "$P/counter_events")' is not counters/events"
lh_case_end parameters_read_0_and_reset_reads_an_empty_line

lh_case_begin
lh_expect_write_ok "$P/enable_wakeup" 1
expect_enabled wakeup 1
[ "$(lh_status_field wakeup bytes)" -gt 0 ] 2>/dev/null ||
	lh_err "status wakeup: bytes not > 0 after enable_wakeup=1"
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
expect_enabled wakeup 0
lh_expect_write_ok "$LH_DIR/enable/wakeup" 1
expect_enabled wakeup 1
lh_expect_write_ok "$P/enable_wakeup" 0
expect_enabled wakeup 0
lh_write "$P/enable_wakeup" '1\n' -e || lh_err "enable_wakeup: '1\\n' refused: $LH_RESULT"
expect_enabled wakeup 1
lh_expect_write_ok "$P/enable_wakeup" 0
if lh_available missed_timer_offsets; then
	lh_expect_write_ok "$P/enable_missed_timer_offsets" 1
	expect_enabled missed_timer_offsets 1
	lh_expect_write_ok "$LH_DIR/enable/missed_timer_offsets" 0
	expect_enabled missed_timer_offsets 0
fi
lh_case_end enable_parameters_and_debugfs_agree

lh_case_begin
for d in $LH_PID_DIRS; do
	lh_expect_write_ok "$P/${d}_pid" 55
	lh_expect_content "$LH_DIR/$d/pid" 55
	lh_expect_write_ok "$LH_DIR/$d/pid" 66
	lh_expect_content "$P/${d}_pid" 66
	lh_expect_write_ok "$P/${d}_pid" 0
	lh_expect_content "$LH_DIR/$d/pid" 0
done
lh_case_end pid_parameters_and_debugfs_agree

lh_case_begin
for h in $LH_HISTS; do
	tp=threshold_$(echo "$h" | tr / _)
	lh_expect_write_ok "$P/$tp" 750
	lh_expect_content "$LH_DIR/$h/threshold" 750
	lh_expect_write_ok "$LH_DIR/$h/threshold" 900
	lh_expect_content "$P/$tp" 900
	expect_param_rejects "$tp" EINVAL -1 2147483648 abc
	lh_expect_write_ok "$P/$tp" 0
	lh_expect_content "$LH_DIR/$h/threshold" 0
done
lh_case_end threshold_parameters_and_debugfs_agree

lh_case_begin
for p in $PARAMS; do
	case $p in
	enable_* | *_pid) ;;
	*) continue ;;
	esac
	expect_param_rejects "$p" EINVAL abc -1 +1 " 1" 1x "1 2" 0x10 \
		18446744073709551616 "$(awk 'BEGIN { while (i++ < 63) printf "0"; print 1 }')"
done
expect_param_rejects wakeup_pid EINVAL 4194305 4294967296
expect_param_rejects missed_timer_offsets_pid EINVAL 4194305 4294967296
lh_case_end invalid_parameter_values_are_rejected

lh_case_begin
if lh_req_met type:wakeup && lh_req_met type:missed_timer_offsets; then
	expect_param_rejects enable_timerandwakeup EINVAL 1
	lh_expect_write_ok "$P/enable_wakeup" 1
	lh_expect_write_ok "$P/enable_missed_timer_offsets" 1
	lh_expect_write_ok "$P/enable_timerandwakeup" 1
	expect_enabled timerandwakeup 1
	lh_expect_write_ok "$P/enable_wakeup" 0
	expect_enabled timerandwakeup 0
	lh_disable_all
	lh_case_end enable_timerandwakeup_parameter_needs_both_parents
else
	lh_skip enable_timerandwakeup_parameter_needs_both_parents "$LH_REQ_WHY"
fi

lh_case_begin
if lh_available irqsoff || lh_available preemptoff || lh_available preemptirqsoff; then
	lh_skip enable_preemptirqsoff_parameter_fails_enodev_when_unavailable \
		"a preemptirq histogram is available here"
else
	expect_param_rejects enable_preemptirqsoff ENODEV 1
	expect_enabled preemptirqsoff 0
	lh_case_end enable_preemptirqsoff_parameter_fails_enodev_when_unavailable
fi

lh_case_begin
hl_empty_cpux >"$LH_TMP/empty"
for h in $LH_HISTS all; do
	lh_expect_write_ok "$P/reset" "$h"
	lh_write "$P/reset" "$h\\n" -e || lh_err "reset: '$h\\n' refused: $LH_RESULT"
done
expect_param_rejects reset EINVAL bogus wakeup/ WAKEUP "wakeup x" "all all"
# reset=all really resets: take samples, then check every file is empty
lh_enable_available
lh_activity
lh_disable_all
lh_diag "samples before reset=all: $(hl_samples_sum)"
lh_expect_write_ok "$P/reset" all
for f in $(hl_cpu_files); do
	lh_same_bytes "$LH_TMP/empty" "$f" || lh_err "$(lh_name "$f"): not empty after reset=all"
done
for f in $(hl_maxlat_files); do
	lh_expect_content "$f" "(none)"
done
lh_expect_content "$P/reset" ""
lh_case_end reset_parameter_takes_histogram_names_and_all

# every available switch as a load-time argument, dependents first
all_args=
for e in $(lh_reverse $LH_ENABLES); do
	lh_switch_available "$e" && all_args="$all_args enable_$e=1"
done
lh_unload_or_bail

lh_case_begin
if lh_load enable_wakeup=1 wakeup_pid=1; then
	expect_enabled wakeup 1
	lh_expect_content "$P/wakeup_pid" 1
	lh_expect_content "$LH_DIR/wakeup/pid" 1
	[ "$(lh_status_field wakeup bytes)" -gt 0 ] 2>/dev/null ||
		lh_err "status wakeup: bytes not > 0 after load with enable_wakeup=1"
	lh_unload || lh_err "unload with wakeup enabled failed"
else
	lh_err "load with enable_wakeup=1 wakeup_pid=1 failed"
fi
lh_case_end load_time_arguments_take_effect

# Load-time switches are applied in the order of status, each after the
# switches it needs, whatever the order on the command line: every switch,
# dependents first on the command line, all on after the load.
lh_case_begin
if lh_load $all_args; then
	for e in $LH_ENABLES; do
		lh_switch_available "$e" || continue
		expect_enabled "$e" 1
	done
	lh_unload || lh_err "unload with every switch on failed"
else
	lh_err "load with$all_args failed"
fi
lh_case_end load_time_switches_go_on_in_dependency_order

lh_case_begin
if lh_load wakeup_pid=4194305 2>/dev/null; then
	lh_err "load with wakeup_pid=4194305 succeeded"
	lh_unload
fi
lh_loaded && lh_err "module loaded after a refused load"
lh_case_end load_with_an_invalid_argument_fails

lh_case_dmesg_clean
lh_finished
