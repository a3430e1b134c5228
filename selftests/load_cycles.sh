#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086,SC2153 # lh_load takes optional module parameters; word lists; LH_ENABLES is set by lib.sh
#
# load_cycles.sh - the module loads and unloads cleanly, over and over
#
# Proves: LH_CYCLES (default 20; 2, one of each kind, with LH_QUICK=1) cycles of load -> enable every available
# type -> SCHED_FIFO sleepers and hackbench with a reader of every file
# running (each of its reads consistent, lh_readcheck) -> read a CPU file
# and status -> unload work,
# and after each unload the module is gone and the debugfs tree removed;
# every other cycle unloads with everything still enabled, so unload must
# unhook the probes itself; unloading while a CPU file is held open either
# fails cleanly (EBUSY, then succeeds once it is closed) or succeeds and the
# open file reads no data; and the kernel log stays free of warnings.
#
# requires: none

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

cycles=${LH_CYCLES:-$(lh_quick 2 20)}

lh_setup
lh_plan $((cycles + 2))

# workload_with_reader - SCHED_FIFO sleepers and a short hackbench while
# lh_readcheck reads every CPUx, summary, max_latency and status file; its
# reads must all be consistent
workload_with_reader()
{
	wr_stop=$LH_TMP/stop
	rm -f "$wr_stop"
	if [ -x "$LH_BINDIR/lh_readcheck" ]; then
		# shellcheck disable=SC2046 # file lists, no blanks in the names
		"$LH_BINDIR/lh_readcheck" -s "$wr_stop" "$LH_DIR/status" \
			$(hl_cpu_files) $(hl_maxlat_files) >"$LH_TMP/reads" 2>&1 &
		wr_pid=$!
	else
		wr_pid=
	fi
	lh_activity
	if command -v hackbench >/dev/null 2>&1; then
		hackbench -g 1 -f 5 -l 20 >/dev/null 2>&1 ||
			lh_err "hackbench failed"
	fi
	touch "$wr_stop"
	if [ -n "$wr_pid" ] && ! wait "$wr_pid"; then
		lh_err "reads during the workload: $(head -n 3 "$LH_TMP/reads" | tr '\n' ' ')"
	fi
}

cpu=$LH_CPU0
i=1
while [ "$i" -le "$cycles" ]; do
	lh_case_begin
	if [ $((i % 2)) -eq 0 ]; then
		desc="cycle_${i}_unload_with_everything_enabled"
	else
		desc="cycle_${i}_enable_read_disable_unload"
	fi
	if ! lh_load; then
		lh_err "load failed (or $LH_DIR missing)"
	else
		lh_enable_available
		[ -n "$LH_ENABLED" ] || lh_err "nothing could be enabled"
		workload_with_reader
		f=$LH_DIR/wakeup/CPU$cpu
		n=$(wc -l <"$f" 2>/dev/null)
		[ "${n:-0}" -eq $((LH_BUCKETS + 7)) ] ||
			lh_err "wakeup/CPU$cpu: $n lines, expected $((LH_BUCKETS + 7))"
		head -n 1 "$f" | grep -q '^#Minimum latency: ' ||
			lh_err "wakeup/CPU$cpu: bad first line"
		[ "$(wc -l <"$LH_DIR/status")" -eq "$(echo $LH_HISTS | wc -w)" ] ||
			lh_err "status: not one line per histogram"
		if [ $((i % 2)) -eq 1 ]; then
			lh_disable_all
			for e in $LH_ENABLES; do
				lh_content_is "$LH_DIR/enable/$e" 0 ||
					lh_err "enable/$e: not 0 after disable"
			done
		fi
		lh_unload || lh_err "unload failed (enabled:$LH_ENABLED)"
		lh_loaded && lh_err "$LH_SYSMOD still present after unload"
		[ -e "$LH_DIR" ] && lh_err "$LH_DIR still present after unload"
	fi
	lh_case_end "$desc"
	[ "$LH_ERRS" -eq 0 ] || lh_bail "cycle $i failed, stopping"
	i=$((i + 1))
done

lh_case_begin
lh_load_or_bail
lh_enable_available
f=$LH_DIR/wakeup/CPU$cpu
[ -r "$f" ] || lh_bail "$f missing"	# a failed "exec 3<" would end the shell
exec 3<"$f"
head -c 100 <&3 >/dev/null	# a partial read leaves seq_file state behind
if rmmod_out=$(lh_unload 2>&1); then
	lh_diag "unload succeeded with $f open"
	if cat <&3 >"$LH_TMP/stale" 2>/dev/null && [ -s "$LH_TMP/stale" ]; then
		lh_err "the open file still returned data after unload"
	fi
	exec 3<&-
else
	lh_diag "unload refused with $f open: $rmmod_out"
	exec 3<&-
	lh_unload || lh_err "unload failed after the file was closed"
fi
lh_loaded && lh_err "module still loaded"
[ -e "$LH_DIR" ] && lh_err "$LH_DIR still present after unload"
lh_case_end unload_with_an_open_file_is_safe

lh_case_dmesg_clean
lh_finished
