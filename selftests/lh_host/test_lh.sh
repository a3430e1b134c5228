#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_lh.sh - host tests of scripts/lh against generated latency_hist trees
#
# fixture.awk writes trees in the module's exact formats (CPUx, max_latency,
# status, enable, pid, summary); every case then runs lh against them with
# LH_ROOT, once per flavour of the tools lh may meet on a rig:
#   gawk     /bin/sh with gawk
#   mawk     /bin/sh with mawk
#   busybox  busybox sh with nothing but busybox applets in PATH
# A flavour whose tools are missing is skipped. python3 (strict JSON) and
# promtool (Prometheus format) are used when present; without them those
# checks fall back to awk or skip, and say so.
#
# Usage: sh selftests/lh_host/test_lh.sh [FLAVOUR..]
# Prints KTAP: one "ok N flavour: case" line per case, then the plan and the
# kselftest "# Totals:" line; exit 1 if any failed.
# Takes about 10 s per flavour on the 2-core CI machine.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LT_DIR/host_lib.sh"
FIXTURE=$LT_DIR/fixture.awk
PY=$(command -v python3 2>/dev/null)
PROMTOOL=$(command -v promtool 2>/dev/null)
GNUPLOT=$(command -v gnuplot 2>/dev/null)


# fixture DIR - write a tree from the spec on stdin
fixture()
{
	rm -rf "$1"
	cat >"$TMP/spec"
	awk -v out="$1" -f "$FIXTURE" "$TMP/spec" || err "fixture.awk failed"
}

# row TYPE CPU - the summary row of TYPE/CPU in $TMP/out, single-spaced
row()
{
	awk -v t="$1" -v c="$2" '$1 == t && $2 == c { $1 = $1; print; exit }' "$TMP/out"
}

# expect_row TYPE CPU FIELDS - err unless lh summary printed that row
expect_row()
{
	[ "$(row "$1" "$2")" = "$1 $2 $3" ] || err "summary $1 CPU $2: '$(row "$1" "$2")', expected '$1 $2 $3'"
}

# py CODE - run python3 CODE with the last lh output as sys.stdin
py()
{
	"$PY" -c "$1" <"$TMP/out" 2>&1
}

# ---------------------------------------------------------------- fixtures

# The main tree: 2 CPUs, in-range, below- and above-range samples, a max
# record with a space in the victim's comm, an unavailable type.
make_main()
{
	fixture "$TMP/main" <<'EOF'
cpus 2
enable wakeup 1
pid wakeup 77
samples wakeup 0 3:10 4:5 12:1
samples wakeup 1 2:1
samples missed_timer_offsets 1 -2:1 5:1 20000:2
samples timerandwakeup 0 -1:3 7:1
max wakeup 0 1234 80 12 (0) rt sleeper <- 99 -21 swapper/0 123.456789
max wakeup 1 1235 80 2 (0) cyclictest <- 98 -21 kworker/1:1 124.000001
status irqsoff available=0 enabled=0 bytes=0 reason=preemptirq tracepoints not present in this kernel
status preemptoff available=0 enabled=0 bytes=0 reason=preemptirq tracepoints not present in this kernel
status preemptirqsoff available=0 enabled=0 bytes=0 reason=preemptirq tracepoints not present in this kernel
EOF
}

# ---------------------------------------------------------------- cases

# case_summary - the table shows the summary files' values, per CPU and all
case_summary()
{
	LH_ROOT=$TMP/main
	export LH_ROOT
	lh summary
	expect_rc 0 "lh summary"
	expect_row wakeup 0 "16 3 3.88 3 4 12 12 12 12 0 0"
	expect_row wakeup 1 "1 2 2.00 2 2 2 2 2 2 0 0"
	expect_row wakeup all "17 2 3.76 3 4 12 12 12 12 0 0"
	expect_row missed_timer_offsets 1 "4 -2 10000.75 5 >=10240 >=10240 >=10240 >=10240 20000 1 2"
	expect_row timerandwakeup 0 "4 -1 1.00 <0 7 7 7 7 7 3 0"
	expect_row irqsoff all "0 - - - - - - - - 0 0"
	[ "$(wc -l <"$TMP/out")" -eq $((1 + 9 * 3)) ] || err "lh summary: $(wc -l <"$TMP/out") lines, expected 28 (9 types, 2 CPUs and all)"
	lh summary wakeup timerandwakeup --cpu all
	expect_rc 0 "lh summary --cpu all"
	[ "$(awk 'NR > 1 { printf "%s/%s ", $1, $2 }' "$TMP/out")" = "wakeup/all timerandwakeup/all " ] ||
		err "--cpu all: rows $(awk 'NR > 1 { printf "%s/%s ", $1, $2 }' "$TMP/out")"
	lh summary wakeup --cpu 1
	[ "$(awk 'NR > 1 { printf "%s/%s ", $1, $2 }' "$TMP/out")" = "wakeup/1 " ] || err "--cpu 1: wrong rows"
	case_end summary_shows_the_summary_files
}

# case_summary_errors - bad arguments and missing files: exit 2, clear words
case_summary_errors()
{
	LH_ROOT=$TMP/main
	lh summary --cpu 9
	expect_rc 2 "--cpu 9"
	expect_err "no CPU 9" "--cpu 9"
	lh summary --cpu x
	expect_rc 2 "--cpu x"
	# every option argument and number goes through one checker, one wording
	for args in "--cpu|summary: --cpu needs a CPU list or all" "--cpu=|summary: --cpu needs a CPU list or all" \
		    "--cpu=01|summary: --cpu '01' is not a CPU number from 0" "--cpu 99999|summary: --cpu 99999 is more than"; do
		# shellcheck disable=SC2086 # the arguments are words
		lh summary ${args%|*}
		expect_rc 2 "summary ${args%|*}"
		expect_err "${args#*|}" "summary ${args%|*}"
	done
	lh summary wakeup --cpu=1
	expect_rc 0 "--cpu=1"
	lh summary nosuchtype
	expect_rc 2 "unknown type"
	expect_err "unknown histogram 'nosuchtype'" "unknown type"
	lh summary --bogus
	expect_rc 2 "unknown option"
	fixture "$TMP/old" <<'EOF'
nosummary
samples wakeup 0 5:1
EOF
	LH_ROOT=$TMP/old lh summary
	expect_rc 2 "no summary files"
	expect_err "older than the summary file" "no summary files"
	LH_ROOT=$TMP/nonexistent lh summary
	expect_rc 2 "missing tree"
	expect_err "does not exist" "missing tree"
	case_end summary_refuses_bad_input
}

