#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_task_views_lh.sh - host tests of the per-task and per-cgroup views
# (TYPE/tasks, TYPE/cgroups; module/task_views_print.c) in scripts/lh:
# lh summary --by task|cgroup (text and --json), the task and cgroup series
# of lh prom and lh monitor --prom bounded by --top, a bad --by or --top
# refused, and trees without the files or with the views off. The trees are
# fixture.awk's, in the module's formats; every case runs once per flavour
# (gawk, mawk, busybox: host_lib.sh). python3 (strict JSON) and promtool are
# used when present.
#
# Usage: sh selftests/lh_host/test_task_views_lh.sh [FLAVOUR..]
# Prints KTAP; exit 1 if any case failed. About 3 s per flavour.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=host_lib.sh
. "$LT_DIR/host_lib.sh"
FIXTURE=$LT_DIR/fixture.awk
PY=$(command -v python3 2>/dev/null)
PROMTOOL=$(command -v promtool 2>/dev/null)
LH_ROOT=
export LH_ROOT

# The tree of the cases: wakeup with both views on (120 samples: three
# tasks, two of one pid and comm, as when a new task reuses a pid; a task
# name with a backslash and a quote), switchtime with its views off.
SPEC='cpus 2
types wakeup switchtime
samples wakeup 0 25:60 32:60
tasks wakeup #tasks 256
tasks wakeup #tid name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
tasks wakeup 242 rt_sleeper 40 25 80.88 473 473 473 1 0 swapper/1
tasks wakeup 238 rt_sleeper 50 32 134.21 2993 2993 2993 0 0 swapper/0
tasks wakeup 165 a\b"c 10 11 63.23 255 2465 2465 1 237 my grep
tasks wakeup 242 rt_sleeper 15 12 20.00 30 30 30 0 0 swapper/0
tasks wakeup #other 5
cgroups wakeup #cgroups 64
cgroups wakeup #cgroup name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
cgroups wakeup 1 / 70 11 525.39 11263 30719 41728 0 238 rt_sleeper
cgroups wakeup 46 /lh_tv_b 50 25 80.88 473 473 473 1 0 swapper/1
cgroups wakeup #other 0
tasks switchtime #tasks off
tasks switchtime #tid name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
tasks switchtime #other 0
cgroups switchtime #cgroups off
cgroups switchtime #cgroup name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
cgroups switchtime #other 0'

# fixture DIR [SPEC] - write a tree from SPEC (default: the one above)
fixture()
{
	rm -rf "$1"
	printf '%s\n' "${2-$SPEC}" >"$TMP/spec"
	awk -v out="$1" -f "$FIXTURE" "$TMP/spec" || err "fixture.awk failed"
}

# py CODE - run python3 CODE with the last lh output as sys.stdin
py()
{
	"$PY" -c "$1" <"$TMP/out" 2>&1
}

# has LINE WHAT - err unless the last lh output has the line LINE
has()
{
	grep -qxF -- "$1" "$TMP/out" || err "$2 lacks: $1"
}

# promcheck WHAT - promtool's check of the last lh output, where it is installed
promcheck()
{
	[ -z "$PROMTOOL" ] && return
	"$PROMTOOL" check metrics <"$TMP/out" >"$TMP/promtool.out" 2>&1 ||
		err "$1: promtool check metrics: $(head -c 500 "$TMP/promtool.out")"
}

# case_text - summary --by task and --by cgroup: a table per type, most
# samples first, the header's entries and #other; views off said as such
case_text()
{
	fixture "$TMP/tv"
	LH_ROOT=$TMP/tv
	lh summary --by task
	expect_rc 0 "summary --by task"
	has 'wakeup per task (256 entries, other 5):' "summary --by task"
	has 'switchtime per task: views off (echo 1 > '"$TMP"'/tv/switchtime/views)' "summary --by task"
	awk '$1 ~ /^[0-9]+$/ { printf "%s:%s:%s ", $1, $2, $3 }' "$TMP/out" >"$TMP/order"
	[ "$(cat "$TMP/order")" = '238:rt_sleeper:50 242:rt_sleeper:40 242:rt_sleeper:15 165:a\b"c:10 ' ] ||
		err "summary --by task: lines not most samples first: $(cat "$TMP/order")"
	awk '$1 == "165" && $(NF - 2) == "237" && $(NF - 1) == "my" && $NF == "grep" { f = 1 } END { exit !f }' "$TMP/out" ||
		err "summary --by task: culprit of 165 not as the file has it: $(grep '^165' "$TMP/out")"
	lh summary wakeup --by=cgroup
	expect_rc 0 "summary wakeup --by=cgroup"
	has 'wakeup per cgroup (64 entries, other 0):' "summary --by cgroup"
	awk '$1 == "46" && $2 == "/lh_tv_b" && $3 == "50" && $8 == "473" { f = 1 } END { exit !f }' "$TMP/out" ||
		err "summary --by cgroup: no line of /lh_tv_b: $(cat "$TMP/out")"
	! grep -q switchtime "$TMP/out" || err "summary wakeup --by cgroup shows switchtime"
	case_end summary_by_task_and_cgroup_text
}

