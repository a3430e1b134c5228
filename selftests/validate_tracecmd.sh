#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086 # lh_load_or_bail takes optional parameters; word lists
#
# validate_tracecmd.sh - our wakeup histogram against the same histogram
# computed offline, with our algorithm, from a trace-cmd recording of the
# same run
#
# Proves (Documentation/validation.rst, "trace-cmd"): while a SCHED_FIFO 80
# rt_sleeper on CPU 1 wakes L times (wakeup/pid on its thread), trace-cmd
# records sched_waking, sched_wakeup_new, sched_migrate_task and sched_switch
# of that thread (trace clock mono, our wakeup clock). An awk script applies
# the documented rules for one followed thread: a wakeup starts at
# sched_waking or sched_wakeup_new, ends at the switch that runs the thread,
# follows it through migrations, and is dropped when the thread is switched
# out before that (it was running already); the latency is the difference
# truncated to us. Then, on CPU 1 (see validate_lib.sh): totals within
# 0.5 %, >= 99 % of the samples paired by rank in the same or an adjacent
# bucket, maxima within 1 us. A recording that lost events is compared on
# what it holds, and says so (trace-cmd marks lost events in its report).
# The report is read without plugins (-N): the kernel's own field=value
# format, which the sched_switch plugin would rewrite.
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: rt_sleeper cpu1 trace-cmd tracefs not-lockdep

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

L=400
PERIOD=5000
PRIO=80

sl_setup
lh_plan 4
lh_load_or_bail

sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
tid=$SL_TID
# Our probes first, as in validate_histtrigger.sh.
lh_filter wakeup "$tid"
lh_reset wakeup wakeup/sharedprio
lh_enable wakeup
trace-cmd record -q -C mono -o "$LH_TMP/trace.dat" \
	-e sched:sched_waking -f "pid == $tid" \
	-e sched:sched_wakeup_new -f "pid == $tid" \
	-e sched:sched_migrate_task -f "pid == $tid" \
	-e sched:sched_switch -f "prev_pid == $tid || next_pid == $tid" \
	>"$LH_TMP/record.out" 2>&1 &
rec=$!
# trace-cmd is recording once its per-CPU readers run: wait for the buffer.
n=0
until grep -q 1 "$(lh_tracefs)/events/sched/sched_switch/enable" 2>/dev/null || [ $n -ge 100 ]; do
	lh_sleep_s 0.1
	n=$((n + 1))
done
lh_sleep_s 1
sl_go
sl_wait
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
kill -INT $rec
wait $rec || lh_diag "trace-cmd record exited $?: $(tail -n 3 "$LH_TMP/record.out")"
trace-cmd report -N -t -i "$LH_TMP/trace.dat" >"$LH_TMP/report" 2>"$LH_TMP/report.err" ||
	lh_bail "trace-cmd report failed: $(tail -n 3 "$LH_TMP/report.err")"
sl_show_summary
hl_show_totals wakeup wakeup/sharedprio

lost=$(awk 'match($0, /LOST [0-9]+ EVENTS/) { n += substr($0, RSTART + 5) + 0 } END { print n + 0 }' "$LH_TMP/report")
[ "$lost" = 0 ] || lh_diag "trace-cmd lost $lost events: compared on what it recorded"

# Our rules for one followed thread, from the report: "comm-pid [cpu] s.ns: event: fields".
awk -v tid="$tid" '
	function ns(ts) { sub(/:$/, "", ts); split(ts, p, "."); return p[1] * 1000000000 + p[2] }
	function field(name,   i) { for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) return substr($i, length(name) + 2); return "" }
	{
		for (e = 1; e <= NF; e++) if ($e ~ /^sched_[a-z_]+:$/) break
		if (e > NF) next
		ev = $e; t = ns($(e - 1))
		cpu = $(e - 2); gsub(/[^0-9]/, "", cpu); cpu += 0
	}
	ev == "sched_waking:" || ev == "sched_wakeup_new:" { if (field("pid") == tid) { start = t; pending = 1 } next }
	ev == "sched_switch:" && pending {
		if (field("next_pid") == tid) {
			lat = int((t - start) / 1000)
			print cpu, (lat > 10240 ? 10240 : lat); pending = 0
		} else if (field("prev_pid") == tid)
			pending = 0	# it was running: no wakeup to measure
	}' "$LH_TMP/report" >"$LH_TMP/offline"
awk '$1 == 1 { print $2 }' "$LH_TMP/offline" | sort -n >"$LH_TMP/theirs"
lh_diag "offline samples: $(wc -l <"$LH_TMP/offline") ($(awk '$1 != 1' "$LH_TMP/offline" | wc -l) not on CPU 1)"
[ -s "$LH_TMP/offline" ] ||
	lh_diag "report: $(grep -c . "$LH_TMP/report") lines, e.g. $(grep -m 2 sched_ "$LH_TMP/report" | tr '\n' ' ')"
vl_ours_cpu 1 "$LH_TMP/ours"
vl_compare trace-cmd "$LH_TMP/ours" "$LH_TMP/theirs" $L

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
