#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_monitor.sh - host tests of `lh monitor`, `lh report` and
# `lh plot --over-time` against generated latency_hist trees
#
# fixture.awk writes trees in the module's formats; a test changes a tree
# between two monitor reads by writing the next tree over it in place (the
# directory keeps its inode: the same module load) or by putting a new
# directory in its place (a new inode: a module reload). Each read is one
# `lh monitor --count 0` (the start read only), which on a DIR with a state
# writes the record of what the tree gained since the last read: so the
# diffs are tested without waiting for clock intervals, and every step is a
# restart that has to continue the series. Real intervals, signals and read
# errors are tested with 1-3 s intervals.
#
# Every case runs once per flavour of the tools lh may meet on a rig, as in
# test_lh.sh: gawk and mawk with /bin/sh, and busybox sh with nothing but
# busybox applets in PATH; a flavour whose tools are missing is skipped.
# The series is parsed with python3's json module and the Prometheus file
# checked with `promtool check metrics` (Debian package prometheus); cases
# that need a missing one are skipped and say so.
#
# Usage: sh selftests/lh_host/test_monitor.sh [FLAVOUR..]
# Prints KTAP: "TAP version 13", "1..N", a result line per case and flavour,
# and "# Totals: pass:P fail:F xfail:0 xpass:0 skip:S error:0" last; exit 1
# if a case failed. About 30 s per flavour.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LT_DIR/host_lib.sh"
FIXTURE=$LT_DIR/fixture.awk
PY=$(command -v python3 2>/dev/null)
PROMTOOL=$(command -v promtool 2>/dev/null)
GNUPLOT=$(command -v gnuplot 2>/dev/null)
BUSYBOX_GNUPLOT=$GNUPLOT
CASES="diffs restart_intervals max_record resets prometheus rows_same json_schema signals read_errors bad_input report plot
many_cpus series_layouts torn_line rotation state_on_change state_size"
# the monitor's rows files (default /dev/shm) go into the test's directory
LH_MONITOR_RUNDIR=$TMP/run
export LH_MONITOR_RUNDIR
mkdir -p "$LH_MONITOR_RUNDIR"


# diag TEXT - a KTAP diagnostic line
diag()
{
	printf '# %s\n' "$*"
}

# tree DIR - write the tree of the spec on stdin into DIR, in place when DIR
# exists (the same module load: the directory keeps its inode)
tree()
{
	cat >"$TMP/spec"
	rm -rf "$TMP/new"
	awk -v out="$TMP/new" -f "$FIXTURE" "$TMP/spec" || err "fixture.awk failed"
	if [ -d "$1" ]; then
		cp -r "$TMP/new/." "$1/" || err "cannot update $1"
	else
		mv "$TMP/new" "$1"
	fi
}

# reload DIR - put the tree of the spec on stdin in place of DIR as a new
# directory (a module reload; the old one is removed after, so that its
# inode number cannot be reused)
reload()
{
	mv "$1" "$1.old"
	tree "$1"
	rm -rf "$1.old"
}

# step DIR [ARGS..] - one lh monitor read of LH_ROOT into DIR (--count 0)
step()
{
	S_DIR=$1
	shift
	lh monitor --interval 5 --count 0 --out "$S_DIR" "$@"
	expect_rc 0 "monitor --count 0 --out $S_DIR $*"
}

# last_read SERIES - python3 prints the lines since the last start event,
# one a line: records as "TYPE CPU samples min max p50 p90 p99 p99.9 p99.99
# below above [h=histogram] [m=latency/victim pid/victim comm<-culprit comm]",
# events as "event NAME reason=.. type=.. cpus=.." (parsed strictly)
last_read()
{
	"$PY" - "$1" <<'EOF' 2>&1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
last = max(i for i, d in enumerate(lines) if d.get("event") == "start")
def v(x):
    return "null" if x is None else str(x)
for d in lines[last + 1:]:
    if "event" in d:
        s = "event " + d["event"]
        for k in ("reason", "type"):
            if k in d:
                s += " %s=%s" % (k, d[k])
        if "cpus" in d:
            s += " cpus=" + ",".join(d["cpus"])
        print(s)
        continue
    s = " ".join(v(d[k]) for k in ("type", "cpu", "samples", "min_us", "max_us", "p50_us", "p90_us", "p99_us",
                                  "p99.9_us", "p99.99_us", "below", "above"))
    if "histogram" in d:
        s += " h=" + ",".join("%s:%s" % kv for kv in d["histogram"].items())
    m = d["max_latency"]
    if m:
        s += " m=%s/%s/%s<-%s" % (m["latency"], m["victim"]["pid"], m["victim"]["comm"], m["culprit"]["comm"])
    print(s)
EOF
}

# idle TYPE [CPU] - the records of an interval without samples: of CPU, or
# of CPUs 0 and 1 and all
idle()
{
	for I_C in ${2:-0 1 all}; do
		printf '%s %s 0 null null null null null null null 0 0%s\n' "$1" "$I_C" "$([ "$I_C" != all ] || echo ' h=')"
	done
}

# expect_read SERIES EXPECTED WHAT - err unless last_read prints EXPECTED
expect_read()
{
	got=$(last_read "$1")
	[ "$got" = "$2" ] || err "$3: the series says
$got
expected
$2"
}

# start_field SERIES KEY - KEY of the last start event (python3)
start_field()
{
	"$PY" -c 'import json, sys
d = [json.loads(l) for l in open(sys.argv[1]) if "\"event\": \"start\"" in l][-1]
print(json.dumps(d.get(sys.argv[2])))' "$1" "$2"
}

# ---------------------------------------------------------------- trees

# spec_a - the base tree: wakeup and missed_timer_offsets enabled
spec_a()
{
	cat <<'EOF'
cpus 2
enable wakeup 1
enable missed_timer_offsets 1
samples wakeup 0 3:10 4:5 12:1
samples wakeup 1 2:1
samples missed_timer_offsets 1 -2:1 5:1
max wakeup 0 1234 80 12 (0) rt sleeper <- 99 -21 swapper/0 123.456789
max wakeup 1 1235 80 2 (0) cyclictest <- 98 -21 kworker/1:1 124.000001
EOF
}

# spec_b - A plus, on wakeup CPU 0, 2 x 3 us and 2 x 40 us (a new max record
# whose culprit has a quote in its comm), and on missed_timer_offsets CPU 1
# 2 x -3 us and 1 x 7 us
spec_b()
{
	cat <<'EOF'
cpus 2
enable wakeup 1
enable missed_timer_offsets 1
samples wakeup 0 3:12 4:5 12:1 40:2
samples wakeup 1 2:1
samples missed_timer_offsets 1 -3:2 -2:1 5:1 7:1
max wakeup 0 1234 80 40 (0) rt sleeper <- 77 -21 a"b 130.000001
max wakeup 1 1235 80 2 (0) cyclictest <- 98 -21 kworker/1:1 124.000001
EOF
}

# spec_c - B plus 20000 us on wakeup CPU 1, which is its new max record
spec_c()
{
	spec_b | sed -e 's/^samples wakeup 1 .*/samples wakeup 1 2:1 20000:1/' \
		-e 's/^max wakeup 1 .*/max wakeup 1 1235 80 20000 (0) cyclictest <- 66 -21 lh_load_test 140.000001/'
}

# spec_d - C plus 15000 us on wakeup CPU 1, below its 20000 us record
spec_d()
{
	spec_c | sed -e 's/^samples wakeup 1 .*/samples wakeup 1 2:1 15000:1 20000:1/'
}

# ---------------------------------------------------------------- cases

# on_tree_a [PATH..] - LH_ROOT (and R): a new tree of spec_a at $TMP/r; the
# PATHs (a monitor's DIR) removed
on_tree_a()
{
	R=$TMP/r
	rm -rf "$R" "$@"
	spec_a | tree "$R"
	LH_ROOT=$R
	export LH_ROOT
}