# case_json - summary --by ... --json: strict JSON, lines most samples first
case_json()
{
	LH_ROOT=$TMP/tv
	if [ -z "$PY" ]; then
		skip summary_by_json "python3 is not installed"
		return
	fi
	lh summary --by task --json
	expect_rc 0 "summary --by task --json"
	py '
import json, sys
d = json.load(sys.stdin)
assert d["by"] == "task" and isinstance(d["schema_version"], int), d
w = d["types"]["wakeup"]
assert (w["views"], w["entries"], w["other"]) == (True, 256, 5), w
assert [(x["tid"], x["samples"]) for x in w["tasks"]] == [(238, 50), (242, 40), (242, 15), (165, 10)], w
x = w["tasks"][3]
assert (x["comm"], x["mean"], x["p99.9"], x["max"], x["max_cpu"]) == ("a\\b\"c", 63.23, 2465, 2465, 1), x
assert x["culprit"] == {"pid": 237, "comm": "my grep"}, x
assert sum(x["samples"] for x in w["tasks"]) + w["other"] == 120
assert d["types"]["switchtime"] == {"views": False}, d["types"]["switchtime"]
' || err "summary --by task --json: $(py 'import sys; print(sys.stdin.read()[:600])')"
	lh summary --json --by cgroup
	expect_rc 0 "summary --by cgroup --json"
	py '
import json, sys
w = json.load(sys.stdin)["types"]["wakeup"]
assert [(x["id"], x["path"], x["samples"]) for x in w["cgroups"]] == [(1, "/", 70), (46, "/lh_tv_b", 50)], w
' || err "summary --by cgroup --json: $(head -c 600 "$TMP/out")"
	case_end summary_by_json
}

# case_prom - the task and cgroup series: --top N with the most samples
# (default 10), the rest in _rest_samples so that the series add up to the
# histogram's total, labels escaped, a pid reused by a task of the same
# comm as name#2; --top 0: none
case_prom()
{
	LH_ROOT=$TMP/tv
	lh prom --top 2
	expect_rc 0 "prom --top 2"
	has 'latency_hist_views_enabled{type="wakeup"} 1' "prom --top 2"
	has 'latency_hist_views_enabled{type="switchtime"} 0' "prom --top 2"
	has 'latency_hist_task_samples_total{type="wakeup",task="rt_sleeper",tid="238"} 50' "prom --top 2"
	has 'latency_hist_task_samples_total{type="wakeup",task="rt_sleeper",tid="242"} 40' "prom --top 2"
	has 'latency_hist_task_latency_seconds{type="wakeup",task="rt_sleeper",tid="238",stat="p99"} 0.002993' "prom --top 2"
	has 'latency_hist_task_latency_seconds{type="wakeup",task="rt_sleeper",tid="242",stat="mean"} 0.00008088' "prom --top 2"
	has 'latency_hist_task_rest_samples{type="wakeup"} 30' "prom --top 2"
	has 'latency_hist_cgroup_samples_total{type="wakeup",cgroup="/lh_tv_b",cgroup_id="46"} 50' "prom --top 2"
	has 'latency_hist_cgroup_rest_samples{type="wakeup"} 0' "prom --top 2"
	n=$(grep -c '^latency_hist_task_samples_total' "$TMP/out")
	[ "$n" = 2 ] || err "prom --top 2: $n task series"
	! grep -q 'switchtime",task=\|tid="165"' "$TMP/out" || err "prom --top 2: a series beyond the top or of views off"
	promcheck "prom --top 2"
	lh prom
	expect_rc 0 "prom (default --top)"
	has 'latency_hist_task_samples_total{type="wakeup",task="rt_sleeper#2",tid="242"} 15' "prom"
	has 'latency_hist_task_samples_total{type="wakeup",task="a\\b\"c",tid="165"} 10' "prom"
	has 'latency_hist_task_rest_samples{type="wakeup"} 5' "prom"
	awk '/^latency_hist_task_(samples_total|rest_samples)\{type="wakeup"/ { s += $NF } END { exit s != 120 }' "$TMP/out" ||
		err "prom: task series plus rest are not the 120 samples"
	promcheck "prom"
	lh prom --top=0
	expect_rc 0 "prom --top=0"
	! grep -q 'latency_hist_\(task\|cgroup\|views\)_' "$TMP/out" || err "prom --top 0 has task or cgroup series"
	grep -q '^latency_hist_latency_seconds_count' "$TMP/out" || err "prom --top 0 lost the histograms"
	case_end prom_top_series
}

