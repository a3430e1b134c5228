#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_outliers.sh - host tests of lh's side of the outlier log (issue 46):
# `lh outliers` (table, --cpu, --since, --json, errors), the outlier
# counters of lh prom, lh monitor's outlier events and lh report's outliers
# per day, against outliers-CPUx
# files that fixture.awk writes in the module's format
# (module/outlier_print.c). Each case runs lh with LH_ROOT on a tree made
# here, once per flavour of the tools lh may meet on a rig (gawk, mawk,
# busybox: see host_lib.sh); a flavour whose tools are missing is skipped.
# python3 checks the JSON strictly when present.
#
# Usage: sh selftests/lh_host/test_outliers.sh [FLAVOUR..]
# Prints KTAP: one "ok N flavour: case" line per case, then the plan and the
# kselftest "# Totals:" line; exit 1 if any failed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LT_DIR/host_lib.sh"
PY=$(command -v python3 2>/dev/null)

# expect_out FILE WHAT - err unless the last lh's stdout is FILE's text
expect_out()
{
	cmp -s "$1" "$TMP/out" || err "$2: output differs: $(diff "$1" "$TMP/out" | head -n 8 | tr '\n' '|')"
}

# make_tree DIR [SPEC..] - a tree of 2 CPUs, budgets of 4000 us on wakeup
# and missed_timer_offsets (0, none, on wakeup/sharedprio), outliers of every
# cause on both CPUs; CPU1 of wakeup dropped seq 1..11. More spec lines may
# follow.
make_tree()
{
	MT_D=$1
	shift
	rm -rf "$MT_D"
	{
		cat <<'EOF'
cpus 2
status wakeup available=1 enabled=1 bytes=0 explain=1 outliers=1
status wakeup/sharedprio available=1 enabled=1 bytes=0 explain=1 outliers=1
status missed_timer_offsets available=1 enabled=1 bytes=0 explain=1 outliers=1
budget wakeup 4000
budget missed_timer_offsets 4000
budget wakeup/sharedprio 0
outlier wakeup 1 12 2073374100 7702 hardirq vector 236 local_timer
outlier wakeup 1 13 3073374100 4100 thread thread 77 lh_spin
outlierlog wakeup 1 dropped=11
outlier wakeup 0 1 2500000000 5000 softirq softirq 7 SCHED
outlier missed_timer_offsets 0 3 2600000000 6000 unexplained
outlierlog missed_timer_offsets 0 dropped=2
EOF
		for MT_L in "$@"; do
			echo "$MT_L"
		done
	} >"$TMP/spec"
	awk -v out="$MT_D" -f "$LT_DIR/fixture.awk" "$TMP/spec" || err "fixture.awk failed"
}

# case_table - every record, oldest first, across types and CPUs
case_table()
{
	lh outliers
	expect_rc 0 "lh outliers"
	cat >"$TMP/want" <<'EOF'
TIME (UTC)               CPU TYPE                      US CAUSE       DETAIL                     VICTIM <- CULPRIT
2025-12-06 05:46:42.073    1 wakeup                  7702 hardirq     vector 236 local_timer     rt_sleeper/412 <- swapper/1/0
2025-12-06 05:46:42.500    0 wakeup                  5000 softirq     softirq 7 SCHED            rt_sleeper/401 <- swapper/0/0
2025-12-06 05:46:42.600    0 missed_timer_offsets    6000 unexplained -                          rt_sleeper/403 <- swapper/0/0
2025-12-06 05:46:43.073    1 wakeup                  4100 thread      thread lh_spin/77          rt_sleeper/413 <- lh_spin/77
EOF
	expect_out "$TMP/want" "lh outliers"
	lh outliers wakeup --cpu 0,1
	expect_rc 0 "lh outliers wakeup --cpu 0,1"
	grep -v missed_timer_offsets "$TMP/want" >"$TMP/want1"
	expect_out "$TMP/want1" "lh outliers wakeup --cpu 0,1"
	lh outliers wakeup --cpu=1
	expect_rc 0 "lh outliers wakeup --cpu=1"
	[ "$(grep -c ' 1 wakeup ' "$TMP/out")" = 2 ] && [ "$(wc -l <"$TMP/out")" = 3 ] ||
		err "lh outliers wakeup --cpu=1: '$(cat "$TMP/out")'"
	case_end table_oldest_first_wall_clock_cause_victim_culprit
}

