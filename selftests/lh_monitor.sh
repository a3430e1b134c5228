#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# lh_monitor.sh - `lh monitor` against the real module: an injected latency
# lands in the interval it happened in, and the histograms are never reset
#
# Proves (Documentation/lh.rst, "lh monitor"): while `lh monitor --interval
# S --count 3 --types wakeup` runs (under busybox when the guest has it:
# busybox sh with only busybox applets in PATH, as on a minimal rig),
# a SCHED_FIFO sleeper on CPU 1 (pid filter on it) wakes every 10 ms, and in
# the middle of interval 2 lh_load_test holds preemption off on CPU 1 for
# N = 30 ms. Then:
#   - interval 2's CPU 1 record has a sample >= 10240 us (the wakeup due in
#     the section waits >= N - 10 ms), and, unless the emulator alone made
#     one as large (below), its maximum is at least N/2, above the 10240 us
#     rows, so its value is the max record's, which names the sleeper as
#     victim and lh_load_test as culprit, and intervals 1 and 3 stay below
#     N/2. Emulation noise is 0.7-8 ms, but a loaded host once stalled the
#     guest for 296 and 528 ms in intervals 1 and 3: when interval 1 or 3
#     or the samples before the monitor (the max record) reach N/2, or
#     interval 2 exceeds N (more than the section causes), that part is
#     skipped and says so;
#   - nothing was reset: the histogram before the monitor keeps its
#     samples, and the three intervals' records, row by row, add up to what
#     the histogram gained (the sleeper runs only while the monitor does);
#   - lh report's worst interval is the series' largest maximum (interval
#     2's, rt_sleeper <- lh_load_test, without such noise), lh plot
#     --over-time draws the series (with gnuplot), the --prom file carries
#     the last interval's maximum.
# A last case enables every available type and lets the monitor run three
# intervals: every interval has its records, and the CPU time of a read is
# printed (the figure Documentation/lh.rst quotes).
#
# requires: rt_sleeper cpu1 lh-tool lh_load_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}
S=10		# the interval, seconds: longer than a read under emulation
N=30000		# the injected preempt-off section, us
PERIOD=10000	# the sleeper's period, us
BOUND=$((N / 2))
PRIO=80

sl_setup
lh_plan 6
lh_load_or_bail
lt_load cpu=1 mode=preempt delay_us=$N count=1 gap_us=0 ||
	lh_bail "lh_load_test not available"
LH_ROOT=$LH_DIR
export LH_ROOT

# The monitor's shell and tools: busybox only when the guest has it.
MON_SH="sh"
MON_PATH=$PATH
BB=$(command -v busybox 2>/dev/null)
if [ -n "$BB" ]; then
	mkdir -p "$LH_TMP/bb"
	# one process for all links (an exec each costs 0.1 s under emulation)
	if ! "$BB" --install -s "$LH_TMP/bb" 2>/dev/null; then
		for a in $("$BB" --list); do
			ln -s "$BB" "$LH_TMP/bb/$a"
		done
	fi
	MON_SH="$BB sh"
	MON_PATH=$LH_TMP/bb
	lh_diag "lh monitor runs under busybox ($("$BB" | head -n 1))"
fi
PIN=
command -v taskset >/dev/null 2>&1 && PIN="taskset -c 0"

# lh ARGS.. - run scripts/lh as the monitor does; stdout in $LH_TMP/out,
# stderr in $LH_TMP/err, exit status in LH_RC
lh()
{
	PATH=$MON_PATH $PIN $MON_SH "$LH_TOOL" "$@" >"$LH_TMP/out" 2>"$LH_TMP/err"
	LH_RC=$?
}

# field LINE KEY - the value of KEY in a series line (lh's own lines: the
# first "KEY": is the top-level one); strings without their quotes
field()
{
	printf '%s\n' "$1" | awk -v k="$2" '{
		i = index($0, "\"" k "\": "); if (!i) exit
		s = substr($0, i + length(k) + 4)
		if (substr(s, 1, 1) == "\"") { s = substr(s, 2); print substr(s, 1, index(s, "\"") - 1); exit }
		sub(/[,}].*/, "", s); print s }'
}