# case_diffs - an interval's record is what the rows gained: samples, min,
# max, percentiles, out-of-range counts, the merged histogram of all CPUs,
# the max record that changed; types neither enabled nor changed are left out
case_diffs()
{
	on_tree_a "$TMP/m"
	step "$TMP/m"
	[ -f "$TMP/m/series.jsonl" ] && [ -f "$TMP/m/monitor.state" ] || err "no series or state after the first read"
	[ ! -e "$TMP/m/monitor.pid" ] || err "monitor.pid left behind"
	[ "$(start_field "$TMP/m/series.jsonl" continues)" = false ] || err "the first start event continues a series"
	expect_read "$TMP/m/series.jsonl" "event stop reason=after 0 intervals (--count)" "first read (a baseline)"
	spec_b | tree "$R"
	step "$TMP/m"
	expect_read "$TMP/m/series.jsonl" "wakeup 0 4 3 40 3 40 40 40 40 0 0 m=40/1234/rt sleeper<-a\"b
$(idle wakeup 1)
wakeup all 4 3 40 3 40 40 40 40 0 0 h=3:2,40:2
$(idle wakeup/sharedprio)
$(idle missed_timer_offsets 0)
missed_timer_offsets 1 3 <0 7 <0 7 7 7 7 2 0
missed_timer_offsets all 3 <0 7 <0 7 7 7 7 2 0 h=7:1
event stop reason=after 0 intervals (--count)" "A -> B"
	# counts beyond 2^32 stay exact (mawk and busybox awk print numbers
	# from 2^31 on as 2147483647 with %d, and mawk as 6e+09 with %s)
	sed -i -e '4s/.*/#Total samples: 6000000001/' -e '10s/.*/     2\t      6000000001/' "$R/wakeup/CPU1"
	step "$TMP/m" --prom "$TMP/m.prom"
	last_read "$TMP/m/series.jsonl" | grep -q '^wakeup 1 6000000000 2 2 2 2 2 2 2 0 0$' ||
		err "6e9 samples: $(last_read "$TMP/m/series.jsonl" | grep '^wakeup 1 ')"
	grep -q '^latency_hist_latency_seconds_bucket{type="wakeup",cpu="1",le="0.000005"} 6000000001$' "$TMP/m.prom" ||
		err "6e9 samples: prom: $(grep 'wakeup",cpu="1".*le="0.000005"' "$TMP/m.prom")"
	sed -i -e '4s/.*/#Total samples: 6000000003/' -e '10s/.*/     2\t      6000000003/' "$R/wakeup/CPU1"
	step "$TMP/m"
	last_read "$TMP/m/series.jsonl" | grep -q '^wakeup 1 2 2 2 2 2 2 2 2 0 0$' ||
		err "6e9 + 2 samples: $(last_read "$TMP/m/series.jsonl" | grep '^wakeup 1 ')"
	# no change: every enabled type has a record of 0 samples
	step "$TMP/m"
	[ "$(last_read "$TMP/m/series.jsonl" | awk '$3 != "0" && $1 != "event"' | wc -l)" -eq 0 ] ||
		err "a read without changes recorded samples: $(last_read "$TMP/m/series.jsonl")"
	[ "$(last_read "$TMP/m/series.jsonl" | grep -c ' all ')" -eq 3 ] || err "not 3 types in a read without changes"
	# the tree is only read: resets and switches untouched
	[ ! -s "$R/wakeup/reset" ] && [ "$(cat "$R/enable/timerandwakeup")" = 0 ] || err "lh monitor wrote to the tree"
	case_end monitor_records_what_the_rows_gained
}

