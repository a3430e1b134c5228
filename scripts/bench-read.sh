#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-read.sh - what one `lh prom` and one `lh monitor` read cost on the
# host, from the rows files and from the CPUx files (issue 32's budget)
#
# Writes two trees with selftests/lh_host/fixture.awk, in the module's
# formats: 64 CPUs and 4 CPUs, every type present, six with data on every
# CPU (about 150 non-zero rows each, one sample above the range), three
# switches on. Each tree is measured twice: as a module with the rows file
# writes it, and without it (an older module: lh falls back to the CPUx
# files). Each measurement is the median CPU time (user + system, children
# included; the wall time in brackets) of RUNS runs of
#   lh prom >/dev/null                          (prom)
#   lh monitor --interval 60 --count 0 --out D  (one read; D holds the state
#                                                of the read before, and every
#                                                histogram changed since: two
#                                                trees alternate, swap_tree)
# under busybox awk (busybox sh, busybox applets only) and mawk (/bin/sh),
# the flavours of selftests/lh_host/host_lib.sh. Budget: 1 s with 64 CPUs,
# 0.1 s with 4 CPUs, from the rows files with busybox awk. The monitor keeps
# the rows of its last read in LH_MONITOR_RUNDIR, here a directory of the
# benchmark (on a rig, /dev/shm).
#
# This is a benchmark, not a test: `make bench` runs it before scripts/bench.sh.
#
# Usage: sh scripts/bench-read.sh [--runs N] [--cpus "64 4"] [--awks "busybox mawk"]
#                                 [--layouts "rows cpux"]
# Prints a markdown table; exit 1 if a budget line is missed.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)

FIXTURE=$TOP/selftests/lh_host/fixture.awk
RUNS=5
CPUS="64 4"
AWKS="busybox mawk"
LAYOUTS="rows cpux"

while [ $# -gt 0 ]; do
	case $1 in
	--runs) RUNS=$2; shift 2 ;;
	--cpus) CPUS=$2; shift 2 ;;
	--awks) AWKS=$2; shift 2 ;;
	--layouts) LAYOUTS=$2; shift 2 ;;
	*) sed -n '3,/^$/s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done

# the host tests' flavours of the tools (flavour NAME: FSH, FPATH) and $TMP
LT_DIR=$TOP/selftests/lh_host
# shellcheck disable=SC1091 # the host tests' library, by its path
. "$LT_DIR/host_lib.sh"
LH_MONITOR_RUNDIR=$TMP/run
export LH_MONITOR_RUNDIR
mkdir -p "$LH_MONITOR_RUNDIR"

# spec NCPUS ROWS MORE - the fixture spec of a tree (ROWS=1: with rows
# files; MORE samples more in every row)
spec()
{
	awk -v n="$1" -v rows="$2" -v more="$3" 'BEGIN {
		print "cpus " n
		print "enable wakeup 1"
		print "enable missed_timer_offsets 1"
		print "enable timerandwakeup 1"
		split("irqsoff preemptoff wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup", t, " ")
		for (k = 1; k <= 6; k++)
			for (c = 0; c < n; c++) {
				line = "samples " t[k] " " c
				# a long-tailed histogram: 150 rows from 2 us, one sample above
				for (v = 2; v < 152; v++) line = line " " v ":" int(4000000 / (v * v)) + c + k + more
				print line " 12345:1"
			}
		if (rows) print "rows"
	}'
}

