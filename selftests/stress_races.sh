#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# stress_races.sh - readers, resets, toggles and filter changes race the
# probes under load, and every read is consistent
#
# Proves (Documentation/stress.rst, "Races"): for LH_STRESS_SECONDS
# (default 10, 5 with LH_QUICK=1) under hackbench and SCHED_FIFO sleepers,
# with readers of every CPUx, summary, max_latency-CPUx, status and counter
# file running against writers that reset each histogram and all of them,
# toggle every enable switch, change both pid filters and switch the
# counters and their event set, every read is consistent (lh_readcheck):
#   CPUx             10240 rows, sum(rows) + below + above == total, and
#                    min <= average <= max (all <undef> when empty)
#   summary          min <= mean <= max and p50 <= p90 <= ... <= max on every
#                    line; "all" holds the sum of the CPU lines' samples
#   max_latency-CPUx "(none)" or one whole record (victim, "<-", culprit,
#                    timestamp; missed_timer_offsets: offset == latency,
#                    wakeup: offset 0)
#   status           one "NAME available=A enabled=E bytes=B" line per type
# and the module's histogram memory is the same after the storm as before.
# After the storm the controls still work (reset empties every histogram of
# every possible CPU, recording starts again), the module's reference count
# is 0 and it unloads, and the kernel log is clean.
#
# requires: rt_sleeper lh_readcheck

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

SECONDS_RUN=${LH_STRESS_SECONDS:-$(lh_quick 5 10)}

lh_setup
lh_plan 4
lh_load_or_bail

STOP=$LH_TMP/stop
CHECK=$LH_BINDIR/lh_readcheck

# running - true until the storm is over
running()
{
	[ ! -e "$STOP" ]
}

# reader KIND FILE... - lh_readcheck reads the files until the storm ends
reader()
{
	rd_kind=$1
	shift
	"$CHECK" -s "$STOP" "$@" >"$LH_TMP/reads.$rd_kind" 2>&1
}

# writer KIND - change one kind of control until the storm ends
writer()
{
	wr_i=0
	while running; do
		wr_i=$((wr_i + 1))
		case $1 in
		reset)
			for h in $LH_HISTS; do
				echo 1 >"$LH_DIR/$h/reset"
			done
			echo all >"$LH_SYSMOD/parameters/reset"
			sleep 0.3 ;;
		enable)
			for e in $LH_ENABLED; do
				echo $((wr_i % 2)) >"$LH_DIR/enable/$e" 2>/dev/null
			done
			sleep 0.2 ;;
		pid)
			for h in $LH_PID_DIRS; do
				case $((wr_i % 3)) in
				0) echo 0 ;; 1) echo $$ ;; 2) echo "$SLEEPER_PID" ;;
				esac >"$LH_DIR/$h/pid"
			done
			sleep 0.1 ;;
		counters)
			echo $((wr_i % 2)) >"$LH_DIR/counters/enable"
			case $((wr_i % 3)) in
			0) echo cpu-clock ;; 1) echo "cpu-clock context-switches" ;;
			2) echo "cpu-migrations,cpu-clock" ;;
			esac >"$LH_DIR/counters/events"
			sleep 0.25 ;;
		esac
	done
	echo "$wr_i" >"$LH_TMP/writes.$1"
}

# ---------------------------------------------------------------- storm
lh_enable_available
[ -n "$LH_ENABLED" ] || lh_bail "nothing could be enabled"
lh_diag "enabled:$LH_ENABLED; $SECONDS_RUN s"

# memory - the module's histogram bytes (status) and the kernel's slab (kB)
memory()
{
	awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^bytes=/) b += substr($i, 7) }
	     END { printf "%d ", b }' "$LH_DIR/status"
	awk '$1 == "Slab:" { print $2 }' /proc/meminfo
}
mem_before=$(memory)

"$LH_BINDIR/rt_sleeper" -p 80 -n 2 -i 1000 -l $((SECONDS_RUN * 1500)) -q \
	>/dev/null 2>&1 &
SLEEPER_PID=$!
if command -v hackbench >/dev/null 2>&1; then
	( while running; do hackbench -g 2 -f 5 -l 100 >/dev/null 2>&1; done ) &
	WORK_PID=$!
else
	lh_diag "no hackbench: the sleepers are the only load"
	WORK_PID=
fi

summaries=
for h in $LH_HISTS; do
	summaries="$summaries $LH_DIR/$h/summary"
done
pids=
# shellcheck disable=SC2046 # file lists, no blanks in the names
{
	reader cpu $(hl_cpu_files) &
	pids="$pids $!"
	reader summary $summaries &
	pids="$pids $!"
	reader maxrec $(hl_maxlat_files) &
	pids="$pids $!"
	reader other "$LH_DIR/status" "$LH_DIR"/*/counters "$LH_DIR"/counters/* &
	pids="$pids $!"
}
for k in reset enable pid counters; do
	writer $k &
	pids="$pids $!"
done
sleep "$SECONDS_RUN"
touch "$STOP"
# shellcheck disable=SC2086 # a list of pids
wait $pids
kill "$SLEEPER_PID" 2>/dev/null
wait "$SLEEPER_PID" 2>/dev/null
[ -z "$WORK_PID" ] || wait "$WORK_PID"

mem_after=$(memory)

lh_case_begin
writes=
for k in reset enable pid counters; do
	writes="$writes $k=$(cat "$LH_TMP/writes.$k" 2>/dev/null)"
done
lh_diag "write rounds:$writes"
for k in cpu summary maxrec other; do
	while IFS= read -r line; do
		lh_diag "$k: ${line#\# }"
	done <"$LH_TMP/reads.$k"
	grep -q '^lh_readcheck: [1-9][0-9]* reads, 0 inconsistent$' "$LH_TMP/reads.$k" ||
		lh_err "$k reader: no read, or inconsistent reads"
done
lh_diag "histogram bytes, slab kB: $mem_before before, $mem_after after"
[ "${mem_before% *}" = "${mem_after% *}" ] ||
	lh_err "histogram memory changed during the storm: ${mem_before% *} -> ${mem_after% *} bytes"
lh_case_end every_read_under_races_is_consistent

lh_case_begin
lh_disable_all
lh_expect_write_ok "$LH_DIR/counters/enable" 0
for h in $LH_PID_DIRS; do
	lh_expect_write_ok "$LH_DIR/$h/pid" 0
done
for h in $LH_HISTS; do
	lh_expect_write_ok "$LH_DIR/$h/reset" 1
done
left=$(hl_samples_sum)
[ "$left" -eq 0 ] || lh_err "$left samples left after a reset of every histogram"
lh_expect_write_ok "$LH_DIR/enable/wakeup" 1
lh_activity
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
[ "$(hl_samples_sum)" -gt 0 ] || lh_err "recording did not start again after the storm"
lh_case_end controls_work_after_the_storm

lh_case_begin
refcnt=$(cat "$LH_SYSMOD/refcnt" 2>/dev/null)
[ "$refcnt" = 0 ] || lh_err "module reference count $refcnt after every reader and writer ended"
lh_unload || lh_err "rmmod failed after the storm"
lh_case_end module_unloads_with_no_reference_left

lh_case_dmesg_clean
lh_finished