# case_summary_json - --json parses strictly and carries the same values
case_summary_json()
{
	if [ -z "$PY" ]; then
		skip summary_json_is_strict_json "python3 not installed"
		return
	fi
	LH_ROOT=$TMP/main
	lh summary --json
	expect_rc 0 "summary --json"
	out=$(py 'import json, sys
d = json.load(sys.stdin)
w = d["types"]["wakeup"]
m = d["types"]["missed_timer_offsets"]["cpus"]["1"]["summary"]
print(d["schema_version"], w["cpus"]["0"]["summary"]["p90"], w["all"]["summary"]["mean"], m["p90"], m["min"],
      d["types"]["irqsoff"]["all"]["summary"]["p50"], sorted(w["cpus"]))')
	[ "$out" = "1 4 3.76 >=10240 -2 None ['0', '1']" ] || err "summary --json: $out"
	lh summary wakeup --cpu 0 --json
	out=$(py 'import json, sys
d = json.load(sys.stdin)
print(list(d["types"]), list(d["types"]["wakeup"]), list(d["types"]["wakeup"]["cpus"]))')
	[ "$out" = "['wakeup'] ['cpus'] ['0']" ] || err "summary wakeup --cpu 0 --json: $out"
	case_end summary_json_is_strict_json
}

# case_json - lh json: strict JSON with buckets, summaries, max records, meta
case_json()
{
	LH_ROOT=$TMP/main
	lh json
	expect_rc 0 "lh json"
	if [ -z "$PY" ]; then
		grep -q '"schema_version": 1' "$TMP/out" || err "no schema_version"
		skip json_is_strict_and_complete "python3 not installed (only a smoke check done)"
		errs=0
		return
	fi
	out=$(py 'import json, sys
d = json.load(sys.stdin)
t = d["types"]
w0 = t["wakeup"]["cpus"]["0"]
print(d["schema"], d["schema_version"], d["unit"], d["buckets"], sorted(t) == sorted(["irqsoff", "preemptoff",
      "preemptirqsoff", "wakeup", "wakeup/sharedprio", "missed_timer_offsets", "timerandwakeup",
      "switchtime", "timerwakeupswitch"]))
print(w0["samples"], w0["min"], w0["avg"], w0["max"], w0["histogram"], w0["summary"]["p99"])
print(w0["max_latency"]["victim"], w0["max_latency"]["culprit"], w0["max_latency"]["timestamp"])
print(t["wakeup"]["all"]["histogram"], t["wakeup"]["all"]["samples"], t["wakeup"]["pid"], t["wakeup"]["enabled"])
m1 = t["missed_timer_offsets"]["cpus"]["1"]
print(m1["below"], m1["above"], m1["histogram"], m1["max_latency"], t["timerandwakeup"]["pid"])
print(t["irqsoff"]["available"], t["irqsoff"]["reason"], t["irqsoff"]["cpus"]["0"]["min"])
for k in ("host", "kernel_release", "time", "time_epoch_s", "lh_version"):
    assert d[k], k
print("module_version" in d, "uptime_s" in d)')
	expect='latency_hist 1 us 10240 True
16 3 3 12 {'"'"'3'"'"': 10, '"'"'4'"'"': 5, '"'"'12'"'"': 1} 12
{'"'"'pid'"'"': 1234, '"'"'prio'"'"': 80, '"'"'comm'"'"': '"'"'rt sleeper'"'"'} {'"'"'pid'"'"': 99, '"'"'prio'"'"': -21, '"'"'comm'"'"': '"'"'swapper/0'"'"'} 123.456789
{'"'"'2'"'"': 1, '"'"'3'"'"': 10, '"'"'4'"'"': 5, '"'"'12'"'"': 1} 17 77 True
1 2 {'"'"'5'"'"': 1} None None
False preemptirq tracepoints not present in this kernel None
True True'
	[ "$out" = "$expect" ] || err "lh json:
$out
expected:
$expect"
	LH_ROOT=$TMP/old lh json
	expect_rc 0 "lh json without summary files"
	out=$(py 'import json, sys
d = json.load(sys.stdin)
print(d["types"]["wakeup"]["cpus"]["0"]["summary"], d["types"]["wakeup"]["all"]["summary"], d["types"]["wakeup"]["all"]["samples"])')
	[ "$out" = "None None 1" ] || err "lh json without summary files: $out"
	case_end json_is_strict_and_complete
}

# case_many_cpus - 40 CPUs: numeric CPU order, every CPU present, merged all
case_many_cpus()
{
	fixture "$TMP/many" <<'EOF'
cpus 40
types wakeup
samples wakeup 10 100:2
samples wakeup 39 9000:1 10239:1
samples wakeup 2 0:5
EOF
	LH_ROOT=$TMP/many
	lh summary --cpu all
	expect_rc 0 "summary on 40 CPUs"
	expect_row wakeup all "9 0 2159.89 0 10239 10239 10239 10239 10239 0 0"
	lh summary
	[ "$(awk 'NR > 1 { printf "%s ", $2 }' "$TMP/out")" = "$(awk 'BEGIN { for (i = 0; i < 40; i++) printf "%d ", i; print "all " }')" ] ||
		err "CPU order: $(awk 'NR > 1 { printf "%s ", $2 }' "$TMP/out")"
	lh json
	expect_rc 0 "json on 40 CPUs"
	if [ -n "$PY" ]; then
		out=$(py 'import json, sys
d = json.load(sys.stdin)
w = d["types"]["wakeup"]
print(list(w["cpus"]) == [str(i) for i in range(40)], w["all"]["histogram"], list(d["types"]))')
		[ "$out" = "True {'0': 5, '100': 2, '9000': 1, '10239': 1} ['wakeup']" ] || err "json on 40 CPUs: $out"
	fi
	case_end many_cpus_in_numeric_order
}

# case_malformed - a file that is not in the module's format: exit 2, the
# file named, nothing on stdout
case_malformed()
{
	for what in truncated header row total summary_fields summary_all maxrec empty status; do
		rm -rf "$TMP/bad"
		cp -r "$TMP/main" "$TMP/bad"
		f=$TMP/bad/wakeup/CPU1
		case $what in
		truncated) sed -i '$d' "$f" ;;
		header) sed -i '1s/.*/#Minimum latency: 3 usecs/' "$f" ;;
		row) sed -i '20s/.*/    12\t  7/' "$f" ;;
		total) sed -i '4s/.*/#Total samples: 5/' "$f" ;;
		summary_fields) f=$TMP/bad/wakeup/summary; sed -i '2s/ 0 0$/ 0/' "$f" ;;
		summary_all) f=$TMP/bad/wakeup/summary; sed -i '$d' "$f" ;;
		maxrec) f=$TMP/bad/wakeup/max_latency-CPU0; echo "1234 80 12 rt <- x" >"$f" ;;
		empty) : >"$f" ;;
		status) f=$TMP/bad/status; sed -i '1s/available=0/available=yes/' "$f" ;;
		esac
		LH_ROOT=$TMP/bad lh json
		expect_rc 2 "json with a $what file"
		expect_err "$f" "json with a $what file"
		[ ! -s "$TMP/out" ] || err "json with a $what file printed $(wc -c <"$TMP/out") bytes on stdout"
	done
	LH_ROOT=$TMP/bad lh prom
	expect_rc 2 "prom with a malformed file"
	case_end malformed_files_are_errors
}

