#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC3043 # lh_load_or_bail takes optional parameters; local: dash, busybox ash, bash
#
# softirq_lines_reset.sh - resets of softirq under load leave softirq/lines
# holding the samples the histograms hold: a reset empties both while no
# sample can be filed, and a sample goes into a line only when a histogram
# took it (Documentation/latency_hist.rst, "Per-line views")
#
# lh_softirq_test raises HI_SOFTIRQ on CPU 1 every GAP_US while the test
# shell, on CPU 0, resets softirq RESETS times. lh_softirq_test's
# reset_stall_us stalls each reset right after the histograms are emptied
# and recording resumed (a kprobe on lh_counters_reset()), so that samples
# are filed in that gap at every reset, the last one included: before the
# lines were emptied inside the histograms' quiet period, the reset then
# erased them from the lines only. Then, with the raises over, the lines
# read before the CPUx files must hold no more samples than those, and the
# lines read after them no fewer (background softirqs keep filing
# meanwhile).
#
# requires: cpu1 lh_softirq_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

COUNT=3000	# raises of the run
GAP_US=100	# between two of them
STALL_US=50000	# each reset's stall after the histograms are emptied
RESETS=8	# resets while the raises run

lh_setup
lh_plan 1
lh_load_or_bail

sq_load cpu=1 count=$COUNT gap_us=$GAP_US reset_stall_us=$STALL_US

# counts - print the samples of softirq/lines, of every softirq/CPUx, and of
# softirq/lines again, read by one awk so that little is filed in between
counts()
{
	local files="" c
	for c in $LH_CPUS; do
		files="$files $LH_DIR/softirq/CPU$c"
	done
	# shellcheck disable=SC2086 # the file list
	awk 'FNR == 1 && FILENAME ~ /\/lines$/ { pass++ }
	     FILENAME ~ /\/lines$/ && !/^#/ { lines[pass] += $3 }
	     FILENAME !~ /\/lines$/ && /^#Total samples: / { hists += $3 }
	     END { print lines[1] + 0, hists + 0, lines[2] + 0 }' \
		"$LH_DIR/softirq/lines" $files "$LH_DIR/softirq/lines"
}

lh_case_begin
lh_enable softirq
taskset -p -c 0 $$ >/dev/null 2>&1 || lh_diag "cannot pin the test shell to CPU 0"
echo 1 >"$SQ_PARAMS/trigger" &
raiser=$!
resets=0
while [ $resets -lt $RESETS ]; do
	lh_reset softirq
	resets=$((resets + 1))
done
kill -0 $raiser 2>/dev/null ||
	lh_err "the $COUNT raises were over before the last reset: no load in its stall"
wait $raiser || lh_err "lh_softirq_test's run failed"
# shellcheck disable=SC2046 # three numbers
set -- $(counts)
lines_before=$1 hists=$2 lines_after=$3
lh_diag "$resets resets; the lines held $lines_before samples, the CPUx files $hists, the lines then $lines_after"
hl_show_lines softirq
[ "$lines_before" -le "$hists" ] ||
	lh_err "softirq/lines held $lines_before samples before the CPUx files' $hists were read"
[ "$hists" -le "$lines_after" ] ||
	lh_err "softirq/lines held $lines_after samples after the CPUx files' $hists were read: $((hists - lines_after)) missing"
taskset -p -c "$(cat /sys/devices/system/cpu/possible)" $$ >/dev/null 2>&1 || true
lh_case_end resets_under_load_keep_lines_and_histograms_equal

lh_finished
