#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# lh_tool.sh - scripts/lh against the real module: `lh run` around an
# injected wakeup latency, then lh's answers checked against the files
#
# Proves (Documentation/lh.rst): `lh run --types wakeup --snapshot DIR -- CMD`
# resets and enables wakeup, runs CMD, switches wakeup off again and saves a
# snapshot; while it runs, lh_load_test holds preemption off on CPU 1 for
# N = 8000 us sections and a SCHED_FIFO sleeper on CPU 1 (pid filter on it)
# waits through some of them (wakeup_injected.sh explains why at least one
# wait is >= N/2). Then:
#   - `lh json` parses strictly (python3 when the guest sees one, else the
#     awk checks below) and its per-CPU counts, maxima and buckets are the
#     CPUx files' own;
#   - `lh prom` counts equal the CPUx totals;
#   - `lh summary` prints exactly the summary files' lines, and a
#     `lh compare` gate on the maximum trips on the injected latency.
#
# requires: rt_sleeper cpu1 lh-tool lh_load_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}
L=40
PERIOD=10000
N=8000
BOUND=$((N / 2))
SECTIONS=48	# 3 ms gaps, >= 11 ms a cycle: outlasts the loops (wakeup_injected.sh)
PRIO=80

sl_setup
lh_plan 6
lh_load_or_bail
lt_load cpu=1 mode=preempt delay_us=$N count=$SECTIONS gap_us=3000 ||
	lh_bail "lh_load_test not available"
LH_ROOT=$LH_DIR
LH_PROGRESS_S=0
export LH_ROOT LH_PROGRESS_S

# lh ARGS.. - run scripts/lh; stdout in $LH_TMP/out, stderr in $LH_TMP/err
lh()
{
	sh "$LH_TOOL" "$@" >"$LH_TMP/out" 2>"$LH_TMP/err"
	LH_RC=$?
}

# ---------------------------------------------------------------- lh run
lh_case_begin
sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
lh_filter wakeup "$SL_TID"
# CMD: start the sleepers and the sections, return once the sleeper printed
# its per-thread lines (it does so at exit; the test shell reaps it).
lh run --types wakeup --snapshot "$LH_TMP/snap" -- sh -c '
	kill -USR1 "$1"
	echo 1 >"$2/trigger" || exit 1
	n=0
	until grep -q "^thread" "$3"; do
		n=$((n + 1))
		[ $n -lt 600 ] || exit 1
		sleep 0.2 2>/dev/null || sleep 1
	done' lh-cmd "$SL_PID" "$LT_PARAMS" "$SL_OUT"
[ "$LH_RC" = 0 ] || lh_err "lh run exited $LH_RC: $(head -c 400 "$LH_TMP/err")"
sl_wait
lh_value "$LH_DIR/enable/wakeup"
[ "$LH_VALUE" = 0 ] || lh_err "enable/wakeup is '$LH_VALUE' after lh run, expected 0"
[ -f "$LH_TMP/snap/latency_hist/wakeup/CPU1" ] && [ -f "$LH_TMP/snap/snapshot.meta" ] &&
	[ -f "$LH_TMP/snap/lh.json" ] || lh_err "lh run --snapshot saved no snapshot"
m=$(hl_max wakeup 1)
total=$(hl_total_all wakeup wakeup/sharedprio)
lh_diag "wakeup/CPU1 maximum $m us, $total samples of tid $SL_TID"
sl_expect_wakeups "$SL_TID" "$total" "wakeup + sharedprio"
[ "$m" != "<undef>" ] && [ "$m" -ge $BOUND ] || lh_err "wakeup/CPU1 maximum $m us < $BOUND us"
lh_case_end lh_run_records_an_injected_latency

# ---------------------------------------------------------------- lh json
lh_case_begin
lh json
[ "$LH_RC" = 0 ] || lh_err "lh json exited $LH_RC: $(head -c 400 "$LH_TMP/err")"
cp "$LH_TMP/out" "$LH_TMP/lh.json"
# What the CPUx files say, one line per CPU: cpu samples min avg max below
# above and the non-zero rows as usecs:count.
awk 'FNR == 1 { c = FILENAME; sub(/.*CPU/, "", c); if (NR > 1) print line; line = c }
     FNR <= 3 { line = line " " ($3 == "<undef>" ? "None" : $3) }
     FNR == 4 { total = $3 }
     FNR == 5 { below = $3 }
     FNR == 6 { line = line " " below " " $3; sub("^[^ ]+", "& " total, line) }
     FNR > 7 && $2 != "0" { line = line " " $1 ":" $2 }
     END { print line }' $(for c in $LH_CPUS; do printf '%s ' "$LH_DIR/wakeup/CPU$c"; done) >"$LH_TMP/files"
PY=$(command -v python3 2>/dev/null)
if [ -n "$PY" ]; then
	"$PY" -c 'import json, sys