# rows FILE.. - "usecs count" of the non-zero rows summed over FILEs, then
# "below N" and "above N"
rows()
{
	awk 'FNR == 5 { below += $3 } FNR == 6 { above += $3 } FNR > 7 && $2 != "0" { n[$1] += $2 }
	     END { for (b in n) print b, n[b]; print "below", below + 0; print "above", above + 0 }' "$@" | sort -n
}

# ---------------------------------------------------------------- the run
lh_case_begin
lh_write "$LH_DIR/enable/wakeup" 1 || lh_bail "cannot enable wakeup: $LH_RESULT"
# Samples before the monitor: they must still be there after it.
sl_start "$LH_TMP/pre" -c 1 -p $PRIO -i $PERIOD -l 20 || lh_bail "rt_sleeper did not start"
lh_filter wakeup "$SL_TID"
sl_go
sl_wait
sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l 0 || lh_bail "rt_sleeper did not start"
tid=$SL_TID
lh_filter wakeup "$tid"
for c in $LH_CPUS; do
	cat "$LH_DIR/wakeup/CPU$c" >"$LH_TMP/before.CPU$c"
done
rows "$LH_TMP"/before.CPU* >"$LH_TMP/rows.before"
total0=$(hl_total_all wakeup)
max0=$(hl_max wakeup 1)
lh_diag "before the monitor: wakeup holds $total0 samples, CPU 1's maximum is $max0 us"
[ "$total0" -gt 0 ] || lh_err "the sleeper before the monitor left no wakeup sample"

MON=$LH_TMP/mon
PATH=$MON_PATH $PIN $MON_SH "$LH_TOOL" monitor --interval $S --count 3 --out "$MON" --types wakeup \
	--prom "$LH_TMP/lh.prom" >"$LH_TMP/mon.out" 2>"$LH_TMP/mon.err" &
mon_pid=$!
n=0
until grep -q '"event": "start"' "$MON/series.jsonl" 2>/dev/null; do
	n=$((n + 1))
	[ $n -lt 600 ] && kill -0 $mon_pid 2>/dev/null ||
		lh_bail "lh monitor did not start: $(cat "$LH_TMP/mon.err")"
	lh_sleep_s 0.1
done
t_start=$(field "$(head -n 1 "$MON/series.jsonl")" time_epoch_s)
# the sleeper runs until 3 s before the last read, the section at 1.5 S
sl_go
now=$(date +%s)
[ $((t_start + S + S / 2 - now)) -le 0 ] || lh_sleep_s $((t_start + S + S / 2 - now))
lh_diag "injecting ${N} us at $(( $(date +%s) - t_start )) s after the start read"
echo 1 >"$LT_PARAMS/trigger" || lh_err "lh_load_test trigger failed"
now=$(date +%s)
[ $((t_start + 3 * S - 3 - now)) -le 0 ] || lh_sleep_s $((t_start + 3 * S - 3 - now))
kill -TERM "$SL_PID"
wait "$SL_PID"
SL_PID=
wait $mon_pid
mon_rc=$?
[ "$mon_rc" = 0 ] || lh_err "lh monitor exited $mon_rc: $(head -c 400 "$LH_TMP/mon.err")"
for c in $LH_CPUS; do
	cat "$LH_DIR/wakeup/CPU$c" >"$LH_TMP/after.CPU$c"
done
lh_write "$LH_DIR/enable/wakeup" 0
total1=$(awk 'FNR == 4 { n += $3 } END { print n + 0 }' "$LH_TMP"/after.CPU*)
hl_show_maxrecs wakeup
while IFS= read -r line; do
	lh_diag "series: $line"
done <<EOF
$(grep '"cpu": "1"\|"event"' "$MON/series.jsonl" | grep -v sharedprio | cut -c 1-260)
EOF
# The three interval records of wakeup CPU 1 and all.
grep '"type": "wakeup", "cpu": "1"' "$MON/series.jsonl" >"$LH_TMP/cpu1"
grep '"type": "wakeup", "cpu": "all"' "$MON/series.jsonl" >"$LH_TMP/all"
[ "$(wc -l <"$LH_TMP/cpu1")" -eq 3 ] && [ "$(wc -l <"$LH_TMP/all")" -eq 3 ] ||
	lh_err "the series holds $(wc -l <"$LH_TMP/cpu1") records of wakeup CPU 1, expected 3"
