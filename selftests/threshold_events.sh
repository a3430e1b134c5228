#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# threshold_events.sh - the latency_hist trace events, and a threshold that
# stops tracing on a real latency
#
# Proves (Documentation/latency_hist.rst, "Trace events", "threshold"):
#  1. `trace-cmd record -e latency_hist` of pid-filtered RT sleepers records
#     one latency_hist:lh_sample event per wakeup sample: as many events of
#     type=wakeup on each CPU as wakeup/CPUx counts, and the largest
#     event's latency is the histogram's maximum;
#  2. a threshold no sample reaches (2147483647 us) leaves tracing on;
#  3. with missed_timer_offsets' threshold at N/2 while lh_load_test holds
#     interrupts off on CPU 1 for N = 8000 us at a time under a sleeper due
#     every 10 ms (timer_injected.sh derives why some expiry waits >= N/2),
#     tracing_on reads 0 afterwards, and the last lh_threshold event of the
#     buffer names type=missed_timer_offsets, cpu=1, a latency >= N/2 that
#     the histogram holds, and the threshold.
#
# requires: rt_sleeper cpu1 tracefs

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

N=8000
BOUND=$((N / 2))
H=missed_timer_offsets

sl_setup
T=$(lh_tracefs)
lh_plan 4
lh_load_or_bail
[ -d "$T/events/latency_hist/lh_sample" ] || lh_bail "no events/latency_hist/lh_sample in $T"

# ------------------------------------------------------------ 1. trace-cmd
lh_case_begin
if ! lh_req_met trace-cmd; then
	lh_skip trace_cmd_records_one_event_per_sample "$LH_REQ_WHY"
else
	sl_start "$LH_TMP/sl" -c 1 -p 80 -i 2000 -l 50 || lh_bail "rt_sleeper did not start"
	lh_filter wakeup "$SL_TID"
	lh_reset wakeup wakeup/sharedprio
	lh_enable wakeup
	trace-cmd record -q -e latency_hist -o "$LH_TMP/trace.dat" \
		sh -c "kill -USR1 $SL_PID; while kill -0 $SL_PID 2>/dev/null; do sleep 0.05; done" \
		>"$LH_TMP/record.out" 2>&1 || lh_err "trace-cmd record failed: $(tail -n 3 "$LH_TMP/record.out")"
	sl_wait
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	trace-cmd report -i "$LH_TMP/trace.dat" 2>/dev/null >"$LH_TMP/report"
	for c in $LH_CPUS; do
		want=$(hl_total wakeup $c)
		got=$(grep -c "lh_sample: *type=wakeup cpu=$c " "$LH_TMP/report")
		[ "$got" = "$want" ] ||
			lh_err "CPU $c: $got lh_sample events of type=wakeup, wakeup/CPU$c counts $want"
		if [ "$want" -gt 0 ]; then
			evmax=$(sed -n "s/.*lh_sample: *type=wakeup cpu=$c latency_us=\([0-9-]*\) .*/\1/p" \
				"$LH_TMP/report" | sort -n | tail -n 1)
			[ "$evmax" = "$(hl_max wakeup $c)" ] ||
				lh_err "CPU $c: largest event $evmax us, wakeup/CPU$c maximum $(hl_max wakeup $c) us"
		fi
	done
	lh_diag "wakeup samples: $(hl_total_all wakeup); lh_sample events of type=wakeup: $(grep -c 'lh_sample: *type=wakeup ' "$LH_TMP/report")"
	[ "$(hl_total_all wakeup)" -gt 0 ] || lh_err "no wakeup sample was recorded"
	lh_case_end trace_cmd_records_one_event_per_sample
fi

# ------------------------------------------------------------ 2. unreached threshold
lh_case_begin
echo 1 >"$T/tracing_on"
lh_filter wakeup 0
lh_reset wakeup
lh_expect_write_ok "$LH_DIR/wakeup/threshold" 2147483647
lh_expect_content "$LH_DIR/wakeup/threshold" 2147483647
lh_enable wakeup
lh_activity
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
lh_expect_write_ok "$LH_DIR/wakeup/threshold" 0
[ "$(hl_total_all wakeup)" -gt 0 ] || lh_err "no wakeup sample: the threshold was never compared"
[ "$(cat "$T/tracing_on")" = 1 ] || lh_err "tracing stopped though no sample reached the threshold"
lh_case_end an_unreached_threshold_leaves_tracing_on

# ------------------------------------------------------------ 3. threshold hit
lh_case_begin
# 48 sections with 3 ms gaps, started before the sleeper's loops: see
# wakeup_injected.sh for why a section cycle near the period never lines up.
if ! lt_load cpu=1 mode=irq delay_us=$N count=48 gap_us=3000; then
	lh_skip a_threshold_stops_tracing_and_says_why "$LH_REQ_WHY"
else
	echo 0 >"$T/tracing_on"
	echo >"$T/trace"
	echo 1 >"$T/events/latency_hist/lh_threshold/enable"
	sl_start "$LH_TMP/sl" -c 1 -p 80 -i 10000 -l 40 || lh_bail "rt_sleeper did not start"
	lh_filter $H "$SL_TID"
	lh_reset $H
	lh_expect_write_ok "$LH_DIR/$H/threshold" $BOUND
	lh_enable $H
	echo 1 >"$T/tracing_on"
	sl_go_and_wait 1
	lh_expect_write_ok "$LH_DIR/enable/$H" 0
	on=$(cat "$T/tracing_on")
	echo 0 >"$T/events/latency_hist/lh_threshold/enable"
	grep 'lh_threshold:' "$T/trace" | tail -n 1 >"$LH_TMP/hit"
	echo 1 >"$T/tracing_on"
	lh_diag "tracing_on: $on; $H/CPU1 maximum $(hl_max $H 1) us; event: $(cat "$LH_TMP/hit")"
	[ "$on" = 0 ] || lh_err "tracing_on reads $on after a $H sample >= $BOUND us"
	lat=$(sed -n 's/.*lh_threshold: *type=missed_timer_offsets cpu=1 latency_us=\([0-9]*\) threshold_us='$BOUND':.*/\1/p' "$LH_TMP/hit")
	hmax=$(hl_max $H 1)	# exact: a sample >= 10240 us has no row
	case $hmax in '' | *[!0-9]*) hmax=0 ;; esac
	if [ -z "$lat" ]; then
		lh_err "no lh_threshold event 'type=$H cpu=1 ... threshold_us=$BOUND' in the buffer"
	elif [ "$lat" -lt $BOUND ]; then
		lh_err "lh_threshold event latency $lat us < the threshold $BOUND us"
	elif [ "$hmax" -lt "$lat" ]; then
		lh_err "lh_threshold event latency $lat us > every $H/CPU1 sample (maximum $hmax us)"
	fi
	lh_expect_write_ok "$LH_DIR/$H/threshold" 0
	lt_unload
	lh_case_end a_threshold_stops_tracing_and_says_why
fi

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