# case_restart_intervals - real intervals: --count N records N intervals of
# --interval s after the start read; a new monitor on the same DIR continues
# where the last read stopped (gap_s), and the intervals add up
case_restart_intervals()
{
	on_tree_a "$TMP/m"
	lh monitor --interval 1 --count 2 --out "$TMP/m" --types wakeup
	expect_rc 0 "monitor --interval 1 --count 2"
	spec_b | tree "$R"
	sleep 1
	step "$TMP/m" --types wakeup
	out=$("$PY" - "$TMP/m/series.jsonl" <<'EOF' 2>&1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ev = [d["event"] for d in lines if "event" in d]
reads = []
for d in lines:
    if "event" not in d and d["cpu"] == "all" and d["type"] == "wakeup":
        reads.append(d)
starts = [d for d in lines if d.get("event") == "start"]
print(" ".join(ev), len(reads), sorted(set(d["type"] for d in lines if "type" in d)))
t0 = starts[0]["time_epoch_s"]
# every record covers from the previous read to its own time, without gaps
prev = t0
ok = True
for d in reads:
    ok = ok and d["time_epoch_s"] - d["interval_s"] == prev and d["interval_s"] >= 0
    prev = d["time_epoch_s"]
# reads are due every --interval after the start read: one that comes late
# (a loaded host) leaves a shorter interval to the next, so only the sum of
# the two is bounded: 2 s of uptime after the start read, at least one whole
# epoch second even when the start read's clock was read late
print(ok, reads[0]["interval_s"] + reads[1]["interval_s"] >= 1, starts[1]["continues"],
      starts[1]["gap_s"] == reads[2]["interval_s"], starts[1]["gap_s"] >= 1,
      [d["samples"] for d in reads], starts[0]["interval_s"], starts[1]["types"])
EOF
)
	[ "$out" = "start stop start stop 3 ['wakeup', 'wakeup/sharedprio']
True True True True True [0, 0, 4] 1 ['wakeup', 'wakeup/sharedprio']" ] || err "intervals and restart: $out"
	# a state of another tree is not continued
	rm -rf "$TMP/r2"
	cp -r "$R" "$TMP/r2"
	LH_ROOT=$TMP/r2 step "$TMP/m" --types wakeup
	[ "$(start_field "$TMP/m/series.jsonl" continues)" = false ] &&
		[ "$(start_field "$TMP/m/series.jsonl" reason)" = '"the previous state is of another host or tree"' ] ||
		err "a state of another tree was continued: $(start_field "$TMP/m/series.jsonl" reason)"
	expect_read "$TMP/m/series.jsonl" "event stop reason=after 0 intervals (--count)" "another tree: a baseline only"
	case_end monitor_intervals_and_restarts_continue_the_series
}

# case_max_record - samples >= 10240 us: the max record gives the value
# when it changed in the interval, else the record says ">=10240"
case_max_record()
{
	R=$TMP/r
	rm -rf "$R" "$TMP/m"
	spec_b | tree "$R"
	LH_ROOT=$R
	export LH_ROOT
	step "$TMP/m" --types wakeup --prom "$TMP/m.prom"
	spec_c | tree "$R"
	step "$TMP/m" --types wakeup --prom "$TMP/m.prom"
	expect_read "$TMP/m/series.jsonl" "$(idle wakeup 0)
wakeup 1 1 >=10240 20000 >=10240 >=10240 >=10240 >=10240 >=10240 0 1 m=20000/1235/cyclictest<-lh_load_test
wakeup all 1 >=10240 20000 >=10240 >=10240 >=10240 >=10240 >=10240 0 1 h=
$(idle wakeup/sharedprio)
event stop reason=after 0 intervals (--count)" "20000 us with a new record"
	grep -q '^latency_hist_interval_max_latency_seconds{type="wakeup",cpu="1"} 0.020000$' "$TMP/m.prom" ||
		err "prom: interval max of wakeup CPU 1 is not 0.02: $(grep 'interval_max.*wakeup",cpu="1"' "$TMP/m.prom")"
	spec_d | tree "$R"
	step "$TMP/m" --types wakeup --prom "$TMP/m.prom"
	expect_read "$TMP/m/series.jsonl" "$(idle wakeup 0)
wakeup 1 1 >=10240 >=10240 >=10240 >=10240 >=10240 >=10240 >=10240 0 1
wakeup all 1 >=10240 >=10240 >=10240 >=10240 >=10240 >=10240 >=10240 0 1 h=
$(idle wakeup/sharedprio)
event stop reason=after 0 intervals (--count)" "15000 us below the 20000 us record"
	grep -q '^latency_hist_interval_max_latency_seconds{type="wakeup",cpu="1"} +Inf$' "$TMP/m.prom" ||
		err "prom: interval max of an unknown >=10240 is not +Inf"
	grep -q '^latency_hist_interval_max_latency_seconds{type="wakeup",cpu="0"} NaN$' "$TMP/m.prom" ||
		err "prom: interval max without samples is not NaN"
	case_end interval_max_from_rows_or_the_max_record
}

# case_resets - counts that go down (a reset) start a new baseline for that
# type, with an event; a new tree directory (a module reload) one for all;
# the samples since are the interval's
case_resets()
{
	R=$TMP/r
	rm -rf "$R" "$TMP/m"
	spec_b | tree "$R"
	LH_ROOT=$R
	export LH_ROOT
	step "$TMP/m"
	# wakeup reset, then 1 x 5 us on CPU 0; missed_timer_offsets unchanged
	spec_b | sed -e '/^samples wakeup /d' -e '/^max wakeup /d' >"$TMP/spec_e"
	printf '%s\n' 'samples wakeup 0 5:1' 'max wakeup 0 1234 80 5 (0) rt sleeper <- 99 -21 swapper/0 150.000001' >>"$TMP/spec_e"
	tree "$R" <"$TMP/spec_e"
	step "$TMP/m"
	expect_read "$TMP/m/series.jsonl" "event baseline reason=counts went down: reset or module reload type=wakeup cpus=0,1
wakeup 0 1 5 5 5 5 5 5 5 0 0 m=5/1234/rt sleeper<-swapper/0
$(idle wakeup 1)
wakeup all 1 5 5 5 5 5 5 5 0 0 h=5:1
$(idle wakeup/sharedprio)
$(idle missed_timer_offsets)
event stop reason=after 0 intervals (--count)" "a wakeup reset"
	# a reset that more samples outgrew: the 3 us row went down
	sed -e 's/^samples wakeup 0 .*/samples wakeup 0 4:9/' "$TMP/spec_e" | tree "$R"
	step "$TMP/m"
	last_read "$TMP/m/series.jsonl" | grep -q '^event baseline reason=counts went down: reset or module reload type=wakeup cpus=0$' ||
		err "a row that emptied while the total grew is not a reset: $(last_read "$TMP/m/series.jsonl")"
	# ... and one where a row went down in count but not to 0
	sed -e 's/^samples wakeup 0 .*/samples wakeup 0 4:3 6:20/' "$TMP/spec_e" | tree "$R"
	step "$TMP/m"
	last_read "$TMP/m/series.jsonl" | grep -q '^event baseline reason=counts went down: reset or module reload type=wakeup cpus=0$' ||
		err "a row whose count went down while the total grew is not a reset: $(last_read "$TMP/m/series.jsonl")"
	# ... and one where only the max record went down
	sed -e 's/^samples wakeup 0 .*/samples wakeup 0 4:3 6:21/' \
	    -e 's/^max wakeup 0 .*/max wakeup 0 1234 80 4 (0) rt sleeper <- 99 -21 swapper\/0 160.000001/' "$TMP/spec_e" | tree "$R"
	step "$TMP/m"
	last_read "$TMP/m/series.jsonl" | grep -q '^event baseline reason=counts went down: reset or module reload type=wakeup cpus=0$' ||
		err "a max record that went down is not a reset: $(last_read "$TMP/m/series.jsonl")"
	# a reload: every type starts anew, all their samples are the interval's
	reload "$R" <"$TMP/spec_e"
	step "$TMP/m"
	expect_read "$TMP/m/series.jsonl" "event baseline reason=module reloaded
wakeup 0 1 5 5 5 5 5 5 5 0 0 m=5/1234/rt sleeper<-swapper/0
$(idle wakeup 1)
wakeup all 1 5 5 5 5 5 5 5 0 0 h=5:1
$(idle wakeup/sharedprio)
$(idle missed_timer_offsets 0)
missed_timer_offsets 1 5 <0 7 <0 7 7 7 7 3 0
missed_timer_offsets all 5 <0 7 <0 7 7 7 7 3 0 h=5:1,7:1
event stop reason=after 0 intervals (--count)" "a reload"
	case_end counts_going_down_start_a_new_baseline
}

# with_lines - the spec on stdin plus the irq type and its per-line view
# (irq/lines), whose series --prom writes as lh prom does
with_lines()
{
	cat
	cat <<'EOF'
types irqsoff preemptoff preemptirqsoff wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup switchtime timerwakeupswitch irq
samples irq 1 9:2
lines irq #threaded threadirqs
lines irq #irq name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
lines irq 24 virtio0-input.0 2 9 9.00 9 9 9 1 0 swapper/1
lines irq #other 0
EOF
}

# case_prometheus - --prom: promtool accepts it, its histograms and per-line
# views are those of lh prom, the interval maxima are there, it is replaced
# atomically
case_prometheus()
{
	R=$TMP/r
	rm -rf "$R" "$TMP/m" "$TMP/p"
	mkdir -p "$TMP/p"
	spec_a | with_lines | tree "$R"
	LH_ROOT=$R
	export LH_ROOT
	step "$TMP/m" --prom "$TMP/p/lh.prom"
	spec_c | with_lines | tree "$R"
	step "$TMP/m" --prom "$TMP/p/lh.prom"
	grep -q '^latency_hist_line_samples_total{type="irq",irq="24",name="virtio0-input.0"} 2$' "$TMP/p/lh.prom" ||
		err "the monitor's Prometheus file has no per-line series"
	[ "$(ls "$TMP/p")" = lh.prom ] || err "the prom directory holds $(ls "$TMP/p" | tr '\n' ' ')"
	if [ -n "$PROMTOOL" ]; then
		"$PROMTOOL" check metrics <"$TMP/p/lh.prom" >"$TMP/promtool.out" 2>&1 ||
			err "promtool check metrics: $(head -c 500 "$TMP/promtool.out")"
	else
		diag "promtool not installed: the exposition is compared with lh prom only"
	fi
	lh prom
	expect_rc 0 "lh prom"
	grep -v 'interval_max_latency_seconds\|monitor_read_timestamp_seconds' "$TMP/p/lh.prom" | sort >"$TMP/mon.sorted"
	sort "$TMP/out" >"$TMP/prom.sorted"
	cmp -s "$TMP/mon.sorted" "$TMP/prom.sorted" ||
		err "the monitor's histograms differ from lh prom: $(diff "$TMP/mon.sorted" "$TMP/prom.sorted" | head -n 6)"
	for want in 'latency_hist_interval_max_latency_seconds{type="wakeup",cpu="0"} 0.000040' \
		    'latency_hist_interval_max_latency_seconds{type="wakeup",cpu="1"} 0.020000' \
		    'latency_hist_interval_max_latency_seconds{type="missed_timer_offsets",cpu="1"} 0.000007' \
		    'latency_hist_interval_max_latency_seconds{type="irqsoff",cpu="1"} NaN' \
		    "latency_hist_monitor_read_timestamp_seconds $(grep '"cpu": "all"' "$TMP/m/series.jsonl" | tail -n 1 | sed 's/.*"time_epoch_s": \([0-9]*\).*/\1/')"; do
		grep -q "^$want\$" "$TMP/p/lh.prom" || err "prom lacks: $want"
	done
	# only samples below 0: -Inf
	spec_c | sed 's/^samples missed_timer_offsets 1 /&-9:1 /' | tree "$R"
	step "$TMP/m" --prom "$TMP/p/lh.prom"
	grep -q '^latency_hist_interval_max_latency_seconds{type="missed_timer_offsets",cpu="1"} -Inf$' "$TMP/p/lh.prom" ||
		err "prom: an interval of samples below 0 only is not -Inf"
	lh monitor --interval 5 --count 0 --out "$TMP/m" --prom "$TMP/p/lh.txt"
	expect_rc 2 "--prom without .prom"
	# a CPUx header that goes bad within one module load (after its format
	# check): the read fails and names the line, the monitor writes nothing
	cp "$TMP/m/series.jsonl" "$TMP/series.before"
	cp "$TMP/p/lh.prom" "$TMP/prom.before"
	sed -i '4s/.*/#Total samples: x/' "$R/wakeup/CPU0"
	lh monitor --interval 5 --count 0 --out "$TMP/m" --prom "$TMP/p/lh.prom"
	expect_rc 2 "a malformed CPUx header"
	expect_err "$R/wakeup/CPU0:4: not a #Total samples line" "a malformed CPUx header"
	cmp -s "$TMP/series.before" "$TMP/m/series.jsonl" || err "a failed read wrote to the series"
	cmp -s "$TMP/prom.before" "$TMP/p/lh.prom" || err "a failed read wrote the Prometheus file"
	case_end prometheus_file_is_valid_and_atomic
}

# case_rows_same - a monitor reading rows files writes what one reading the
# CPUx files writes: the same series, state and Prometheus file (but the
# _sum of a CPU with several samples out of range on one side, which only
# the rows file has exactly)
case_rows_same()
{
	R=$TMP/r
	LH_ROOT=$R
	export LH_ROOT
	for layout in cpux rows; do
		rm -rf "$R" "$TMP/m-$layout" "$TMP/p-$layout"
		mkdir -p "$TMP/p-$layout"
		for s in spec_a spec_b spec_c spec_d; do
			{
				$s
				[ "$layout" = cpux ] || echo rows
			} | tree "$R"
			step "$TMP/m-$layout" --prom "$TMP/p-$layout/lh.prom"
			grep -v '_sum{\|monitor_read_timestamp_seconds' "$TMP/p-$layout/lh.prom" >"$TMP/p-$layout/$s"
		done
		# (what the clock, the process and the directory make differ)
		sed -e 's/"time[a-z_]*": [^,}]*//g; s/"gap_s": [^,}]*//; s/"interval_s": [^,}]*//; s/"pid": [0-9]*//' \
			"$TMP/m-$layout/series.jsonl" >"$TMP/m-$layout/series.norm"
		sed -e '/^time/d; /^inode /d; /^rows /d' "$TMP/m-$layout/monitor.state" >"$TMP/m-$layout/state.norm"
		sed 1d "$(rows_file "$TMP/m-$layout")" >"$TMP/m-$layout/rows.norm"
	done
	for f in m-cpux/series.norm m-cpux/state.norm m-cpux/rows.norm p-cpux/spec_a p-cpux/spec_b p-cpux/spec_c p-cpux/spec_d; do
		cmp -s "$TMP/$f" "$TMP/$(echo "$f" | sed 's/-cpux/-rows/')" ||
			err "$f differs: $(diff "$TMP/$f" "$TMP/$(echo "$f" | sed 's/-cpux/-rows/')" | head -n 6)"
	done
	grep -q '^latency_hist_latency_seconds_sum{type="wakeup",cpu="1"[^}]*} 0.035002$' "$TMP/p-rows/lh.prom" ||
		err "rows: wakeup CPU 1 _sum is not 2 + 15000 + 20000 us: $(grep 'seconds_sum{type="wakeup",cpu="1"' "$TMP/p-rows/lh.prom")"
	case_end monitor_reads_the_rows_file_as_the_cpux_files
}

# case_json_schema - every line of a series is strict JSON with the
# documented keys in order; times agree; strings are escaped
case_json_schema()
{
	on_tree_a "$TMP/m"
	step "$TMP/m"
	spec_b | tree "$R"
	step "$TMP/m"
	spec_c | tree "$R"
	step "$TMP/m"
	spec_b | tree "$R"
	step "$TMP/m"
	out=$("$PY" - "$TMP/m/series.jsonl" <<'EOF' 2>&1
import datetime, json, sys
rec_keys = ["time", "time_epoch_s", "interval_s", "type", "cpu", "samples", "min_us", "max_us", "p50_us", "p90_us",
            "p99_us", "p99.9_us", "p99.99_us", "below", "above"]
start_keys = ["time", "time_epoch_s", "event", "host", "kernel_release", "lh_version", "interval_s", "pid", "root",
              "types", "continues"]
n = {"records": 0, "events": 0}
bad = []
for no, l in enumerate(open(sys.argv[1]), 1):
    d = json.loads(l)
    t = datetime.datetime.strptime(d["time"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
    if int(t.timestamp()) != d["time_epoch_s"]:
        bad.append("line %d: time and time_epoch_s disagree" % no)
    if "event" in d:
        n["events"] += 1
        if d["event"] == "start" and list(d)[:len(start_keys)] != start_keys:
            bad.append("line %d: start keys %s" % (no, list(d)))
        continue
    n["records"] += 1
    keys = list(d)
    want = rec_keys + (["histogram"] if d["cpu"] == "all" else []) + ["max_latency"]
    if keys != want:
        bad.append("line %d: keys %s" % (no, keys))
    for k in ("samples", "below", "above", "interval_s"):
        if not isinstance(d[k], int) or d[k] < 0:
            bad.append("line %d: %s" % (no, k))
    for k in rec_keys[6:13]:
        v = d[k]
        if (v is None) != (d["samples"] == 0) or not (v is None or isinstance(v, int) or v in ("<0", ">=10240")):
            bad.append("line %d: %s = %r" % (no, k, v))
    if d["cpu"] == "all" and sum(d["histogram"].values()) + d["below"] + d["above"] != d["samples"]:
        bad.append("line %d: the histogram does not add up" % no)
print(n["records"], n["events"], bad[:3])
EOF
)
	[ "$out" = "27 9 []" ] || err "series schema: $out"
	grep -q '"comm": "a\\"b"' "$TMP/m/series.jsonl" || err "a quote in a comm is not escaped"
	case_end series_lines_are_strict_json
}

# case_signals - SIGTERM (and SIGINT) while waiting: a final record of the
# part interval, a stop event, exit 0, and at once
case_signals()
{
	on_tree_a "$TMP/m"
	for sig in TERM INT; do
		if [ "$sig" = INT ]; then
			# a background job of a script ignores SIGINT, and a shell
			# cannot trap a signal ignored at its start: restore it
			SIGDEF=$(env --default-signal=INT true 2>/dev/null && echo "$(command -v env) --default-signal=INT")
			if [ -z "$SIGDEF" ]; then
				diag "env --default-signal is missing: SIGINT not tested"
				continue
			fi
		else
			SIGDEF=
		fi
		nstart=$(cat "$TMP/m/series.jsonl" 2>/dev/null | grep -c '"event": "start"')
		t0=$(date +%s)
		PATH=$FPATH $SIGDEF $FSH "$LH" monitor --interval 60 --out "$TMP/m" --types wakeup \
			>"$TMP/out" 2>"$TMP/err" &
		pid=$!
		n=0
		until [ "$(cat "$TMP/m/series.jsonl" 2>/dev/null | grep -c '"event": "start"')" -gt "$nstart" ]; do
			n=$((n + 1))
			[ "$n" -lt 300 ] || break
			sleep 0.1
		done
		spec_b | tree "$R"
		sleep 1
		kill -"$sig" "$pid"
		wait "$pid"
		rc=$?
		expect_rc 0 "SIG$sig"
		[ $(($(date +%s) - t0)) -lt 30 ] || err "SIG$sig: the monitor took $(($(date +%s) - t0)) s to stop"
		tail -n 1 "$TMP/m/series.jsonl" | grep -q "\"event\": \"stop\", \"reason\": \"SIG$sig\"}$" ||
			err "SIG$sig: the last line is not the stop event: $(tail -n 1 "$TMP/m/series.jsonl")"
		[ ! -e "$TMP/m/monitor.pid" ] || err "SIG$sig: monitor.pid left behind"
		if [ -n "$PY" ]; then
			out=$(last_read "$TMP/m/series.jsonl" | sed -n 3p)
			if [ "$sig" = TERM ]; then
				[ "$out" = "wakeup all 4 3 40 3 40 40 40 40 0 0 h=3:2,40:2" ] ||
					err "SIG$sig: the final record is '$out'"
			else
				[ "$out" = "wakeup all 0 null null null null null null null 0 0 h=" ] ||
					err "SIG$sig: the final record is '$out'"
			fi
		fi
	done
	case_end signals_end_with_a_final_record
}

# case_read_errors - a tree that cannot be read is an error event (once),
# the monitor goes on, and the next good read covers the whole time
case_read_errors()
{
	on_tree_a "$TMP/m"
	PATH=$FPATH $FSH "$LH" monitor --interval 2 --count 3 --out "$TMP/m" --types wakeup >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	n=0
	until grep -q '"event": "start"' "$TMP/m/series.jsonl" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 300 ] || break
		sleep 0.1
	done
	mv "$R" "$R.away"
	n=0
	until grep -q '"event": "error"' "$TMP/m/series.jsonl" 2>/dev/null; do
		n=$((n + 1))
		[ "$n" -lt 300 ] || break
		sleep 0.1
	done
	mv "$R.away" "$R"
	wait "$pid"
	rc=$?
	expect_rc 0 "a monitor that met an unreadable tree"
	grep -q "lh: monitor: $R/status: cannot read it (module unloaded?)" "$TMP/err" ||
		err "no warning on stderr: $(cat "$TMP/err")"
	if [ -n "$PY" ]; then
		out=$("$PY" - "$TMP/m/series.jsonl" <<'EOF' 2>&1
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ev = [d["event"] for d in lines if "event" in d]
reads = [d for d in lines if d.get("cpu") == "all" and d["type"] == "wakeup"]
print(" ".join(ev), len(reads), reads[-1]["interval_s"] >= 4 if reads else None,
      [d["reason"] for d in lines if d.get("event") == "error"])
EOF
)
		case $out in
		"start error stop 1 True ['$R/status: cannot read it (module unloaded?)']" | \
		"start error stop 2 "*" ['$R/status: cannot read it (module unloaded?)']") ;;
		*) err "series after a read error: $out" ;;
		esac
	fi
	case_end read_errors_are_events_and_the_monitor_goes_on
}