# case_empty - a tree with no samples at all
case_empty()
{
	fixture "$TMP/empty" <<'EOF'
cpus 3
EOF
	LH_ROOT=$TMP/empty
	lh summary --cpu all
	expect_rc 0 "summary of empty histograms"
	expect_row wakeup all "0 - - - - - - - - 0 0"
	lh json
	expect_rc 0 "json of empty histograms"
	if [ -n "$PY" ]; then
		out=$(py 'import json, sys
d = json.load(sys.stdin)
c = d["types"]["timerandwakeup"]["cpus"]["2"]
print(c["samples"], c["min"], c["histogram"], c["summary"]["max"], c["max_latency"])')
		[ "$out" = "0 None {} None None" ] || err "json of empty histograms: $out"
	fi
	lh prom
	expect_rc 0 "prom of empty histograms"
	grep -q '^latency_hist_max_latency_seconds{type="wakeup",cpu="2"} NaN$' "$TMP/out" ||
		err "prom: no NaN max for an empty histogram"
	lh plot "$TMP/e.svg"
	expect_rc 2 "plot with no samples"
	expect_err "no histogram has samples" "plot with no samples"
	lh compare "$TMP/empty" "$TMP/empty" --fail-if 'p99>+10%'
	expect_rc 1 "a gate with no data to check"
	grep -q 'no data to check' "$TMP/out" || err "compare: no 'no data' line"
	case_end empty_histograms
}

# case_controls - enable (with dependencies), disable, reset, pid; bad input
# changes nothing; a failed enable is undone
case_controls()
{
	make_main
	LH_ROOT=$TMP/main
	echo 0 >"$TMP/main/enable/wakeup"
	lh enable timerandwakeup
	expect_rc 0 "enable timerandwakeup"
	[ "$(cat "$TMP/main/enable/wakeup" "$TMP/main/enable/missed_timer_offsets" "$TMP/main/enable/timerandwakeup" "$TMP/main/enable/preemptirqsoff" | tr -d '\n')" = 1110 ] ||
		err "enable timerandwakeup did not enable exactly it and its two inputs"
	lh disable all
	expect_rc 0 "disable all"
	[ "$(cat "$TMP/main"/enable/* | tr -d '\n')" = 000000 ] || err "disable all left something on"
	# needs= followed through: timerwakeupswitch needs timerandwakeup and
	# switchtime, which need wakeup and missed_timer_offsets
	lh enable timerwakeupswitch
	expect_rc 0 "enable timerwakeupswitch"
	[ "$(cat "$TMP/main/enable/wakeup" "$TMP/main/enable/missed_timer_offsets" "$TMP/main/enable/timerandwakeup" \
	    "$TMP/main/enable/switchtime" "$TMP/main/enable/timerwakeupswitch" "$TMP/main/enable/preemptirqsoff" | tr -d '\n')" = 111110 ] ||
		err "enable timerwakeupswitch did not enable exactly it and everything it needs"
	lh disable all
	expect_rc 0 "disable all"
	lh enable wakeup bogus
	expect_rc 2 "enable with a bad name"
	[ "$(cat "$TMP/main/enable/wakeup")" = 0 ] || err "enable with a bad name changed wakeup"
	rm "$TMP/main/enable/timerandwakeup"
	mkdir "$TMP/main/enable/timerandwakeup"
	lh enable wakeup missed_timer_offsets timerandwakeup
	expect_rc 2 "enable that fails half way"
	expect_err "nothing was changed" "enable that fails half way"
	[ "$(cat "$TMP/main/enable/wakeup" "$TMP/main/enable/missed_timer_offsets" | tr -d '\n')" = 00 ] ||
		err "a failed enable was not undone"
	lh reset wakeup/sharedprio
	expect_rc 0 "reset wakeup/sharedprio"
	[ "$(cat "$TMP/main/wakeup/sharedprio/reset")" = 1 ] && [ ! -s "$TMP/main/wakeup/reset" ] ||
		err "reset wakeup/sharedprio wrote the wrong files"
	lh reset nosuch
	expect_rc 2 "reset of an unknown histogram"
	[ ! -s "$TMP/main/wakeup/reset" ] || err "a bad reset wrote something"
	lh reset
	expect_rc 0 "reset"
	for t in irqsoff preemptoff preemptirqsoff wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup \
	    switchtime timerwakeupswitch; do
		[ "$(cat "$TMP/main/$t/reset")" = 1 ] || err "reset did not reset $t"
	done
	lh pid wakeup 4194304
	expect_rc 0 "pid wakeup 4194304"
	[ "$(cat "$TMP/main/wakeup/pid")" = 4194304 ] || err "pid not written"
	for bad in -1 12x 4194305 99999999999 "" 007; do
		lh pid wakeup "$bad"
		expect_rc 2 "pid wakeup '$bad'"
	done
	lh pid timerandwakeup 5
	expect_rc 2 "pid of a type without a pid filter"
	[ "$(cat "$TMP/main/wakeup/pid")" = 4194304 ] || err "a bad pid changed the filter"
	lh pid wakeup
	[ "$(cat "$TMP/out")" = 4194304 ] || err "lh pid wakeup printed '$(cat "$TMP/out")'"
	lh status
	expect_rc 0 "status"
	[ "$(awk '$1 == "wakeup" { print $2, $3, $4, $5, $6 }' "$TMP/out")" = "yes yes 17 12 4194304" ] ||
		err "status wakeup row: $(awk '$1 == "wakeup"' "$TMP/out")"
	grep -q '^irqsoff .* no .*preemptirq tracepoints not present' "$TMP/out" || err "status: no irqsoff reason"
	lh frobnicate
	expect_rc 2 "unknown command"
	case_end controls_change_only_what_they_name
}

# case_snapshot_compare - snapshot, then compare with gates (the QM use)
case_snapshot_compare()
{
	make_main
	LH_ROOT=$TMP/main
	rm -rf "$TMP/A" "$TMP/B"
	lh snapshot "$TMP/A"
	expect_rc 0 "snapshot A"
	for f in snapshot.meta lh.json latency_hist/status latency_hist/wakeup/CPU0 latency_hist/wakeup/summary \
		 latency_hist/wakeup/max_latency-CPU0 latency_hist/enable/wakeup latency_hist/wakeup/sharedprio/CPU1; do
		[ -f "$TMP/A/$f" ] || err "snapshot lacks $f"
	done
	cmp -s "$TMP/main/wakeup/CPU0" "$TMP/A/latency_hist/wakeup/CPU0" || err "snapshot CPU0 differs"
	grep -q '^kernel_release=.' "$TMP/A/snapshot.meta" && grep -q '^cmdline=' "$TMP/A/snapshot.meta" &&
		grep -q '^time_utc=' "$TMP/A/snapshot.meta" || err "snapshot.meta lacks a field"
	lh snapshot "$TMP/A"
	expect_rc 2 "snapshot into a non-empty directory"
	# B: wakeup CPU0 gets a 14 us outlier instead of 12, and 9 more samples
	sed -e 's/^samples wakeup 0 .*/samples wakeup 0 3:10 4:5 14:1 5:9/' "$TMP/spec" >"$TMP/specB"
	rm -rf "$TMP/treeB"
	awk -v out="$TMP/treeB" -f "$FIXTURE" "$TMP/specB"
	LH_ROOT=$TMP/treeB lh snapshot "$TMP/B"
	expect_rc 0 "snapshot B"
	# the snapshot's tree reads like the live one
	LH_ROOT=$TMP/B/latency_hist lh json
	grep -q "\"kernel_release\": \"$(sed -n 's/^kernel_release=//p' "$TMP/B/snapshot.meta")\"" "$TMP/out" ||
		err "json of a snapshot does not take the snapshot's kernel release"
	lh compare "$TMP/A" "$TMP/B"
	expect_rc 0 "compare without gates"
	grep -q '^wakeup  *0  samples 16 -> 25  p99 12 -> 14 (+16.7%)  p99.9 12 -> 14 (+16.7%)  max 12 -> 14 (+16.7%)$' "$TMP/out" ||
		err "compare wakeup CPU0 line: $(grep '^wakeup  *0 ' "$TMP/out")"
	lh compare "$TMP/A" "$TMP/B" --fail-if 'p99>+10%'
	expect_rc 1 "p99>+10% must trip"
	grep -q '^FAIL wakeup CPU 0: p99 12 -> 14 trips p99>+10%$' "$TMP/out" || err "no FAIL line for p99>+10%"
	lh compare "$TMP/A" "$TMP/B" --fail-if 'p99>+20%' --fail-if 'wakeup@all:max>14' --fail-if 'wakeup@all:samples<20'
	expect_rc 0 "gates that hold"
	grep -q '^compare: 3 gates, all passed$' "$TMP/out" || err "no 'all passed' line"
	lh compare "$TMP/A" "$TMP/B" --fail-if 'wakeup@1:p50>1'
	expect_rc 1 "absolute gate on CPU 1"
	lh compare "$TMP/A" "$TMP/B" --fail-if 'missed_timer_offsets:max>+0'
	expect_rc 0 "unchanged max"
	for bad in 'p98>1' 'p99=5' 'p99>x' 'nosuch:p99>1' 'wakeup@x:p99>1' ''; do
		lh compare "$TMP/A" "$TMP/B" --fail-if "$bad"
		[ "$bad" = "" ] && [ "$rc" = 0 ] && continue
		expect_rc 2 "gate '$bad'"
	done
	lh compare "$TMP/A" "$TMP/nonexistent"
	expect_rc 2 "compare with a missing snapshot"
	# a malformed tree leaves no snapshot behind
	cp -r "$TMP/main" "$TMP/badtree"
	sed -i '$d' "$TMP/badtree/wakeup/CPU0"
	LH_ROOT=$TMP/badtree lh snapshot "$TMP/C"
	expect_rc 2 "snapshot of a malformed tree"
	[ ! -e "$TMP/C" ] || err "a failed snapshot left $TMP/C"
	rm -rf "$TMP/badtree"
	case_end snapshot_and_compare_gates
}

# case_prom - the exposition: promtool or a strict line check, and values
case_prom()
{
	make_main
	LH_ROOT=$TMP/main
	lh prom
	expect_rc 0 "prom"
	cp "$TMP/out" "$TMP/m.prom"
	if [ -n "$PROMTOOL" ]; then
		"$PROMTOOL" check metrics <"$TMP/m.prom" >"$TMP/promtool.out" 2>&1 ||
			err "promtool check metrics: $(head -c 500 "$TMP/promtool.out")"
	fi
	# Every line is a comment or name{labels} value; buckets never decrease
	# and end with +Inf == _count.
	bad=$(awk '
		/^# (HELP|TYPE) / { next }
		!/^[a-z_]+\{([a-z]+="[^"]*",)*[a-z]+="[^"]*"\} ([0-9]+(\.[0-9]+)?|NaN)$/ { print "line " NR ": " $0; exit }
		/_bucket\{/ {
			k = $0; sub(/,le=.*/, "", k)
			if (k == last && $2 + 0 < prev + 0) { print "decreasing at line " NR; exit }
			last = k; prev = $2
			if ($0 ~ /le="\+Inf"/) inf[k] = $2
		}
		/_count\{/ { k = $0; sub(/_count\{/, "_bucket{", k); sub(/\} .*/, "", k); if (inf[k] != $2) { print "count != +Inf: " $0; exit } }
	' "$TMP/m.prom")
	[ -z "$bad" ] || err "prom format: $bad"
	l='type="wakeup",cpu="0"'
	# missed_timer_offsets CPU 1 from CPUx files: of 20000 us twice they
	# show the max and one more sample >= 10240 us (cpux_sum in lh); the
	# rows file's exact 0.040003 is case_rows_same_output's
	for want in "latency_hist_latency_seconds_bucket{$l,le=\"0.000002\"} 0" \
		    "latency_hist_latency_seconds_bucket{$l,le=\"0.000005\"} 15" \
		    "latency_hist_latency_seconds_bucket{$l,le=\"0.000020\"} 16" \
		    "latency_hist_latency_seconds_sum{$l} 0.000062" \
		    "latency_hist_latency_seconds_count{$l} 16" \
		    "latency_hist_max_latency_seconds{$l} 0.000012" \
		    'latency_hist_latency_seconds_bucket{type="timerandwakeup",cpu="0",le="0.000001"} 3' \
		    'latency_hist_latency_seconds_bucket{type="missed_timer_offsets",cpu="1",le="0.000005"} 1' \
		    'latency_hist_latency_seconds_bucket{type="missed_timer_offsets",cpu="1",le="0.010240"} 2' \
		    'latency_hist_latency_seconds_sum{type="missed_timer_offsets",cpu="1"} 0.030243' \
		    'latency_hist_enabled{type="wakeup"} 1'; do
		grep -q "^$want\$" "$TMP/m.prom" || err "prom lacks: $want"
	done
	# irqsoff cannot record on this kernel (available=0): no series of it
	! grep -q 'type="irqsoff"' "$TMP/m.prom" || err "prom has series of irqsoff, which status calls unavailable"
	! grep -q 'host=' "$TMP/m.prom" || err "prom has a host label without --host-label"
	lh prom --host-label
	expect_rc 0 "prom --host-label"
	grep -q "^latency_hist_enabled{type=\"wakeup\",host=\"$(uname -n)\"} 1\$" "$TMP/out" ||
		err "prom --host-label: no host label on latency_hist_enabled"
	lh prom "$TMP/node.prom"
	expect_rc 0 "prom FILE"
	[ -s "$TMP/node.prom" ] && [ -z "$(ls "$TMP" | grep '\.tmp$')" ] || err "prom FILE: no file or a temporary left"
	lh prom "$TMP/node.txt"
	expect_rc 2 "prom to a name without .prom"
	case_end prometheus_exposition
}

# case_prom_bounds - each le bound counts exactly the samples at or below
# it: row N of a CPUx file holds [N, N+1) us, so it is below le=N+1 and not
# below le=N; samples below 0 are below every bound, the ones >= 10240 in
# +Inf only. The expected counts come from the fixture's sample values.
case_prom_bounds()
{
	spec='-3:2 0:1 1:2 4:3 5:4 9:1 10:5 19:1 20:2 10239:1 10240:1 20000:1'
	fixture "$TMP/bounds" <<EOF
cpus 1
samples wakeup 0 $spec
EOF
	LH_ROOT=$TMP/bounds
	for buckets in default 0,1,4,5,6,10,11,10239,10240; do
		if [ "$buckets" = default ]; then
			lh prom
		else
			lh prom --buckets "$buckets"
		fi
		expect_rc 0 "prom --buckets $buckets"
		bad=$(awk -v spec="$spec" '
			BEGIN { n = split(spec, s, " "); for (i = 1; i <= n; i++) { split(s[i], vc, ":"); v[i] = vc[1] + 0; c[i] = vc[2] + 0 } }
			/^latency_hist_latency_seconds_bucket\{type="wakeup",cpu="0",/ {
				le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le)
				want = 0
				for (i = 1; i <= n; i++)
					if (le == "+Inf" || (v[i] < 10240 && v[i] + 1 <= le * 1000000 + 0.5)) want += c[i]
				if ($2 != want) printf "le=%s: %s, expected %d; ", le, $2, want
				nb++
			}
			END { if (nb < 2) print "no buckets of wakeup CPU0" }
		' "$TMP/out")
		[ -z "$bad" ] || err "--buckets $buckets: $bad"
	done
	[ "$(grep -c '{type="wakeup",cpu="0",le=' "$TMP/out")" = 10 ] || err "--buckets of 9 bounds: not 9 buckets and +Inf"
	for buckets in 5,1 1,1 1,x 10241 -1 '' 1,,2 01; do
		rm -f "$TMP/b.prom"
		lh prom --buckets "$buckets" "$TMP/b.prom"
		expect_rc 2 "prom --buckets '$buckets'"
		expect_err "prom: --buckets" "prom --buckets '$buckets'"
		[ ! -e "$TMP/b.prom" ] || err "prom --buckets '$buckets' wrote $TMP/b.prom"
	done
	case_end prom_bucket_bounds_count_the_samples_at_or_below_them
}

# case_plot - data always; a picture with gnuplot, a clear error without
case_plot()
{
	make_main
	LH_ROOT=$TMP/main
	lh plot --data
	expect_rc 0 "plot --data"
	[ "$(sed -n '1p;5p;14p;15p' "$TMP/out" | tr '\t\n' ' |')" = \
	  "# latency_hist wakeup: usecs CPU0 (max 12 us) CPU1 (max 2 us)|3 10 0|12 1 0|13 0 0|" ] ||
		err "plot --data: $(sed -n '1p;5p;14p;15p' "$TMP/out" | tr '\t\n' ' |')"
	[ "$(wc -l <"$TMP/out")" -eq 15 ] || err "plot --data: $(wc -l <"$TMP/out") lines, expected 15 (0..13 us)"
	rm -f "$TMP/p.png" "$TMP/p.svg"
	if [ -n "$GNUPLOT" ] && [ -x "$(PATH=$FPATH command -v gnuplot)" ]; then
		lh plot "$TMP/p.png"
		expect_rc 0 "plot png"
		[ "$(head -c 4 "$TMP/p.png" | od -An -c | tr -d ' ')" = '211PNG' ] || err "p.png is not a PNG"
		lh plot "$TMP/p.svg" missed_timer_offsets
		expect_rc 0 "plot svg"
		grep -q '<svg' "$TMP/p.svg" || err "p.svg is not SVG"
	else
		lh plot "$TMP/p.png"
		expect_rc 2 "plot without gnuplot"
		expect_err "gnuplot is not installed" "plot without gnuplot"
		[ ! -e "$TMP/p.png" ] || err "plot without gnuplot wrote a file"
	fi
	lh plot "$TMP/p.jpg"
	expect_rc 2 "plot to .jpg"
	case_end plot
}

# case_run - reset, enable, run, restore, summary, snapshot, exit status
case_run()
{
	make_main
	LH_ROOT=$TMP/main
	rm -rf "$TMP/R"
	echo 0 >"$TMP/main/enable/wakeup"
	echo 1 >"$TMP/main/enable/missed_timer_offsets"
	LH_PROGRESS_S=1 lh run --types wakeup --snapshot "$TMP/R" -- sh -c 'cat "$0"/enable/wakeup; sleep 2.5; exit 3' "$TMP/main"
	expect_rc 3 "run passes on CMD's exit status"
	[ "$(head -n 1 "$TMP/out")" = 1 ] || err "wakeup was not enabled while CMD ran"
	[ "$(cat "$TMP/main/enable/wakeup" "$TMP/main/enable/missed_timer_offsets" | tr -d '\n')" = 01 ] ||
		err "run did not restore the switches"
	[ "$(cat "$TMP/main/wakeup/reset" "$TMP/main/wakeup/sharedprio/reset" | tr -d '\n')" = 11 ] ||
		err "run did not reset wakeup and wakeup/sharedprio"
	[ ! -s "$TMP/main/timerandwakeup/reset" ] || err "run reset a type it was not asked for"
	grep -q '^wakeup  *all  *17 ' "$TMP/out" || err "run printed no summary"
	grep -q '^lh: run: [0-9]* s, wakeup [0-9]*, wakeup/sharedprio [0-9]* samples$' "$TMP/err" ||
		err "no progress line: $(cat "$TMP/err")"
	[ -f "$TMP/R/latency_hist/wakeup/summary" ] || err "run --snapshot made no snapshot"
	lh run --types nosuch -- true
	expect_rc 2 "run with a bad type"
	lh run --types wakeup
	expect_rc 2 "run without a command"
	# By default every available type, but not switchtime (status
	# syscall_slow_path=1) nor timerwakeupswitch, which needs it.
	LH_PROGRESS_S=0 lh run -- sh -c 'for s in wakeup missed_timer_offsets timerandwakeup switchtime timerwakeupswitch; do
		printf "%s=%s " $s "$(cat "$0/enable/$s")"; done; echo' "$TMP/main"
	expect_rc 0 "run with the default types"
	[ "$(head -n 1 "$TMP/out")" = "wakeup=1 missed_timer_offsets=1 timerandwakeup=1 switchtime=0 timerwakeupswitch=0 " ] ||
		err "run's default types: $(head -n 1 "$TMP/out")"
	case_end run_wraps_a_command
}

# case_help - every command's --help (and lh help CMD) prints its usage and
# exits 0; lh --version is VERSION's; the list is made of the same lines
case_help()
{
	for c in status enable disable reset pid summary explain json snapshot compare plot prom monitor report run; do
		lh "$c" --help
		expect_rc 0 "lh $c --help"
		grep -q "^usage: lh $c" "$TMP/out" || err "lh $c --help does not show its usage: $(head -c 200 "$TMP/out")"
		line=$(sed -n '1s/^usage: lh /  /p' "$TMP/out")
		lh help "$c"
		expect_rc 0 "lh help $c"
		lh --help
		grep -qF -- "$line" "$TMP/out" || err "lh --help lacks the usage line of $c: '$line'"
	done
	lh help nosuch
	expect_rc 2 "lh help of an unknown command"
	lh --version
	expect_rc 0 "lh --version"
	[ "$(cut -d' ' -f2 "$TMP/out")" = "$(cat "$LT_DIR/../../VERSION")" ] ||
		err "lh --version says '$(cat "$TMP/out")', VERSION is $(cat "$LT_DIR/../../VERSION")"
	# -V as rtla's; the module's version from its sysfs directory, or "not loaded"
	mkdir -p "$TMP/sysmod-v"
	echo 9.8.7 >"$TMP/sysmod-v/version"
	LH_SYSMODULE=$TMP/sysmod-v lh -V
	expect_rc 0 "lh -V"
	grep -q "^lh $(cat "$LT_DIR/../../VERSION") .*module 9.8.7\$" "$TMP/out" || err "lh -V with a module: '$(cat "$TMP/out")'"
	LH_SYSMODULE=$TMP/nomodule lh --version
	expect_rc 0 "lh --version without the module"
	grep -q "module not loaded\$" "$TMP/out" || err "lh --version without the module: '$(cat "$TMP/out")'"
	lh help --help
	expect_rc 0 "lh help --help"
	grep -q "^usage: lh help \[COMMAND\]" "$TMP/out" || err "lh help --help: '$(head -c 200 "$TMP/out")' $(cat "$TMP/err")"
	case_end every_command_has_help_and_exits_0
}

# case_unreachable - module not loaded, debugfs not mounted and not root
# each get their own error and exit 3 (not loaded on a kernel that loads only
# signed modules: what its refusal means and what to do); the tree given by LH_ROOT missing is
# bad input (exit 2)
case_unreachable()
{
	LH_ROOT=
	export LH_DEBUGFS LH_SYSMODULE
	LH_DEBUGFS=$TMP/debugfs LH_SYSMODULE=$TMP/nomodule
	mkdir -p "$LH_DEBUGFS"
	lh status
	expect_rc 3 "status without the module"
	expect_err "module is not loaded" "status without the module"
	! grep -q "signed" "$TMP/err" || err "status without the module names signatures on a kernel that does not enforce them: $(cat "$TMP/err")"
	# a kernel that loads only signed modules: lh says what the refusal of
	# modprobe means (sig_enforce beside LH_SYSMODULE in /sys/module, the
	# lockdown level in securityfs) and names the installed module's signer
	export LH_SECURITYFS=$TMP/securityfs
	mkdir -p "$TMP/module/parameters" "$LH_SECURITYFS"
	echo Y >"$TMP/module/parameters/sig_enforce"
	lh status
	expect_rc 3 "status without the module, signatures enforced"
	expect_err "module is not loaded" "status without the module, signatures enforced"
	expect_err "module.sig_enforce=Y" "status without the module, signatures enforced"
	expect_err '"Key was rejected by service"' "status without the module, signatures enforced"
	expect_err "mokutil --import /var/lib/dkms/mok.pub" "status without the module, signatures enforced"
	echo N >"$TMP/module/parameters/sig_enforce"
	echo "none [integrity] confidentiality" >"$LH_SECURITYFS/lockdown"
	mv "$FBIN/modinfo" "$FBIN/modinfo.real" 2>/dev/null
	printf '#!/bin/sh\n[ "$*" = "-F signer latency_hist" ] && echo "DKMS module signing key"\n' >"$FBIN/modinfo"
	chmod 755 "$FBIN/modinfo"
	lh status
	expect_rc 3 "status without the module, locked down"
	expect_err "lockdown=integrity" "status without the module, locked down"
	expect_err '"Operation not permitted"' "status without the module, locked down"
	# (busybox sh runs its own modinfo applet whatever PATH holds)
	[ "$FLAVOUR" = busybox ] ||
		expect_err 'the installed one is signed by "DKMS module signing key"' "status without the module, locked down"
	rm -f "$FBIN/modinfo"
	mv "$FBIN/modinfo.real" "$FBIN/modinfo" 2>/dev/null
	rm -rf "$TMP/module" "$LH_SECURITYFS"
	unset LH_SECURITYFS
	LH_SYSMODULE=$TMP
	lh enable wakeup
	expect_rc 3 "enable without debugfs"
	expect_err "debugfs is not mounted on $TMP/debugfs" "enable without debugfs"
	# util-linux's setpriv by its path: busybox's (first in the busybox flavour's PATH) has no --reuid
	if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && sp=$(command -v setpriv) &&
		unshare -m sh -c "mount -t debugfs none '$LH_DEBUGFS'" 2>/dev/null; then
		chmod 755 "$TMP"
		# nobody runs a copy of lh in TMP: the checkout may be where nobody cannot go (a
		# clone in a fresh mktemp -d, mode 700)
		cp "$LH" "$TMP/lh-as-nobody"
		chmod 644 "$TMP/lh-as-nobody"
		# a private mount namespace with debugfs on LH_DEBUGFS, lh as nobody
		PATH=$FPATH unshare -m sh -c "mount -t debugfs none '$LH_DEBUGFS' && exec '$sp' --reuid=65534 --regid=65534 --clear-groups $FSH '$TMP/lh-as-nobody' summary" \
			>"$TMP/out" 2>"$TMP/err"
		rc=$?
		expect_rc 3 "summary as nobody"
		expect_err "root-only: run lh as root" "summary as nobody"
		chmod 700 "$TMP"
	else
		err "cannot mount debugfs in a private namespace, or no setpriv: the not-root case did not run"
	fi
	unset LH_DEBUGFS LH_SYSMODULE
	LH_ROOT=$TMP/main
	case_end module_not_loaded_debugfs_not_mounted_not_root_each_say_so
}

# case_lockdown - when debugfs refuses a write with EPERM (kernel lockdown;
# here an immutable file gives the same errno), enable, disable, reset and
# pid write the module parameter instead and say so; a parameter that fails
# too is an error
case_lockdown()
{
	make_main
	LH_ROOT=$TMP/main
	export LH_SYSMODULE=$TMP/sysmod
	# each flavour starts afresh: the last one left a directory for a parameter
	rm -rf "$LH_SYSMODULE"
	mkdir -p "$LH_SYSMODULE/parameters"
	for f in enable_wakeup enable_missed_timer_offsets enable_timerandwakeup wakeup_pid reset; do
		: >"$LH_SYSMODULE/parameters/$f"
	done
	echo 0 >"$TMP/main/enable/wakeup"
	if ! chattr +i "$TMP/main/enable/wakeup" "$TMP/main/wakeup/pid" "$TMP/main/wakeup/sharedprio/reset" 2>/dev/null; then
		skip lockdown_falls_back_to_module_parameters "chattr +i is not supported here (no EPERM to test with)"
		unset LH_SYSMODULE
		return
	fi
	lh enable wakeup
	expect_rc 0 "enable under lockdown"
	expect_err "wrote enable_wakeup=1 to $LH_SYSMODULE/parameters instead" "enable under lockdown"
	[ "$(cat "$LH_SYSMODULE/parameters/enable_wakeup")" = 1 ] || err "enable_wakeup parameter not written"
	lh pid wakeup 42
	expect_rc 0 "pid under lockdown"
	[ "$(cat "$LH_SYSMODULE/parameters/wakeup_pid")" = 42 ] || err "wakeup_pid parameter not written"
	lh reset wakeup/sharedprio
	expect_rc 0 "reset under lockdown"
	[ "$(cat "$LH_SYSMODULE/parameters/reset")" = wakeup/sharedprio ] ||
		err "reset parameter: '$(cat "$LH_SYSMODULE/parameters/reset")', expected wakeup/sharedprio"
	lh disable wakeup
	expect_rc 0 "disable under lockdown"
	[ "$(cat "$LH_SYSMODULE/parameters/enable_wakeup")" = 0 ] || err "disable did not write enable_wakeup=0"
	rm "$LH_SYSMODULE/parameters/enable_wakeup"
	mkdir "$LH_SYSMODULE/parameters/enable_wakeup"
	lh enable wakeup
	expect_rc 2 "enable when the parameter fails too"
	expect_err "parameters/enable_wakeup" "enable when the parameter fails too"
	chattr -i "$TMP/main/enable/wakeup" "$TMP/main/wakeup/pid" "$TMP/main/wakeup/sharedprio/reset"
	unset LH_SYSMODULE
	case_end lockdown_falls_back_to_module_parameters
}

# prom_sum - the _sum of wakeup CPU 0 in the last lh prom output
prom_sum()
{
	sed -n 's/^latency_hist_latency_seconds_sum{type="wakeup",cpu="0"[,}].* //p' "$TMP/out"
}

# case_prom_sum_exact - issue 32: the _sum of a histogram with a sample out
# of range was the summary's 2-decimal mean times the count, and went down
# when samples of 1 us came in. With the rows file it is exact; from CPUx
# files (an older module) exact while one sample at most is out of range on
# each side, else a bound that never decreases.
case_prom_sum_exact()
{
	for layout in cpux rows; do
		rows=
		[ "$layout" = rows ] && rows=rows
		printf 'cpus 1\ntypes wakeup\nsamples wakeup 0 5:1000000 12000:1\n%s\n' "$rows" | fixture "$TMP/sumA"
		LH_ROOT=$TMP/sumA lh prom
		expect_rc 0 "prom of tree A ($layout)"
		a=$(prom_sum)
		[ "$a" = 5.012000 ] || err "$layout: _sum of 1e6 x 5 us + 12000 us is '$a', expected 5.012000"
		printf 'cpus 1\ntypes wakeup\nsamples wakeup 0 5:1000000 12000:1 1:1800\n%s\n' "$rows" | fixture "$TMP/sumB"
		LH_ROOT=$TMP/sumB lh prom
		b=$(prom_sum)
		[ "$b" = 5.013800 ] || err "$layout: _sum after 1800 x 1 us more is '$b', expected 5.013800 (A: $a)"
		printf 'cpus 1\ntypes wakeup\nsamples wakeup 0 5:1000000 12000:1 1:1800 15000:1\n%s\n' "$rows" |
			fixture "$TMP/sumC"
		LH_ROOT=$TMP/sumC lh prom
		c=$(prom_sum)
		awk -v a="$a" -v b="$b" -v c="$c" 'BEGIN { exit !(a != "" && a + 0 <= b + 0 && b + 0 <= c + 0) }' ||
			err "$layout: _sum went down: $a, $b, $c"
		if [ "$layout" = rows ]; then
			[ "$c" = 5.028800 ] || err "rows: _sum with 2 samples above the range is '$c', expected 5.028800"
		else
			# the CPUx files: 12000 us is only known to be >= 10240
			[ "$c" = 5.027040 ] || err "cpux: _sum with 2 samples above the range is '$c', expected the bound 5.027040"
		fi
	done
	case_end prom_sum_is_exact_and_never_decreases
}

# lh_outputs DIR - the output of every reading command on LH_ROOT into
# DIR/1.., with the times (they move) and DIR itself taken out
lh_outputs()
{
	rm -rf "$1"
	mkdir -p "$1"
	n=0
	for cmd in "summary" "summary --json" "json" "prom" "plot --data" "plot --data missed_timer_offsets" \
		   "snapshot $1/snap" "compare $1/snap $TMP/main"; do
		# shellcheck disable=SC2086 # a word list
		lh $cmd
		n=$((n + 1))
		# (of missed_timer_offsets CPU 1's two samples above the range the
		# CPUx files have the max and a bound: its _sum is checked apart)
		{ echo "lh $cmd: rc=$rc"; cat "$TMP/out" "$TMP/err"; } |
			sed -e "s|$1/snap|SNAP|g" -e '/_sum{type="missed_timer_offsets",cpu="1"/d' -e 's/"time": "[^"]*"/T/; s/"time_epoch_s": [0-9]*/T/; s/"uptime_s": [0-9.]*/T/' >"$1/$n"
	done
	sed -e 's/"time": "[^"]*"/T/; s/"time_epoch_s": [0-9]*/T/; s/"uptime_s": [0-9.]*/T/' "$1/snap/lh.json" >"$1/snap.json"
	rm -rf "$1/snap"
}

# case_rows_same_output - every command prints the same from the rows file
# as from the CPUx files
case_rows_same_output()
{
	make_main
	cp "$TMP/spec" "$TMP/spec.cpux"
	echo rows >>"$TMP/spec"
	awk -v out="$TMP/rowsame" -f "$FIXTURE" "$TMP/spec" || err "fixture.awk failed"
	LH_ROOT=$TMP/rowsame
	export LH_ROOT
	lh_outputs "$TMP/out-rows"
	lh prom
	grep -q '^latency_hist_latency_seconds_sum{type="missed_timer_offsets",cpu="1"[^}]*} 0.040003$' "$TMP/out" ||
		err "rows: the _sum of -2, 5 and 2 x 20000 us is not 0.040003: $(grep 'sum{type="missed_timer_offsets",cpu="1"' "$TMP/out")"
	rm -rf "$TMP/rowsame"
	awk -v out="$TMP/rowsame" -f "$FIXTURE" "$TMP/spec.cpux" || err "fixture.awk failed"
	lh_outputs "$TMP/out-cpux"
	for f in "$TMP/out-cpux"/*; do
		cmp -s "$f" "$TMP/out-rows/${f##*/}" ||
			err "${f##*/} differs: $(diff "$f" "$TMP/out-rows/${f##*/}" | head -5)"
	done
	grep -q '^lh json: rc=0$' "$TMP/out-rows/3" || err "lh json failed: $(head -c 300 "$TMP/out-rows/3")"
	# a rows file not in its format: a clear error, as for CPUx files
	cp -r "$TMP/main" "$TMP/rowbad"
	echo rows >>"$TMP/spec.cpux"
	awk -v out="$TMP/rowbad" -f "$FIXTURE" "$TMP/spec.cpux"
	sed -i.bak 's/^CPU1 1 0 0/CPU1 2 0 0/' "$TMP/rowbad/wakeup/rows"
	LH_ROOT=$TMP/rowbad lh json
	expect_rc 2 "json of a rows file whose counts do not add up"
	expect_err "wakeup/rows: CPU1: rows + below + above != total" "a bad rows file"
	sed -i.bak '1s/1$/2/' "$TMP/rowbad/wakeup/rows"
	LH_ROOT=$TMP/rowbad lh prom
	expect_rc 2 "prom of a rows file of another version"
	expect_err "not a rows file of version 1" "a rows file of version 2"
	rm -rf "$TMP/rowbad" "$TMP/rowsame"
	case_end every_command_reads_the_rows_file_as_the_cpux_files
}

# case_lines - the per-line views (irq/lines, softirq/lines): one reader for
# summary, summary --json, json and prom, whose series take the file's own
# label (irq, vector); a malformed or cut-short lines file is an error
case_lines()
{
	fixture "$TMP/lines" <<'EOF'
cpus 2
types wakeup irq
enable irq 1
samples irq 1 11:2 23:1
lines irq #threaded PREEMPT_RT
lines irq #irq name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
lines irq 24 virtio0-input.0 1200 9 14.31 31 55 61 1 0 swapper/1
lines irq 33 lh_irq_test 20 11 16.50 23 23 23 1 812 lh irq hold
lines irq 33 lh_irq_test 2 -3 -1.50 0 0 0 0 812 lh_irq_hold
lines irq #other 5
EOF
	LH_ROOT=$TMP/lines
	lh summary
	expect_rc 0 "summary with a lines file"
	grep -q '^irq per irq (threaded PREEMPT_RT, other 5):$' "$TMP/out" || err "summary: no per-line title"
	awk '$1 == "33" && $2 == "lh_irq_test" && $3 == "20" && $NF == "hold" && $(NF - 3) == "812" { f = 1 } END { exit !f }' \
		"$TMP/out" || err "summary: line 33 is not as the file has it: $(grep '^33' "$TMP/out" | head -1)"
	lh summary --cpu 1
	! grep -q 'per irq' "$TMP/out" || err "summary --cpu 1 shows the per-line view, which is not per CPU"
	lh prom
	expect_rc 0 "prom with a lines file"
	for want in 'latency_hist_line_samples_total{type="irq",irq="24",name="virtio0-input.0"} 1200' \
		    'latency_hist_line_latency_seconds{type="irq",irq="24",name="virtio0-input.0",stat="mean"} 0.00001431' \
		    'latency_hist_line_latency_seconds{type="irq",irq="24",name="virtio0-input.0",stat="p99.9"} 0.000055' \
		    'latency_hist_line_latency_seconds{type="irq",irq="33",name="lh_irq_test#2",stat="min"} -0.000003' \
		    'latency_hist_line_other_total{type="irq"} 5'; do
		grep -qF "$want" "$TMP/out" || err "prom lacks: $want"
	done
	if [ -n "$PROMTOOL" ]; then
		"$PROMTOOL" check metrics <"$TMP/out" >"$TMP/promtool.out" 2>&1 ||
			err "promtool check metrics: $(head -c 500 "$TMP/promtool.out")"
	fi
	if [ -n "$PY" ]; then
		lh json
		expect_rc 0 "json with a lines file"
		py '
import json, sys
d = json.load(sys.stdin)["types"]
l = d["irq"]["lines"]
assert d["wakeup"]["lines"] is None, d["wakeup"]["lines"]
assert (l["label"], l["why"], l["other"]) == ("irq", "threaded PREEMPT_RT", 5), l
assert [x["id"] for x in l["lines"]] == [24, 33, 33], l
x = l["lines"][1]
assert (x["name"], x["samples"], x["mean"], x["max"], x["max_cpu"]) == ("lh_irq_test", 20, 16.5, 23, 1), x
assert x["culprit"] == {"pid": 812, "comm": "lh irq hold"}, x
' || err "json: the lines are not as the file has them"
		lh summary --json
		py '
import json, sys
assert json.load(sys.stdin)["types"]["irq"]["lines"]["lines"][0]["p99"] == 31
' || err "summary --json: no lines"
	fi
	# a vector label (softirq/lines) works the same; a label lh gives
	# itself, a max below p99.9, a two-decimal mean cut to one, a missing
	# #other and a line after it are errors, and nothing is printed
	sed -e 's/^#irq /#vector /' -e 's/^#threaded .*/#context irq_exit/' "$TMP/lines/irq/lines" >"$TMP/l"
	cp "$TMP/l" "$TMP/lines/irq/lines"
	lh prom
	grep -qF 'latency_hist_line_samples_total{type="irq",vector="24",name="virtio0-input.0"} 1200' "$TMP/out" ||
		err "prom: no vector label from a #vector header"
	for bad in 's/^#vector /#cpu /' 's/ 31 55 61 / 31 55 50 /' '/^#other/d' 's/ 14\.31 / 14.3 /' \
		   '$a\
25 x 1 1 1.00 1 1 1 0 0 x'; do
		sed -e "$bad" "$TMP/l" >"$TMP/lines/irq/lines"
		lh prom
		expect_rc 2 "prom with a bad lines file ($bad)"
		[ ! -s "$TMP/out" ] || err "prom printed something from a bad lines file ($bad)"
	done
	# a name with a backslash and a quote is a label value with both escaped, in every awk
	# (mawk's gsub wrote one backslash where gawk and busybox write two)
	sed '$i\
40 a\\b"c 3 5 5.00 5 5 5 0 0 x' "$TMP/l" >"$TMP/lines/irq/lines"
	lh prom
	expect_rc 0 "prom with a backslash and a quote in a line's name"
	want='latency_hist_line_samples_total{type="irq",vector="40",name="a\\b\"c"} 3'
	grep -qF "$want" "$TMP/out" || err "prom lacks: $want; has: $(grep 'vector="40"' "$TMP/out" | head -1)"
	case_end per_line_views
}

# case_refused - a write the module refuses names the cause, never a shell's
# "printf: I/O error" or "write failed": a type this kernel cannot measure is
# refused before any write with the reason status gives; a write that fails
# (here /dev/full: the write(2) fails, as the module's ENODEV/EBUSY/EINVAL do)
# says what the module refuses and where to look
case_refused()
{
	make_main
	LH_ROOT=$TMP/main
	lh enable wakeup irqsoff
	expect_rc 2 "enable irqsoff without preemptirq tracepoints"
	expect_err "enable preemptirqsoff: not available: preemptirq tracepoints not present in this kernel" "enable irqsoff"
	expect_err "nothing was changed" "enable irqsoff"
	[ ! -s "$TMP/main/enable/irqsoff" ] && [ "$(cat "$TMP/main/enable/wakeup")" = 1 ] ||
		err "enable of an unavailable type changed the switches"
	ln -sf /dev/full "$TMP/main/wakeup/pid"
	lh pid wakeup 5
	expect_rc 2 "pid write refused"
	expect_err "the module refused the write of '5' to $TMP/main/wakeup/pid: pid refused it; lh status and dmesg say why" "pid write refused"
	! grep -qi "I/O error\|write failed\|write error\|printf" "$TMP/err" || err "shell noise in: $(cat "$TMP/err")"
	case_end refused_writes_name_the_cause
}

# ---------------------------------------------------------------- flavours

echo "TAP version 13"
for f in ${*:-gawk mawk busybox}; do
	if ! flavour "$f"; then
		FLAVOUR=$f
		skip all "$f is not installed"
		continue
	fi
	make_main
	case_summary
	case_summary_errors
	case_summary_json
	case_json
	case_many_cpus
	case_malformed
	case_empty
	case_controls
	case_snapshot_compare
	case_prom
	case_prom_bounds
	case_prom_sum_exact
	case_lines
	case_rows_same_output
	case_plot
	case_run
	case_help
	case_unreachable
	case_lockdown
	case_refused
done

echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