# median_s CMD.. - run CMD RUNS times; print "CPU s (wall s)": the medians
# of the CPU time (user + system, children included) and of the wall time.
# The verdict takes the CPU time: this machine is shared, and its other
# load stretches the wall time of every fork. The CPU time is perf's
# task-clock of the command and every process it starts (to the
# microsecond) where perf stat runs here, else /usr/bin/time's user +
# system (to the hundredth: a read of 0.09 s then reads 0.08 to 0.11 s).
median_s()
{
	i=0
	: >"$TMP/times"
	while [ "$i" -lt "$RUNS" ]; do
		[ "$1" != monitor ] || swap_tree
		# shellcheck disable=SC2086 # FSH and PERF are commands and their arguments
		if ! LH_ROOT=$TREE PATH=$FPATH /usr/bin/time -f '%U %S %e' -o "$TMP/time" $PERF $FSH "$LH" "$@" \
			>/dev/null 2>"$TMP/err"; then
			echo "bench-read: lh $* failed: $(head -c 300 "$TMP/err")" >&2
			echo FAILED
			return
		fi
		if [ -n "$PERF" ]; then
			# (perf stat -x, : "msec,,task-clock,...")
			awk -F, -v t="$(tail -n 1 "$TMP/time")" '$3 == "task-clock" {
				split(t, f, " "); print $1 / 1000, 0, f[3] }' "$TMP/perf" >>"$TMP/times"
		else
			tail -n 1 "$TMP/time" >>"$TMP/times"
		fi
		i=$((i + 1))
	done
	awk '{ c[NR] = $1 + $2; w[NR] = $3 } END {
		n = asort_n(c, NR); n = asort_n(w, NR)
		printf "%.3f s (%.3f s)", c[int((NR + 1) / 2)], w[int((NR + 1) / 2)]
	}
	function asort_n(a, n,    i, j, t) {
		for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
		return n
	}' "$TMP/times"
}

# PERF: the perf stat command median_s puts before lh, where it works
PERF=
CPU_BY="/usr/bin/time, user + system"
if perf stat -x, -e task-clock -o "$TMP/perf" true >/dev/null 2>&1 &&
	grep -q ',task-clock' "$TMP/perf"; then
	PERF="$(command -v perf) stat -x, -e task-clock -o $TMP/perf --"
	CPU_BY="perf task-clock"
fi
echo "CPU time: $CPU_BY, median of $RUNS runs"
echo

# swap_tree - put the histograms of the other tree in TREE: its type
# directories renamed in, so every file changed and the root keeps its
# inode (the same module load, as a monitor sees it between two reads)
swap_tree()
{
	for d in "$TREE"/*/; do
		d=${d%/}
		d=${d##*/}
		[ "$d" != enable ] || continue
		mv "$TREE/$d" "$TMP/swap" && mv "$TREE.other/$d" "$TREE/$d" && mv "$TMP/swap" "$TREE.other/$d"
	done
}

echo "| CPUs | files | awk | lh prom: CPU (wall) | one lh monitor read: CPU (wall) | budget (CPU) | verdict |"
echo "|---:|---|---|---:|---:|---:|---|"
fails=0
for n in $CPUS; do
	budget=1
	[ "$n" -le 4 ] && budget=0.1
	for layout in $LAYOUTS; do
		TREE=$TMP/tree-$n-$layout
		for more in 0 1; do
			spec "$n" "$([ "$layout" = rows ] && echo 1 || echo 0)" "$more" |
				awk -v out="$TREE$([ "$more" = 0 ] || echo .other)" -f "$FIXTURE" ||
				{ echo "bench-read: fixture.awk failed" >&2; exit 2; }
		done
		for fl in $AWKS; do
			if ! flavour "$fl"; then
				echo "| $n | $layout | $fl | - | - | - | $fl not installed |"
				continue
			fi
			rm -rf "$TMP/mon"
			# the read before, whose state the measured reads continue
			# shellcheck disable=SC2086 # FSH is a command and its argument
			LH_ROOT=$TREE PATH=$FPATH $FSH "$LH" monitor --interval 60 --count 0 --out "$TMP/mon" >/dev/null 2>&1 ||
				{ echo "bench-read: the first lh monitor read failed" >&2; exit 2; }
			tp=$(median_s prom)
			tm=$(median_s monitor --interval 60 --count 0 --out "$TMP/mon")
			verdict=-
			if [ "$layout" = rows ]; then
				verdict=$(awk -v p="$tp" -v m="$tm" -v b="$budget" 'BEGIN {
					print (p ~ /^[0-9]/ && m ~ /^[0-9]/ && p + 0 <= b && m + 0 <= b) ? "met" : "MISSED" }')
				[ "$verdict" = met ] || { [ "$fl" != busybox ] || fails=$((fails + 1)); }
			fi
			echo "| $n | $layout | $fl | $tp | $tm | $budget s | $verdict |"
		done
	done
done
[ "$fails" -eq 0 ]