# case_bad_input - bad arguments, a missing or malformed tree, a DIR another
# monitor writes: exit 2, a clear error, nothing created or written
case_bad_input()
{
	on_tree_a "$TMP/m"
	: >"$TMP/afile"
	for args in "--interval 0 --out $TMP/m|not a whole number" "--interval x --out $TMP/m|not a whole number" \
		    "--interval -1 --out $TMP/m|not a whole number" "--interval 05 --out $TMP/m|not a whole number" \
		    "--interval 99999999 --out $TMP/m|more than" "--out $TMP/m|usage" "--interval 5|usage" \
		    "--interval 5 --count x --out $TMP/m|not a number" "--interval 5 --count -1 --out $TMP/m|not a number" \
		    "--interval 5 --out $TMP/m --prom $TMP/m.txt|must end in .prom" \
		    "--interval 5 --out $TMP/m --prom $TMP/nodir/x.prom|does not exist" \
		    "--interval 5 --out $TMP/m --types nosuch|unknown type" "--interval 5 --out $TMP/m --bogus|unknown argument" \
		    "--interval 5 --out $TMP/afile|not a directory" "--interval 5 --count 0 --out $TMP/m --types|needs a list" \
		    "--interval 5 --out $TMP/m --rotate weekly|is not daily or a size" \
		    "--interval 5 --out $TMP/m --rotate 0|is not daily or a size" "--interval 5 --out $TMP/m --rotate 10T|is not daily" \
		    "--interval 5 --out $TMP/m --rotate daily --keep 0|is not a number of pieces" \
		    "--interval 5 --out $TMP/m --rotate daily --keep 3w|is not a number of pieces" \
		    "--interval 5 --out $TMP/m --keep 3|there is no --rotate" \
		    "--interval 5 --out $TMP/m --buckets 5,1|must ascend" \
		    "--interval 5 --out $TMP/m --host-label|there is no --prom"; do
		# shellcheck disable=SC2086 # the arguments are words
		lh monitor ${args%|*}
		expect_rc 2 "monitor ${args%|*}"
		expect_err "${args#*|}" "monitor ${args%|*}"
		[ ! -e "$TMP/m" ] || { err "monitor ${args%|*} created $TMP/m"; rm -rf "$TMP/m"; }
	done
	LH_ROOT=$TMP/nonexistent lh monitor --interval 5 --out "$TMP/m"
	expect_rc 2 "a missing tree"
	expect_err "does not exist" "a missing tree"
	rm -rf "$TMP/bad"
	cp -r "$R" "$TMP/bad"
	sed -i '100d' "$TMP/bad/wakeup/CPU1"
	LH_ROOT=$TMP/bad lh monitor --interval 5 --count 0 --out "$TMP/m"
	expect_rc 2 "a malformed tree"
	expect_err "$TMP/bad/wakeup/CPU1" "a malformed tree"
	[ ! -e "$TMP/m" ] || err "a malformed tree created $TMP/m"
	# a DIR in use: a live lh monitor holds it
	step "$TMP/m"
	cp "$TMP/m/series.jsonl" "$TMP/series.before"
	# the holder blocks in a builtin (no child to outlive it), opening a FIFO
	rm -f "$TMP/fifo"
	mkfifo "$TMP/fifo"
	sh -c 'read -r x <"$0"' "$TMP/fifo" lh monitor --out x >/dev/null 2>&1 &
	holder=$!
	sleep 0.3
	if tr '\0' ' ' <"/proc/$holder/cmdline" 2>/dev/null | grep -q ' monitor '; then
		echo "$holder" >"$TMP/m/monitor.pid"
		lh monitor --interval 5 --count 0 --out "$TMP/m"
		expect_rc 2 "a DIR another monitor writes"
		expect_err "is written by lh monitor pid $holder" "a DIR another monitor writes"
		cmp -s "$TMP/series.before" "$TMP/m/series.jsonl" || err "a refused monitor wrote to the series"
		[ "$(cat "$TMP/m/monitor.pid")" = "$holder" ] || err "a refused monitor touched monitor.pid"
	else
		err "the holder's /proc/$holder/cmdline does not name monitor"
	fi
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	# a pid file left by a monitor that died is taken over
	echo 999999999 >"$TMP/m/monitor.pid"
	step "$TMP/m"
	[ ! -e "$TMP/m/monitor.pid" ] || err "a stale monitor.pid was not taken over"
	case_end bad_input_changes_nothing
}