tail -n 1 "$MON/series.jsonl" | grep -q '"event": "stop", "reason": "after 3 intervals (--count)"' ||
	lh_err "the series does not end with the stop event: $(tail -n 1 "$MON/series.jsonl")"
lh_case_end monitor_runs_three_intervals

# ---------------------------------------------------------------- interval 2
# The section delays the wakeup due in it by >= N - PERIOD = 20 ms: interval
# 2 has a sample >= 10240 us, whatever else happened. That it is interval
# 2's maximum, from the max record, and no other interval's, is checked
# unless the emulator alone made a latency that large: a maximum >= N/2 in
# interval 1 or 3, or above N in interval 2 (more than the section can
# cause), was seen on a loaded host (296 and 528 ms, swapper/1 the culprit).
lh_case_begin
m1=$(field "$(sed -n 1p "$LH_TMP/cpu1")" max_us)
m2=$(field "$(sed -n 2p "$LH_TMP/cpu1")" max_us)
m3=$(field "$(sed -n 3p "$LH_TMP/cpu1")" max_us)
rec2=$(sed -n 2p "$LH_TMP/cpu1")
above2=$(field "$rec2" above)
lh_diag "wakeup CPU 1 interval maxima: $m1 / $m2 / $m3 us; interval 2 has $above2 samples >= 10240 us"
[ "${above2:-0}" -ge 1 ] ||
	lh_err "interval 2 has no sample >= 10240 us; its section delayed a wakeup by >= $((N - PERIOD)) us"
noise=
case $max0 in
*[!0-9]*) ;;
*) [ "$max0" -lt $BOUND ] || noise="before the monitor: a maximum of $max0 us" ;;
esac
for i in 1 3; do
	mi=
	eval "mi=\$m$i"
	case $mi in
	null) ;;
	">=10240") noise="${noise:+$noise; }interval $i: a maximum >= 10240 us" ;;
	*[!0-9]*) lh_err "interval $i's maximum is '$mi'" ;;
	*) [ "$mi" -lt $BOUND ] || noise="${noise:+$noise; }interval $i: a maximum of $mi us" ;;
	esac
done
case $m2 in
*[!0-9]*) ;;
*) [ "$m2" -le $N ] || noise="${noise:+$noise; }interval 2: $m2 us, more than a $N us section causes" ;;
esac
if [ -z "$noise" ]; then
	case $m2 in
	"" | *[!0-9]*) lh_err "interval 2's maximum is '$m2', not a number from the max record" ;;
	*)
		[ "$m2" -ge $BOUND ] || lh_err "interval 2's maximum $m2 us < $BOUND us with a $N us section"
		hl_maxrec wakeup 1
		[ "$MR_LAT" = "$m2" ] || lh_err "interval 2's maximum $m2 us is not the max record's $MR_LAT us"
		case $rec2 in
		*"\"max_latency\": {\"latency\": $m2, "*"\"victim\": {\"pid\": $tid, \"prio\": $PRIO, \"comm\": \"rt_sleeper\"}, \"culprit\": {"*"\"comm\": \"lh_load_test\"}"*) ;;
		*) lh_err "interval 2's record does not carry the max record of rt_sleeper <- lh_load_test: $rec2" ;;
		esac
		;;
	esac
	[ "$(field "$(sed -n 2p "$LH_TMP/all")" max_us)" = "$m2" ] ||
		lh_err "interval 2 of all CPUs has maximum $(field "$(sed -n 2p "$LH_TMP/all")" max_us), not $m2"
fi
if [ "$LH_ERRS" -eq 0 ] && [ -n "$noise" ]; then
	lh_skip the_injected_maximum_is_in_interval_2_only "emulation alone reached $BOUND us ($noise)"