# case_since - --since SEQ keeps the records after it and says what was
# dropped in between; --since DURATION keeps the recent ones by wall clock
case_since()
{
	lh outliers wakeup --cpu 1 --since 12
	expect_rc 0 "--since 12"
	[ "$(wc -l <"$TMP/out")" = 2 ] && grep -q ' 4100 thread ' "$TMP/out" ||
		err "--since 12: '$(cat "$TMP/out")'"
	[ ! -s "$TMP/err" ] || err "--since 12 warned: $(cat "$TMP/err")"
	lh outliers wakeup --cpu 1 --since 5
	expect_rc 0 "--since 5"
	[ "$(wc -l <"$TMP/out")" = 3 ] || err "--since 5: '$(cat "$TMP/out")'"
	expect_err "wakeup CPU1: 6 records after seq 5 were dropped before this read (the oldest kept is 12)" "--since 5"
	lh outliers --since 13
	expect_rc 0 "--since 13"
	grep -q '^no outliers after seq 13$' "$TMP/out" || err "--since 13: '$(cat "$TMP/out")'"
	# records of a minute ago on CPU1 of missed_timer_offsets, of 2025 elsewhere
	now=$(date -u +%s)
	make_tree "$TMP/recent" "outlier missed_timer_offsets 1 9 2000000000 4500 nmi" \
		"outlierlog missed_timer_offsets 1 realtime_offset_ns=$((now - 62))000000000"
	LH_ROOT=$TMP/recent lh outliers --since 2m
	expect_rc 0 "--since 2m"
	[ "$(wc -l <"$TMP/out")" = 2 ] && grep -q '^[-0-9]* [0-9:.]*    1 missed_timer_offsets    4500 nmi ' "$TMP/out" ||
		err "--since 2m: '$(cat "$TMP/out")'"
	LH_ROOT=$TMP/recent lh outliers --since 30s
	expect_rc 0 "--since 30s"
	grep -q '^no outliers in the last 30 s$' "$TMP/out" || err "--since 30s: '$(cat "$TMP/out")'"
	for bad in x 1x 01 -1 0s; do
		lh outliers --since "$bad"
		expect_rc 2 "--since $bad"
	done
	lh outliers --since
	expect_rc 2 "--since without a value"
	expect_err "outliers: --since needs" "--since without a value"
	case_end since_seq_reports_dropped_and_since_duration_by_wall_clock
}