d = json.load(open(sys.argv[1]))
w = d["types"]["wakeup"]
for c, v in w["cpus"].items():
    rows = " ".join("%s:%d" % (b, n) for b, n in v["histogram"].items())
    print(" ".join(str(x) for x in (c, v["samples"], v["min"], v["avg"], v["max"], v["below"], v["above"])) + (" " + rows if rows else ""))
' "$LH_TMP/lh.json" >"$LH_TMP/fromjson" 2>&1 || lh_err "python3 json: $(cat "$LH_TMP/fromjson")"
	cmp -s "$LH_TMP/files" "$LH_TMP/fromjson" || lh_err "lh json wakeup differs from the CPUx files: $(diff "$LH_TMP/files" "$LH_TMP/fromjson" | head -n 6)"
else
	lh_diag "python3 not found in the guest: checking the json text with awk only"
	for c in $LH_CPUS; do
		line=$(awk -v c="$c" '$1 == c' "$LH_TMP/files")
		set -- $line
		grep -q "^    \"$c\": {\"samples\": $2, \"min\": ${3%None}" "$LH_TMP/lh.json" ||
			lh_err "lh json: no wakeup CPU $c line with $2 samples"
	done
fi
hl_maxrec wakeup 1
grep -q "\"victim\": {\"pid\": $MR_VPID, \"prio\": $MR_VPRIO, \"comm\": \"$MR_VCOMM\"}" "$LH_TMP/lh.json" ||
	lh_err "lh json lacks the max record of wakeup/CPU1 ($MR_LINE)"
lh_case_end lh_json_matches_the_cpu_files

# ---------------------------------------------------------------- lh prom
lh_case_begin
lh prom
[ "$LH_RC" = 0 ] || lh_err "lh prom exited $LH_RC: $(head -c 400 "$LH_TMP/err")"
for c in $LH_CPUS; do
	want=$(hl_total wakeup "$c")
	got=$(awk -v c="$c" 'index($0, "latency_hist_latency_seconds_count{type=\"wakeup\",cpu=\"" c "\"} ") == 1 { print $2 }' "$LH_TMP/out")
	[ "$got" = "$want" ] || lh_err "lh prom wakeup cpu $c count '$got', CPU$c total $want"
done
lh_case_end lh_prom_counts_match

# ---------------------------------------------------------------- summary
lh_case_begin
[ -e "$LH_DIR/wakeup/summary" ] || lh_err "the module has no wakeup/summary"
lh summary wakeup
[ "$LH_RC" = 0 ] || lh_err "lh summary exited $LH_RC: $(head -c 400 "$LH_TMP/err")"
awk 'NR > 1 { $1 = ""; sub(/^ /, ""); print }' "$LH_TMP/out" >"$LH_TMP/rows"
sed 1d "$LH_TMP/snap/latency_hist/wakeup/summary" >"$LH_TMP/filerows"
# lh run recorded into the live tree, disabled wakeup, then snapshot:
# the live files and the snapshot must agree, and lh must print them.
sed 1d "$LH_DIR/wakeup/summary" | cmp -s - "$LH_TMP/filerows" ||
	lh_err "the wakeup summary changed after lh run disabled wakeup"
cmp -s "$LH_TMP/rows" "$LH_TMP/filerows" ||
	lh_err "lh summary differs from wakeup/summary: $(diff "$LH_TMP/rows" "$LH_TMP/filerows" | head -n 6)"
lh summary wakeup --cpu 1 --json
[ "$LH_RC" = 0 ] || lh_err "lh summary --json exited $LH_RC"
max1=$(awk '$1 == "1" { print $10 }' "$LH_TMP/filerows")
grep -q "\"1\": {\"summary\": {.*\"max\": $max1, \"below\"" "$LH_TMP/out" ||
	lh_err "lh summary --json lacks max $max1 of CPU 1: $(head -c 300 "$LH_TMP/out")"
[ "$max1" = "$m" ] || lh_err "summary CPU 1 max $max1 != CPU1 header maximum $m"
lh_case_end lh_summary_prints_the_summary_files

lh_case_begin
lh compare "$LH_TMP/snap" "$LH_TMP/snap" --fail-if "wakeup@all:max>$((BOUND - 1))"
[ "$LH_RC" = 1 ] || lh_err "a max>$((BOUND - 1)) gate did not trip (exit $LH_RC): $(cat "$LH_TMP/out")"
lh compare "$LH_TMP/snap" "$LH_TMP/snap" --fail-if 'p99>+0%' --fail-if 'wakeup@all:samples<1'
[ "$LH_RC" = 0 ] || lh_err "gates that hold tripped (exit $LH_RC): $(cat "$LH_TMP/out")"
lh_case_end lh_compare_gate_trips_on_the_injected_latency

lt_unload
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