else
	lh_case_end the_injected_maximum_is_in_interval_2_only
fi

# ---------------------------------------------------------------- no reset
lh_case_begin
rows "$LH_TMP"/after.CPU* >"$LH_TMP/rows.after"
# gained = after - before, row by row; a row that went down is a reset
awk 'NR == FNR { b[$1] = $2; next } { d = $2 - b[$1]; delete b[$1]; if (d) print $1, d }
     END { for (k in b) if (b[k]) print k, -b[k] }' "$LH_TMP/rows.before" "$LH_TMP/rows.after" | sort -n >"$LH_TMP/gained"
# the intervals' records: the all lines' histograms, below and above
awk '{
	h = $0; sub(/^.*"histogram": \{/, "", h); sub(/\}.*$/, "", h)
	n = split(h, hp, ", ")
	for (i = 1; i <= n; i++) { split(hp[i], kv, "\": "); g[substr(kv[1], 2) + 0] += kv[2] }
	s = $0; sub(/^.*"below": /, "", s); below += s + 0
	s = $0; sub(/^.*"above": /, "", s); above += s + 0
} END { for (b in g) print b, g[b]; if (below) print "below", below; if (above) print "above", above }' \
	"$LH_TMP/all" | sort -n >"$LH_TMP/recorded"
sum=$(awk '{ x = $0; sub(/^.*"samples": /, "", x); s += x + 0 } END { print s + 0 }' "$LH_TMP/all")
lh_diag "wakeup: $total0 samples before, $total1 after; the 3 intervals recorded $sum"
[ "$sum" -eq $((total1 - total0)) ] ||
	lh_err "the intervals recorded $sum samples, the histogram gained $((total1 - total0))"
if grep -q ' -' "$LH_TMP/gained"; then
	lh_err "rows went down (a reset?): $(grep ' -' "$LH_TMP/gained" | head -n 3 | tr '\n' ' ')"
fi
cmp -s "$LH_TMP/gained" "$LH_TMP/recorded" ||
	lh_err "the records' rows differ from what the histogram gained: $(diff "$LH_TMP/gained" "$LH_TMP/recorded" | head -n 6 | tr '\n' ' ')"
lh_case_end the_histograms_were_not_reset_and_records_add_up

# ---------------------------------------------------------------- report, plot, prom
lh_case_begin
lh report "$MON" --top 1
[ "$LH_RC" = 0 ] || lh_err "lh report exited $LH_RC: $(head -c 300 "$LH_TMP/err")"
worst=$(sed -n '/^Worst intervals/{n;n;p;}' "$LH_TMP/out")
lh_diag "lh report: $worst"
# the worst interval of the report is the largest maximum of the series
top=$(grep -v '"cpu": "all"\|"event"' "$MON/series.jsonl" | awk '{
	s = $0; sub(/^.*"max_us": /, "", s); sub(/,.*/, "", s); v = s == "\">=10240\"" ? 10240 : s == "null" ? -2 : s + 0
	if (v > best) { best = v; m = s; gsub(/"/, "", m); c = $0; sub(/^.*"cpu": "/, "", c); sub(/".*/, "", c) }
} END { print m, c }')
case $worst in
"  "*" ${top% *}  wakeup "*" ${top#* }  "*) ;;
*) lh_err "lh report's worst interval is not the series' largest maximum ($top): '$worst'" ;;
esac
if [ -z "$noise" ]; then
	case $worst in
	*" rt_sleeper/$tid <- lh_load_test/"*) ;;
	*) lh_err "lh report's worst interval does not name rt_sleeper <- lh_load_test: '$worst'" ;;
	esac
fi
days=$(sed -n '/^Per day/,$p' "$LH_TMP/out" | awk '$2 == "wakeup" { n += $3 } END { print n + 0 }')
[ "$days" = "$sum" ] ||
	lh_err "lh report's days hold $days wakeup samples, the records $sum: $(sed -n '/^Per day/,$p' "$LH_TMP/out" | tr '\n' '|')"