# series_line EPOCH TYPE CPU SAMPLES MAX ABOVE [HIST [MAXREC]] - one record
# line of the documented shape (lh report reads no percentile of a record)
series_line()
{
	printf '{"time": "%s", "time_epoch_s": %d, "interval_s": 300, "type": "%s", "cpu": "%s", ' \
		"$(date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ)" "$1" "$2" "$3"
	printf '"samples": %d, "min_us": null, "max_us": %s, "p50_us": null, "p90_us": null, "p99_us": null, ' "$4" "$5"
	printf '"p99.9_us": null, "p99.99_us": null, "below": 0, "above": %d' "$6"
	[ "$3" != all ] || printf ', "histogram": {%s}' "${7:-}"
	printf ', "max_latency": %s}\n' "${8:-null}"
}

# make_long_series DIR - a two-day series in the documented shape. Day 1:
# 990 x 5, 9 x 50 us in the first interval, 1 x 500 us on CPU 1 in the
# second; a restart. Day 2: a reset, then 998 x 7 us and 2 samples >= 10240
# us on CPU 0, one a known 20000 us, the other unknown.
make_long_series()
{
	rm -rf "$1"
	mkdir -p "$1"
	d1=1795305600	# 2026-11-22T00:00:00Z
	d2=$((d1 + 86400))
	victim='{"latency": 500, "timeroffset": 0, "victim": {"pid": 42, "prio": 80, "comm": "cyclictest"}, "culprit": {"pid": 7, "prio": -21, "comm": "kworker/1:1"}, "timestamp": 1.000001}'
	{
		echo "{\"time\": \"2026-11-22T00:00:00Z\", \"time_epoch_s\": $d1, \"event\": \"start\", \"host\": \"rig1\", \"kernel_release\": \"6.12.0-rt\", \"lh_version\": \"0.1.0\", \"interval_s\": 300, \"pid\": 1, \"root\": \"/x\", \"types\": [\"wakeup\"], \"continues\": false, \"reason\": \"no previous state\"}"
		series_line $((d1 + 300)) wakeup 0 500 5 0
		series_line $((d1 + 300)) wakeup 1 499 50 0
		series_line $((d1 + 300)) wakeup all 999 50 0 '"5": 990, "50": 9'
		series_line $((d1 + 600)) wakeup 0 0 null 0
		series_line $((d1 + 600)) wakeup 1 1 500 0 '' "$victim"
		series_line $((d1 + 600)) wakeup all 1 500 0 '"500": 1'
		echo "{\"time\": \"2026-11-22T10:00:00Z\", \"time_epoch_s\": $((d1 + 36000)), \"event\": \"start\", \"host\": \"rig1\", \"kernel_release\": \"6.12.0-rt\", \"lh_version\": \"0.1.0\", \"interval_s\": 300, \"pid\": 2, \"root\": \"/x\", \"types\": [\"wakeup\"], \"continues\": true, \"gap_s\": 35400}"
		echo "{\"time\": \"2026-11-23T01:00:00Z\", \"time_epoch_s\": $((d2 + 3600)), \"event\": \"baseline\", \"reason\": \"counts went down: reset or module reload\", \"type\": \"wakeup\", \"cpus\": [\"0\"]}"
		series_line $((d2 + 3600)) wakeup 0 500 20000 1
		series_line $((d2 + 3600)) wakeup 1 0 null 0
		series_line $((d2 + 3600)) wakeup all 500 20000 1 '"7": 499'
		series_line $((d2 + 3900)) wakeup 0 500 '">=10240"' 1
		series_line $((d2 + 3900)) wakeup 1 0 null 0
		series_line $((d2 + 3900)) wakeup all 500 '">=10240"' 1 '"7": 499'
	} >"$1/series.jsonl"
}