# case_monitor - the monitor's Prometheus file carries the same series
case_monitor()
{
	LH_ROOT=$TMP/tv
	rm -rf "$TMP/mon"
	mkdir -p "$TMP/mon"
	lh monitor --interval 1 --count 1 --out "$TMP/mon" --prom "$TMP/mon/lh.prom" --top 1
	expect_rc 0 "monitor --prom --top 1"
	cp "$TMP/mon/lh.prom" "$TMP/out" 2>/dev/null || : >"$TMP/out"
	has 'latency_hist_task_samples_total{type="wakeup",task="rt_sleeper",tid="238"} 50' "monitor --prom --top 1"
	has 'latency_hist_task_rest_samples{type="wakeup"} 70' "monitor --prom --top 1"
	has 'latency_hist_cgroup_samples_total{type="wakeup",cgroup="/",cgroup_id="1"} 70' "monitor --prom --top 1"
	n=$(grep -c '^latency_hist_\(task\|cgroup\)_samples_total' "$TMP/out")
	[ "$n" = 2 ] || err "monitor --prom --top 1: $n task and cgroup series, expected 2"
	promcheck "monitor --prom --top 1"
	lh monitor --interval 1 --count 1 --out "$TMP/mon" --top 1
	expect_rc 2 "monitor --top without --prom"
	expect_err "monitor: --top shapes the --prom file, and there is no --prom" "monitor --top without --prom"
	case_end monitor_prom_top_series
}

# case_refused - a bad --by or --top is refused with exit 2, a clear error
# and no output; --by is not per CPU
case_refused()
{
	LH_ROOT=$TMP/tv
	lh summary --by pid
	expect_rc 2 "summary --by pid"
	expect_err "summary: --by 'pid' is not task or cgroup" "summary --by pid"
	[ ! -s "$TMP/out" ] || err "summary --by pid printed something"
	lh summary --by
	expect_rc 2 "summary --by without a value"
	expect_err "summary: --by needs task or cgroup" "summary --by"
	lh summary --by task --cpu 0
	expect_rc 2 "summary --by task --cpu 0"
	expect_err "--cpu and --by do not go together" "summary --by task --cpu 0"
	for bad in -1 x 65537 07; do
		lh prom --top "$bad"
		expect_rc 2 "prom --top $bad"
		expect_err "prom: --top" "prom --top $bad"
		[ ! -s "$TMP/out" ] || err "prom --top $bad printed something"
	done
	case_end bad_by_and_top_refused
}

# case_absent - a module without the views (no tasks or cgroups files): --by
# says so, prom has no task series and works; a malformed or cut-short view
# is an error of the shared reader, with nothing printed
case_absent()
{
	fixture "$TMP/old" 'cpus 2
types wakeup
samples wakeup 0 25:60'
	LH_ROOT=$TMP/old
	lh summary --by task
	expect_rc 2 "summary --by task without tasks files"
	expect_err "no tasks file in $TMP/old for wakeup: this latency_hist is older than the per-task views" "summary --by task, old module"
	lh prom
	expect_rc 0 "prom without views files"
	! grep -q 'latency_hist_\(task\|cgroup\|views\)_' "$TMP/out" || err "prom without views files has their series"
	lh summary
	expect_rc 0 "summary without views files"
	LH_ROOT=$TMP/tv
	cp "$TMP/tv/wakeup/tasks" "$TMP/tasks.good"
	for bad in '/^#other/d' 's/^#tid name/#tid nom/' 's/ 473 473 473 1 / 473 473 400 1 /'; do
		sed -e "$bad" "$TMP/tasks.good" >"$TMP/tv/wakeup/tasks"
		lh summary --by task
		expect_rc 2 "summary --by task, bad tasks file ($bad)"
		[ ! -s "$TMP/out" ] || err "summary --by task printed something from a bad tasks file ($bad)"
		lh prom
		expect_rc 2 "prom, bad tasks file ($bad)"
		[ ! -s "$TMP/out" ] || err "prom printed something from a bad tasks file ($bad)"
	done
	sed -e '/^#other/d' "$TMP/tasks.good" >"$TMP/tv/wakeup/tasks"
	lh summary --by task
	expect_err "$TMP/tv/wakeup/tasks: no header or no #other line (cut short?)" "cut-short tasks file"
	cp "$TMP/tasks.good" "$TMP/tv/wakeup/tasks"
	case_end views_absent_and_malformed
}

echo "TAP version 13"
for f in ${*:-gawk mawk busybox}; do
	if ! flavour "$f"; then
		FLAVOUR=$f
		skip all "$f is not installed"
		continue
	fi
	case_text
	case_json
	case_prom
	case_monitor
	case_refused
	case_absent
done

echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