if command -v gnuplot >/dev/null 2>&1; then
	[ -z "$BB" ] || ln -s "$(command -v gnuplot)" "$LH_TMP/bb/gnuplot"
	lh plot --over-time "$MON" "$LH_TMP/over.png"
	[ "$LH_RC" = 0 ] && [ -s "$LH_TMP/over.png" ] || lh_err "lh plot --over-time exited $LH_RC: $(head -c 300 "$LH_TMP/err")"
else
	lh plot --over-time "$MON" --data
	[ "$LH_RC" = 0 ] && grep -q "^$(field "$rec2" time_epoch_s) $m2\$" "$LH_TMP/out" ||
		lh_err "lh plot --over-time --data lacks interval 2: $(head -c 300 "$LH_TMP/out")"
fi
last3=$(field "$(sed -n 3p "$LH_TMP/cpu1")" max_us)
case $last3 in
null) want=NaN ;;
">=10240") want=+Inf ;;
*) want=$(awk -v v="$last3" 'BEGIN { printf "%.6f", v / 1000000 }') ;;
esac
grep -q "^latency_hist_interval_max_latency_seconds{type=\"wakeup\",cpu=\"1\"} $want\$" "$LH_TMP/lh.prom" ||
	lh_err "lh.prom: wakeup CPU 1 interval maximum is not $want: $(grep 'interval_max.*"wakeup",cpu="1"' "$LH_TMP/lh.prom")"
lh_case_end report_plot_and_prometheus

# ---------------------------------------------------------------- every type
# Every available type on, the monitor keeps up: three reads, each with the
# records of every type, each covering the time since the one before. The
# CPU time of one read is the children's time of a run of three intervals
# minus that of a run of the start read alone.
lh_case_begin
lh_enable_available
ALL=$LH_TMP/all_types
PATH=$MON_PATH $MON_SH "$LH_TOOL" monitor --interval 3 --count 0 --out "$ALL" 2>"$LH_TMP/err" ||
	lh_err "lh monitor --count 0 with every type failed: $(head -c 300 "$LH_TMP/err")"
cpu0=$(PATH=$MON_PATH $PIN $MON_SH -c '"$@" >/dev/null 2>&1; times' sh $MON_SH "$LH_TOOL" monitor --interval 3 --count 0 --out "$ALL" | sed -n 2p)
cpu3=$(PATH=$MON_PATH $PIN $MON_SH -c '"$@" >/dev/null 2>&1; times' sh $MON_SH "$LH_TOOL" monitor --interval 3 --count 3 --out "$ALL" | sed -n 2p)
lh_disable_all
types=$(sed -n 's/.*"event": "start".*"types": \[\([^]]*\)\].*/\1/p' "$ALL/series.jsonl" | tail -n 1 | tr -d '",')
ntypes=$(echo $types | wc -w)
lh_diag "every type: $types; CPU time (user system): start read alone $cpu0, start read + 3 intervals $cpu3"
lh_diag "$(echo "$cpu0 $cpu3" | awk '{
	for (i = 1; i <= 4; i++) { split($i, a, "m"); t[i] = a[1] * 60 + a[2] }
	printf "one read of %d CPUx files (%d CPUs x %d types): %.2f s user + %.2f s system", nf, nc, nt,
	    (t[3] - t[1]) / 3, (t[4] - t[2]) / 3
}' nf="$(grep -c '^C ' "$ALL/monitor.state")" nc="$(echo $LH_CPUS | wc -w)" nt="$ntypes")"
# the reads after the last start: how many, and the types of each
reads=$(awk '/"event": "start"/ { delete n; nr = 0 }
	/"cpu": "all"/ { e = $0; sub(/^.*"time_epoch_s": /, "", e); e += 0; if (!(e in n)) nr++; n[e]++ }
	END { printf "%d", nr; for (e in n) printf " %d", n[e]; print "" }' "$ALL/series.jsonl")
want="4"
for i in 1 2 3 4; do
	want="$want $ntypes"
done
[ "$reads" = "$want" ] ||
	lh_err "with every type on: reads and their types '$reads', expected '$want' (the start read and 3 intervals)"
lh_case_end monitor_keeps_up_with_every_type

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
