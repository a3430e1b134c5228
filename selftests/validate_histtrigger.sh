#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086,SC2016 # lh_load_or_bail takes optional parameters; A && B || C; word lists; $vars of hist triggers
#
# validate_histtrigger.sh - our wakeup histogram against the kernel's own hist
# triggers, recording the same wakeups at the same time
#
# Proves (Documentation/validation.rst, "hist triggers"): while a SCHED_FIFO
# 80 rt_sleeper on CPU 1 wakes L times (wakeup/pid on its thread), the
# wakeup-latency recipe of Documentation/trace/histogram.rst (sched_waking
# saves common_timestamp in $ts0, sched_switch to the same pid computes the
# difference and sends it to a synthetic event whose histogram is keyed by
# latency; both filtered on the same thread, trace_clock mono, the clock of
# our wakeup probes) records the same wakeups, and:
#  1. totals agree within 0.5 % (ours: wakeup + wakeup/sharedprio, the
#     recipe has no priority rule; the sleeper is the only RT task woken on
#     CPU 1, so both see the same set);
#  2. paired by rank, >= 99 % of the samples are in the same or an adjacent
#     1 us bucket: the recipe subtracts two timestamps each truncated to us
#     (ours truncates the difference), and the two probes of one tracepoint
#     read the clock at different instants, a few us apart under emulation;
#  3. the maxima differ by at most 1 us.
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: rt_sleeper cpu1 tracefs synthetic-events not-lockdep

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

L=400
PERIOD=5000
PRIO=80
SYN=lhv_wakeup_lat

sl_setup
T=$(lh_tracefs)
lh_plan 4
lh_load_or_bail

sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
tid=$SL_TID
W_TRIG="hist:keys=pid:ts0=common_timestamp.usecs if pid == $tid"
S_TRIG="hist:keys=next_pid:lat=common_timestamp.usecs-\$ts0:onmatch(sched.sched_waking).trace($SYN,next_pid,\$lat) if next_pid == $tid"
H_TRIG="hist:keys=lat:sort=lat"

# Our probes first: hooked before the triggers, they run first at each
# tracepoint, and the triggers' clock reads follow ours by about the same
# few hundred instructions at sched_waking and at sched_switch.
lh_filter wakeup "$tid"
lh_reset wakeup wakeup/sharedprio
lh_enable wakeup
old_clock=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$T/trace_clock")
echo mono >"$T/trace_clock" || lh_bail "cannot select the mono trace clock"
echo "$SYN pid_t pid; u64 lat" >>"$T/synthetic_events" || lh_bail "cannot create the synthetic event"
echo "$H_TRIG" >>"$T/events/synthetic/$SYN/trigger" &&
	echo "$W_TRIG" >>"$T/events/sched/sched_waking/trigger" &&
	echo "$S_TRIG" >>"$T/events/sched/sched_switch/trigger" ||
	lh_bail "cannot set the hist triggers: $(tail -n 3 "$T/error_log" 2>/dev/null)"

sl_go
sl_wait
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
cat "$T/events/synthetic/$SYN/hist" >"$LH_TMP/hist"

echo "!$S_TRIG" >>"$T/events/sched/sched_switch/trigger"
echo "!$W_TRIG" >>"$T/events/sched/sched_waking/trigger"
echo "!$H_TRIG" >>"$T/events/synthetic/$SYN/trigger"
echo "!$SYN" >>"$T/synthetic_events"
[ -n "$old_clock" ] && echo "$old_clock" >"$T/trace_clock"
sl_show_summary
hl_show_totals wakeup wakeup/sharedprio

# The samples of each side, one per line, sorted.
vl_ours_cpu 1 "$LH_TMP/ours"
awk '/^\{ lat:/ { v = $3 + 0; n = $NF + 0; if (v > 10240) v = 10240; for (i = 0; i < n; i++) print v }' \
	"$LH_TMP/hist" | sort -n >"$LH_TMP/theirs"
vl_compare "hist triggers" "$LH_TMP/ours" "$LH_TMP/theirs" $L

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