# case_report - the worst intervals and the per-day p99, p99.9 and max
case_report()
{
	make_long_series "$TMP/long"
	lh report "$TMP/long" --top 3
	expect_rc 0 "lh report"
	expect='lh report: '"$TMP"'/long/series.jsonl
host rig1, kernel 6.12.0-rt, lh 0.1.0
2026-11-22T00:05:00Z .. 2026-11-23T01:05:00Z: wakeup 4 intervals (interval 300 s)
events: 2 starts (1 continuing a series), 1 baselines (reset, reload, new boot), 0 read errors
  2026-11-23T01:00:00Z  baseline wakeup: counts went down: reset or module reload

Worst intervals (per CPU, largest maximum first):
   max(us)  type                  CPU  interval end (UTC)    len(s)    samples  victim/pid <- culprit/pid
     20000  wakeup                  0  2026-11-23T01:00:00Z     300        500  
   >=10240  wakeup                  0  2026-11-23T01:05:00Z     300        500  
       500  wakeup                  1  2026-11-22T00:10:00Z     300          1  cyclictest/42 <- kworker/1:1/7

Per day (UTC), all CPUs:
  day         type                      samples      p99    p99.9      max  CPU  at
  2026-11-22  wakeup                       1000        5       50      500    1  00:10:00
  2026-11-23  wakeup                       1000        7  >=10240    20000    0  01:00:00'
	[ "$(cat "$TMP/out")" = "$expect" ] || err "lh report:
$(cat "$TMP/out")
expected:
$expect"
	lh report "$TMP/long"
	[ "$(grep -c '  wakeup  ' "$TMP/out")" -eq 7 ] || err "lh report: not 5 worst intervals and 2 days: $(cat "$TMP/out")"
	# a series the monitor wrote
	on_tree_a "$TMP/m"
	step "$TMP/m"
	spec_c | tree "$R"
	step "$TMP/m"
	lh report "$TMP/m"
	expect_rc 0 "lh report of a monitor's series"
	grep -q '^     20000  wakeup                  1  .*  cyclictest/1235 <- lh_load_test/66$' "$TMP/out" ||
		err "lh report of a monitor's series: no 20000 us worst interval: $(cat "$TMP/out")"
	for bad in "$TMP/nonexistent" "$TMP/r" "$TMP/long --top 0" "$TMP/long --top x" "$TMP/long $TMP/long" ""; do
		# shellcheck disable=SC2086 # words
		lh report $bad
		expect_rc 2 "lh report $bad"
	done
	case_end report_lists_worst_intervals_and_days
}

# case_plot - the data of the long-term view, and the picture with gnuplot
case_plot()
{
	make_long_series "$TMP/long"
	lh plot --over-time "$TMP/long" --data
	expect_rc 0 "plot --over-time --data"
	expect='# latency_hist wakeup: maximum (us) per 300 s interval, host rig1
# CPU 0
1795305900 5
1795395600 20000
1795395900 10240


# CPU 1
1795305900 50
1795306200 500'
	[ "$(cat "$TMP/out")" = "$expect" ] || err "plot --over-time --data:
$(cat "$TMP/out")
expected:
$expect"
	lh plot --over-time "$TMP/long" --data missed_timer_offsets
	expect_rc 2 "plot --over-time of a type without samples"
	expect_err "no interval with a sample of missed_timer_offsets" "plot --over-time of a type without samples"
	rm -f "$TMP/o.png" "$TMP/o.svg"
	if [ -n "$GNUPLOT" ] && [ -x "$(PATH=$FPATH command -v gnuplot)" ]; then
		lh plot --over-time "$TMP/long" "$TMP/o.png"
		expect_rc 0 "plot --over-time png"
		[ "$(head -c 4 "$TMP/o.png" | od -An -c | tr -d ' ')" = '211PNG' ] || err "o.png is not a PNG"
		lh plot --over-time "$TMP/long" "$TMP/o.svg" wakeup
		expect_rc 0 "plot --over-time svg"
		grep -q '<svg' "$TMP/o.svg" && grep -q 'maximum (us) per 300 s interval, host rig1' "$TMP/o.svg" ||
			err "o.svg is not SVG with the interval and host in its title"
	else
		lh plot --over-time "$TMP/long" "$TMP/o.png"
		expect_rc 2 "plot --over-time without gnuplot"
		expect_err "gnuplot is not installed" "plot --over-time without gnuplot"
	fi
	lh plot --over-time "$TMP/long" "$TMP/o.jpg"
	expect_rc 2 "plot --over-time to .jpg"
	lh plot --over-time "$TMP/nonexistent" "$TMP/o.png"
	expect_rc 2 "plot --over-time of a missing directory"
	[ ! -e "$TMP/o.jpg" ] || err "a refused plot wrote a file"
	case_end plot_over_time
}

# rows_file DIR - the rows file that the state of the monitor of DIR names
rows_file()
{
	sed -n 's/^rows \(.*\) [^ ]*$/\1/p' "$1/monitor.state"
}