# case_json - --json is strict JSON with the logs' headers and the records
case_json()
{
	lh outliers --json
	expect_rc 0 "lh outliers --json"
	if [ -z "$PY" ]; then
		grep -q '"time": "2025-12-06T05:46:42.073374Z"' "$TMP/out" || err "no time in $(head -c 300 "$TMP/out")"
		case_end json_has_the_logs_and_records
		return
	fi
	res=$("$PY" -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema_version"] >= 1
logs = {(l["type"], l["cpu"]): l for l in d["logs"]}
assert sorted(logs) == [("missed_timer_offsets", 0), ("missed_timer_offsets", 1), ("wakeup", 0), ("wakeup", 1)], sorted(logs)
w = logs[("wakeup", 1)]
assert w == {"type": "wakeup", "cpu": 1, "budget_us": 4000, "filed": 13, "kept": 2, "dropped": 11, "unexplained": 0,
    "first_seq": 12, "next_seq": 14, "realtime_offset_ns": 1765000000000000000}, w
assert logs[("missed_timer_offsets", 0)]["unexplained"] == 1
o = d["outliers"]
assert [(r["type"], r["cpu"], r["seq"]) for r in o] == [("wakeup", 1, 12), ("wakeup", 0, 1), ("missed_timer_offsets", 0, 3), ("wakeup", 1, 13)], o
r = o[0]
assert r["time_ns"] == 2073374100 and r["time"] == "2025-12-06T05:46:42.073374Z", r
assert r["latency_us"] == 7702 and r["cause"] == "hardirq" and r["window_ns"] == 7702500
assert r["cause_detail"] == {"kind": "vector", "id": 236, "name": "local_timer"}, r["cause_detail"]
assert sum(r[c] for c in ("hardirq", "softirq", "nmi", "thread", "other")) == r["window_ns"]
assert r["victim"] == {"pid": 412, "prio": 80, "comm": "rt_sleeper"} and r["culprit"] == {"pid": 0, "prio": -21, "comm": "swapper/1"}
assert r["details"] == ["vector 236 local_timer 1 7702000", "idle 500"], r["details"]
assert o[2]["cause"] == "unexplained" and o[2]["cause_detail"] is None
' <"$TMP/out" 2>&1) || err "JSON: $res"
	case_end json_has_the_logs_and_records
}

# case_errors - a type without a log or a budget, bad options, a malformed
# file: exit 2, a clear error, nothing on stdout
case_errors()
{
	lh outliers switchtime
	expect_rc 2 "a type without outliers=1"
	expect_err "outliers: 'switchtime' has no outlier log (types with outliers=1 in status: wakeup wakeup/sharedprio missed_timer_offsets)" \
		"a type without outliers=1"
	lh outliers wakeup/sharedprio
	expect_rc 2 "a type without a budget"
	expect_err "outliers: wakeup/sharedprio has no budget: echo US > $LH_ROOT/wakeup/sharedprio/outlier_us" "a type without a budget"
	lh outliers --cpu 2-x
	expect_rc 2 "--cpu 2-x"
	expect_err "outliers: --cpu 'x' is not a CPU number" "--cpu 2-x"
	lh outliers --cpu 5
	expect_rc 2 "--cpu 5 of 2 CPUs"
	lh outliers --bogus
	expect_rc 2 "an unknown option"
	cp -R "$LH_ROOT" "$TMP/bad"
	sed 's/ other=500 / other=501 /' "$LH_ROOT/wakeup/outliers-CPU1" >"$TMP/bad/wakeup/outliers-CPU1"
	LH_ROOT=$TMP/bad lh outliers
	expect_rc 2 "categories that do not add up"
	expect_err "outliers-CPU1:2: the categories do not add up to window_ns" "categories that do not add up"
	[ ! -s "$TMP/out" ] || err "a malformed file printed '$(head -c 200 "$TMP/out")'"
	sed 's/ kept=2 / kept=3 /' "$LH_ROOT/wakeup/outliers-CPU1" >"$TMP/bad/wakeup/outliers-CPU1"
	LH_ROOT=$TMP/bad lh outliers
	expect_rc 2 "a header whose counts disagree"
	expect_err "kept + dropped is not filed" "a header whose counts disagree"
	rm -rf "$TMP/bad"
	case_end errors_exit_2_and_print_nothing
}

# case_prom - lh prom: the records of each log by cause, and dropped
case_prom()
{
	lh prom
	expect_rc 0 "lh prom"
	for want in 'latency_hist_outliers_total{type="wakeup",cpu="1",cause="hardirq"} 1' \
		'latency_hist_outliers_total{type="wakeup",cpu="1",cause="thread"} 1' \
		'latency_hist_outliers_total{type="wakeup",cpu="1",cause="softirq"} 0' \
		'latency_hist_outliers_total{type="wakeup",cpu="0",cause="softirq"} 1' \
		'latency_hist_outliers_total{type="missed_timer_offsets",cpu="0",cause="unexplained"} 1' \
		'latency_hist_outliers_dropped_total{type="wakeup",cpu="1"} 11' \
		'latency_hist_outliers_dropped_total{type="missed_timer_offsets",cpu="0"} 2' \
		'# TYPE latency_hist_outliers_total counter'; do
		grep -qxF "$want" "$TMP/out" || err "lh prom lacks '$want'"
	done
	! grep -q 'outliers.*type="wakeup/sharedprio"' "$TMP/out" || err "lh prom has series of a type without a budget"
	[ "$(grep -c '^latency_hist_outliers_total{' "$TMP/out")" = 24 ] ||
		err "lh prom: $(grep -c '^latency_hist_outliers_total{' "$TMP/out") outliers_total series, expected 4 logs x 6 causes"
	case_end prom_outliers_by_cause_and_dropped
}

# mon_step SPEC_LINES - one lh monitor read (a new process each: a restart)
# of a tree of wakeup's CPU1 log holding SPEC_LINES, into $TMP/m
mon_step()
{
	{
		printf '%s\n' "cpus 2" "status wakeup available=1 enabled=1 bytes=0 explain=1 outliers=1" "budget wakeup 4000"
		printf '%s\n' "$@"
	} >"$TMP/mspec"
	rm -rf "$TMP/mt"
	awk -v out="$TMP/mt" -f "$LT_DIR/fixture.awk" "$TMP/mspec" || err "fixture.awk failed"
	LH_ROOT=$TMP/mt lh monitor --interval 5 --count 0 --types wakeup --out "$TMP/m" --prom "$TMP/m/lh.prom"
	expect_rc 0 "lh monitor"
}

# case_monitor - three reads, each a new lh monitor: every record goes to
# the series once; records the full log dropped before a read are one
# outliers_missed event; the counters of --prom never go down, across a
# reset (filed and dropped start again) too
case_monitor()
{
	rm -rf "$TMP/m"
	mkdir "$TMP/m"
	mon_step "outlier wakeup 1 1 2073374100 7702 hardirq vector 236 local_timer" \
		"outlier wakeup 1 2 3073374100 4100 thread thread 77 lh_spin"
	[ ! -s "$TMP/err" ] || err "read 1 warned: $(cat "$TMP/err")"
	mon_step "outlier wakeup 1 1 2073374100 7702 hardirq vector 236 local_timer" \
		"outlier wakeup 1 2 3073374100 4100 thread thread 77 lh_spin" \
		"outlier wakeup 1 3 4073374100 5100 softirq softirq 7 SCHED"
	# a reset after seq 3 (filed 0), then 8 outliers into a log of 2: seq
	# 4..9 dropped, 10 and 11 kept
	mon_step "outlier wakeup 1 10 5073374100 7702 hardirq vector 236 local_timer" \
		"outlier wakeup 1 11 6073374100 4100 nmi" "outlierlog wakeup 1 dropped=6"
	expect_err "monitor: wakeup CPU1: 6 outlier records after seq 3 were dropped before lh read them" "read 3"
	seqs=$(grep '"event": "outlier"' "$TMP/m/series.jsonl" | sed 's/.*"outlier": {"type": "wakeup", "cpu": 1, "seq": \([0-9]*\),.*/\1/' | tr '\n' ' ')
	[ "$seqs" = "1 2 3 10 11 " ] || err "the series has the records of seq '$seqs', expected '1 2 3 10 11 '"
	[ "$(grep -c '"event": "outliers_missed", "type": "wakeup", "cpu": "1", "after_seq": 3, "first_seq": 10, "missed": 6}' "$TMP/m/series.jsonl")" = 1 ] ||
		err "no single outliers_missed event: $(grep missed "$TMP/m/series.jsonl")"
	for want in 'latency_hist_outliers_total{type="wakeup",cpu="1",cause="hardirq"} 2' \
		'latency_hist_outliers_total{type="wakeup",cpu="1",cause="thread"} 1' \
		'latency_hist_outliers_total{type="wakeup",cpu="1",cause="softirq"} 1' \
		'latency_hist_outliers_total{type="wakeup",cpu="1",cause="nmi"} 1' \
		'latency_hist_outliers_dropped_total{type="wakeup",cpu="1"} 6'; do
		grep -qxF "$want" "$TMP/m/lh.prom" || err "monitor --prom lacks '$want'"
	done
	# the same tree again: nothing new; then a reset that empties the log
	# (dropped back to 0, the numbers go on): the counters stay
	mon_step "outlier wakeup 1 10 5073374100 7702 hardirq vector 236 local_timer" \
		"outlier wakeup 1 11 6073374100 4100 nmi" "outlierlog wakeup 1 dropped=6"
	mon_step "outlierlog wakeup 1 first_seq=12 next_seq=12"
	[ "$(grep -c '"event": "outlier"' "$TMP/m/series.jsonl")" = 5 ] || err "a record went to the series twice"
	grep -qxF 'latency_hist_outliers_dropped_total{type="wakeup",cpu="1"} 6' "$TMP/m/lh.prom" ||
		err "dropped_total after a reset: $(grep dropped_total "$TMP/m/lh.prom")"
	grep -qxF 'latency_hist_outliers_total{type="wakeup",cpu="1",cause="hardirq"} 2' "$TMP/m/lh.prom" ||
		err "outliers_total after a reset: $(grep 'cause="hardirq"' "$TMP/m/lh.prom")"
	# a monitor that starts on a log which dropped records misses none
	rm -rf "$TMP/m"
	mkdir "$TMP/m"
	mon_step "outlier wakeup 1 5 2073374100 7702 hardirq vector 236 local_timer" "outlierlog wakeup 1 dropped=4"
	! grep -q outliers_missed "$TMP/m/series.jsonl" && [ ! -s "$TMP/err" ] ||
		err "the first read reported records dropped before it: $(cat "$TMP/err")"
	[ "$(grep -c '"event": "outlier"' "$TMP/m/series.jsonl")" = 1 ] || err "the first read did not take the record it found"
	case_end monitor_three_restarts_each_outlier_once_gap_reported_counters_monotonic
}

# case_report - lh report: outliers per day, type and cause, the worst of each
case_report()
{
	rm -rf "$TMP/m"
	mkdir "$TMP/m"
	mon_step "outlier wakeup 1 1 2073374100 7702 hardirq vector 236 local_timer" \
		"outlier wakeup 1 2 3073374100 4100 thread thread 77 lh_spin"
	mon_step "outlier wakeup 1 5 5073374100 5702 hardirq vector 236 local_timer" \
		"outlier wakeup 1 6 90000000000000 4500 hardirq irq 11 virtio0" "outlierlog wakeup 1 dropped=4"
	lh report "$TMP/m"
	expect_rc 0 "lh report"
	sed -n '/^Outliers/,$p' "$TMP/out" >"$TMP/got"
	cat >"$TMP/want" <<'EOF'
Outliers per day (UTC), by type and cause, and the worst of each (2 missed: dropped before lh read them):
  day         type                 cause         count worst(us)  CPU  at            detail
  2025-12-06  wakeup               hardirq           2      7702    1  05:46:42.073  vector local_timer
  2025-12-06  wakeup               thread            1      4100    1  05:46:43.073  thread lh_spin
  2025-12-07  wakeup               hardirq           1      4500    1  06:46:40.000  irq virtio0
EOF
	cmp -s "$TMP/want" "$TMP/got" || err "lh report: $(diff "$TMP/want" "$TMP/got" | tr '\n' '|')"
	case_end report_outliers_per_day_type_cause_and_worst
}

echo "TAP version 13"
make_tree "$TMP/t"
export LH_ROOT="$TMP/t"
for f in ${*:-gawk mawk busybox}; do
	if ! flavour "$f"; then
		FLAVOUR=$f
		skip all "$f is not installed"
		continue
	fi
	case_table
	case_since
	case_json
	case_errors
	case_prom
	case_monitor
	case_report
done

echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