# case_many_cpus - 40 CPUs in numeric order; a CPU whose counts and max
# record did not change is not read past its header (its rows come from the
# state)
case_many_cpus()
{
	R=$TMP/r
	rm -rf "$R" "$TMP/m"
	printf '%s\n' 'cpus 40' 'types wakeup' 'enable wakeup 1' 'samples wakeup 10 100:2' 'samples wakeup 39 9000:1' | tree "$R"
	LH_ROOT=$R
	export LH_ROOT
	step "$TMP/m"
	printf '%s\n' 'cpus 40' 'types wakeup' 'enable wakeup 1' 'samples wakeup 10 100:2' 'samples wakeup 39 9000:1 10239:3' \
		'samples wakeup 2 0:5' | tree "$R"
	# CPU 10 did not change: only its header is read, so a row broken
	# after the first read goes unseen (a full read would refuse it)
	sed -i '50s/.*/broken/' "$R/wakeup/CPU10"
	step "$TMP/m"
	got=$(grep '"type": "wakeup"' "$TMP/m/series.jsonl" | sed 's/.*"cpu": "\([^"]*\)", "samples": \([0-9]*\), .*"max_us": \([^,]*\),.*/\1:\2:\3/' |
	      tr '\n' ' ')
	want=$(awk 'BEGIN { for (i = 0; i < 40; i++) printf "%d:%s ", i, i == 2 ? "5:0" : i == 39 ? "3:10239" : "0:null"; print "all:8:10239 " }')
	[ "$got" = "$want" ] || err "40 CPUs: $got"
	grep -q "^C wakeup 10 2 0 0\$" "$TMP/m/monitor.state" || err "CPU10's counts are not kept in the state"
	grep -q "^wakeup 10 100 2\$" "$(rows_file "$TMP/m")" || err "CPU10's rows are not kept in the rows file"
	case_end many_cpus_in_numeric_order
}

# report_body - the lh report output in $TMP/out without its first line
# (which names the series)
report_body()
{
	sed 1d "$TMP/out"
}

# case_series_layouts - the series reader takes any JSON layout of the
# records: compact (jq -c), spread over lines (jq .), other blanks
case_series_layouts()
{
	make_long_series "$TMP/long"
	lh report "$TMP/long"
	expect_rc 0 "lh report"
	report_body >"$TMP/report.want"
	lh plot --over-time "$TMP/long" --data
	cp "$TMP/out" "$TMP/plot.want"
	for layout in compact lines blanks; do
		rm -rf "$TMP/lay"
		mkdir -p "$TMP/lay"
		case $layout in
		compact) sed -e 's/": /":/g' -e 's/, "/,"/g' -e 's/, {/,{/g' ;;
		lines) sed -e 's/^{/{\n  /' -e 's/, "/,\n  "/g' -e 's/}$/\n}/' ;;
		blanks) sed -e 's/": /" :\t /g' -e 's/, "/ ,  "/g' -e 's/$/ \r/' ;;
		esac <"$TMP/long/series.jsonl" >"$TMP/lay/series.jsonl"
		lh report "$TMP/lay"
		expect_rc 0 "lh report of the $layout layout"
		report_body | cmp -s - "$TMP/report.want" ||
			err "lh report of the $layout layout: $(report_body | diff "$TMP/report.want" - | head -n 5)"
		lh plot --over-time "$TMP/lay" --data
		expect_rc 0 "plot --over-time of the $layout layout"
		cmp -s "$TMP/out" "$TMP/plot.want" || err "plot --over-time of the $layout layout differs"
	done
	case_end series_reader_takes_any_json_layout
}

# case_torn_line - a record cut short (a full disk) is skipped with a
# warning, and the monitor starts its next record on a new line
case_torn_line()
{
	on_tree_a "$TMP/m"
	step "$TMP/m"
	torn_at=$(($(wc -l <"$TMP/m/series.jsonl") + 1))
	printf '{"time": "2026-11-27T10:00:00Z", "time_epoch_s": 1795773600, "interval_s": 5, "type": "wakeup", "cpu": "0", "sam' \
		>>"$TMP/m/series.jsonl"
	spec_b | tree "$R"
	step "$TMP/m"
	expect_err "ends in a record cut short" "monitor after a torn line"
	[ "$(grep -c '^{"time": "[^"]*", "time_epoch_s": [0-9]*, "event": "start"' "$TMP/m/series.jsonl")" = 2 ] ||
		err "the start event after a torn line is not at the start of a line"
	lh report "$TMP/m"
	expect_rc 0 "lh report of a series with a torn line"
	expect_err "line $torn_at: a record cut short" "lh report of a series with a torn line"
	grep -q '^events: 2 starts (1 continuing a series)' "$TMP/out" ||
		err "lh report of a series with a torn line: $(grep '^events' "$TMP/out")"
	# cut short at the end, as a reader finds it before the monitor's next read
	make_long_series "$TMP/long"
	torn_at=$(($(wc -l <"$TMP/long/series.jsonl") + 1))
	printf '{"time": "2026-11-23T01:10:00Z", "time_epoch_s": 1795396200, "interval_s": 300, "type": "wak' \
		>>"$TMP/long/series.jsonl"
	lh report "$TMP/long"
	expect_rc 0 "lh report of a series cut short at its end"
	expect_err "line $torn_at: a record cut short" "lh report of a series cut short at its end"
	grep -q 'wakeup 4 intervals' "$TMP/out" || err "lh report of a series cut short: $(sed -n 3p "$TMP/out")"
	lh plot --over-time "$TMP/long" --data
	expect_rc 0 "plot --over-time of a series cut short at its end"
	expect_err "a record cut short" "plot --over-time of a series cut short at its end"
	case_end torn_record_is_skipped_and_the_next_starts_a_line
}

# pieces DIR [END] - the number of closed pieces series-* in DIR (ending in END)
pieces()
{
	P_N=0
	for P_F in "$1"/series-*"${2:-}"; do
		[ ! -e "$P_F" ] || P_N=$((P_N + 1))
	done
	echo "$P_N"
}

# case_rotation - --rotate closes the series into gzipped pieces, daily or
# by size; --keep drops the oldest; lh report and plot read every piece
case_rotation()
{
	on_tree_a "$TMP/rot"
	# a series begun on 2026-11-22: today's read closes it
	make_long_series "$TMP/rot"
	lh report "$TMP/rot"
	report_body | grep -e '^  2026-11-22 ' -e '^  2026-11-23 ' >"$TMP/days.want"
	step "$TMP/rot" --rotate daily
	set -- "$TMP"/rot/series-*.jsonl.gz
	[ $# = 1 ] && [ -f "$1" ] || err "--rotate daily: pieces $(ls "$TMP/rot" | tr '\n' ' ')"
	make_long_series "$TMP/long"
	gzip -dc "$1" | cmp -s - "$TMP/long/series.jsonl" || err "--rotate daily: the piece is not the series it closed"
	[ "$(head -n 1 "$TMP/rot/series.jsonl" | grep -c '"event": "start"')" = 1 ] || err "--rotate daily: the live piece does not begin with the start event"
	step "$TMP/rot" --rotate daily
	[ "$(pieces "$TMP/rot")" = 1 ] || err "--rotate daily closed a piece begun today"
	lh report "$TMP/rot"
	expect_rc 0 "lh report of a rotated series"
	grep -q "^lh report: $TMP/rot/series.jsonl and 1 closed pieces\$" "$TMP/out" || err "lh report names $(head -n 1 "$TMP/out")"
	grep -q '^events: 4 starts' "$TMP/out" || err "lh report of a rotated series: $(grep '^events' "$TMP/out")"
	report_body | grep -e '^  2026-11-22 ' -e '^  2026-11-23 ' | cmp -s - "$TMP/days.want" ||
		err "lh report of a rotated series: the days of the closed piece: $(report_body | sed -n '/^Per day/,$p')"
	lh plot --over-time "$TMP/rot" --data
	expect_rc 0 "plot --over-time of a rotated series"
	grep -q '^1795395600 20000$' "$TMP/out" || err "plot --over-time lacks the closed piece's maximum"
	# by size, keeping 2 pieces: every read closes the last one
	rm -rf "$TMP/rot"
	for _ in 1 2 3 4; do
		step "$TMP/rot" --rotate 100 --keep 2
		sleep 1
	done
	[ "$(pieces "$TMP/rot" .jsonl.gz)" = 2 ] || err "--rotate 100 --keep 2: $(ls "$TMP/rot" | tr '\n' ' ')"
	lh report "$TMP/rot"
	expect_rc 0 "lh report of pieces by size"
	grep -q '^events: 3 starts' "$TMP/out" || err "lh report of 2 pieces and the live one: $(grep '^events' "$TMP/out")"
	# by age: pieces closed 7 days ago or more go
	for p in 20201001T000000Z 20201002T000000Z; do
		echo '{"time": "2020-10-01T00:00:00Z", "time_epoch_s": 1601510400, "event": "stop"}' | gzip >"$TMP/rot/series-$p.jsonl.gz"
	done
	touch -d '10 days ago' "$TMP/rot/series-20201001T000000Z.jsonl.gz"
	touch -d '2 days ago' "$TMP/rot/series-20201002T000000Z.jsonl.gz"
	step "$TMP/rot" --rotate 100 --keep 7d
	[ ! -e "$TMP/rot/series-20201001T000000Z.jsonl.gz" ] || err "--keep 7d kept a piece of 10 days ago"
	[ -e "$TMP/rot/series-20201002T000000Z.jsonl.gz" ] || err "--keep 7d removed a piece of 2 days ago"
	[ "$(pieces "$TMP/rot")" = 4 ] || err "--keep 7d: $(ls "$TMP/rot" | tr '\n' ' ')"
	# a piece that does not decompress fails the reader
	echo garbage >"$TMP/rot/series-20201003T000000Z.jsonl.gz"
	lh report "$TMP/rot"
	expect_rc 2 "lh report with a broken piece"
	expect_err "series-20201003T000000Z.jsonl.gz: gzip -dc failed" "lh report with a broken piece"
	# logrotate's pieces (contrib/systemd/lh-monitor.logrotate), the highest number the oldest
	make_long_series "$TMP/long"
	lh report "$TMP/long"
	report_body >"$TMP/report.want"
	rm -rf "$TMP/lr"
	make_long_series "$TMP/lr"
	head -n 7 "$TMP/lr/series.jsonl" | gzip >"$TMP/lr/series.jsonl.2.gz"
	sed -n 8,9p "$TMP/lr/series.jsonl" >"$TMP/lr/series.jsonl.1"
	sed -i 1,9d "$TMP/lr/series.jsonl"
	lh report "$TMP/lr"
	expect_rc 0 "lh report of logrotate's pieces"
	report_body | cmp -s - "$TMP/report.want" ||
		err "lh report of logrotate's pieces: $(report_body | diff "$TMP/report.want" - | head -n 5)"
	case_end rotation_daily_or_by_size_with_retention
}

# case_state_on_change - monitor.state is rewritten only when what it holds
# changed, not at every read of an idle rig
case_state_on_change()
{
	on_tree_a "$TMP/m"
	step "$TMP/m"
	ino=$(ls -i "$TMP/m/monitor.state")
	cp "$TMP/m/monitor.state" "$TMP/state.before"
	lines=$(wc -l <"$TMP/m/series.jsonl")
	sleep 1
	step "$TMP/m"
	[ "$(ls -i "$TMP/m/monitor.state")" = "$ino" ] || err "monitor.state was rewritten though nothing changed"
	cmp -s "$TMP/m/monitor.state" "$TMP/state.before" || err "monitor.state changed though nothing did"
	[ "$(wc -l <"$TMP/m/series.jsonl")" -gt "$lines" ] || err "the read of an idle rig wrote no records"
	spec_b | tree "$R"
	step "$TMP/m"
	! cmp -s "$TMP/m/monitor.state" "$TMP/state.before" || err "monitor.state not written after the tree changed"
	cp "$TMP/m/monitor.state" "$TMP/state.before"
	spec_b | sed 's/^enable wakeup 1/enable wakeup 0/' | tree "$R"
	step "$TMP/m"
	! cmp -s "$TMP/m/monitor.state" "$TMP/state.before" || err "monitor.state not written after an enable changed"
	case_end state_is_written_only_when_it_changed
}

# case_state_size - monitor.state holds a few lines per CPU, whatever its
# rows: the rows go to the rows file in LH_MONITOR_RUNDIR, which only a read
# of the same module load needs (a new boot or load reads none); without it
# the series says so and starts anew
case_state_size()
{
	R=$TMP/r
	LH_ROOT=$R
	export LH_ROOT
	for n in 1 3000; do
		rm -rf "$R" "$TMP/m-$n"
		awk -v n="$n" 'BEGIN {
			print "cpus 2"; print "types wakeup"; print "enable wakeup 1"
			for (c = 0; c < 2; c++) {
				line = "samples wakeup " c
				for (v = 0; v < n; v++) line = line " " v ":" 1000 + v
				print line
			}
		}' | tree "$R"
		step "$TMP/m-$n"
	done
	s1=$(wc -c <"$TMP/m-1/monitor.state")
	s3000=$(wc -c <"$TMP/m-3000/monitor.state")
	# (the counts have more digits with more rows)
	[ "$s3000" -le $((s1 + 64)) ] ||
		err "monitor.state grows with the rows: $s1 bytes with 1 row per CPU, $s3000 with 3000"
	rows=$(rows_file "$TMP/m-3000")
	case $rows in
	"$LH_MONITOR_RUNDIR"/lh-monitor.*) ;;
	*) err "the rows file is not in LH_MONITOR_RUNDIR: '$rows'" ;;
	esac
	[ "$(wc -l <"$rows")" = 4 ] || err "the rows file is not one line per CPU: $(wc -l <"$rows") lines"
	# the same load without the rows of the last read: a new start
	echo 'samples wakeup 0 5:1' >>"$TMP/spec"
	awk -v out="$R.n" -f "$FIXTURE" "$TMP/spec" && cp -r "$R.n/." "$R/" && rm -rf "$R.n"
	rm -f "$rows"
	step "$TMP/m-3000"
	[ "$(start_field "$TMP/m-3000/series.jsonl" continues)" = false ] ||
		err "a read without the rows of the last one continued the series"
	start_field "$TMP/m-3000/series.jsonl" reason | grep -q "the rows of the previous read are gone" ||
		err "the start without the rows does not say why: $(start_field "$TMP/m-3000/series.jsonl" reason)"
	# a new boot needs no rows: the state of another boot id goes on
	rm -f "$(rows_file "$TMP/m-3000")"
	sed -i 's/^boot .*/boot another-boot/' "$TMP/m-3000/monitor.state"
	step "$TMP/m-3000"
	[ "$(start_field "$TMP/m-3000/series.jsonl" continues)" = true ] ||
		err "a state of another boot without its rows was not continued"
	grep -q '"event": "baseline", "reason": "new boot"' "$TMP/m-3000/series.jsonl" ||
		err "no new-boot baseline after a state of another boot"
	case_end state_is_small_and_the_rows_stay_in_ram
}

# ---------------------------------------------------------------- flavours

FLAVOURS=${*:-gawk mawk busybox}
echo "TAP version 13"
echo "1..$(($(echo $FLAVOURS | wc -w) * $(echo $CASES | wc -w)))"
for f in $FLAVOURS; do
	if ! flavour "$f"; then
		for c in $CASES; do
			skip "$c" "$f is not installed"
		done
		continue
	fi
	for c in $CASES; do
		case $c in
		diffs | restart_intervals | max_record | resets | json_schema | state_size)
			if [ -z "$PY" ]; then
				skip "$c" "python3 is not installed: the series cannot be parsed"
				continue
			fi
			;;
		esac
		c_t0=$(date +%s)
		"case_$c"
		diag "$c: $(($(date +%s) - c_t0)) s"
	done
done

echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
