#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# hotplug.sh - CPUs go offline and online while everything records
#
# Proves (Documentation/stress.rst, "CPU hotplug"): with every type and the
# counters enabled and SCHED_FIFO sleepers running on every CPU,
# LH_HOTPLUG_ROUNDS (default 4, 2 with LH_QUICK=1) rounds of taking every
# CPU but the first offline and online again leave the kernel log clean;
# while a CPU is offline its files keep the samples it recorded and read
# consistently (lh_readcheck), a reset empties them too (every possible
# CPU, not only the online ones, unlike the RT patch), and once it is back
# it records again; at the end the module unloads with no reference left.
# Needs a second CPU that can go offline; more CPUs make it harder (the
# stress run boots 4).
#
# requires: rt_sleeper lh_readcheck

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

ROUNDS=${LH_HOTPLUG_ROUNDS:-$(lh_quick 2 4)}
SYSCPU=/sys/devices/system/cpu

lh_setup
# The CPUs that can go offline: online now, with an online file.
PLUGGABLE=
for c in $LH_CPUS; do
	[ "$c" = "$LH_CPU0" ] && continue
	[ -w "$SYSCPU/cpu$c/online" ] && [ "$(cat "$SYSCPU/cpu$c/online")" = 1 ] &&
		PLUGGABLE="$PLUGGABLE $c"
done
[ -n "$PLUGGABLE" ] || lh_skip_all "no CPU can be taken offline here"
lh_plan 4

# set_online CPUS VALUE - write VALUE to the online file of each CPU
set_online()
{
	for so_c in $1; do
		echo "$2" >"$SYSCPU/cpu$so_c/online" ||
			lh_err "cpu$so_c: cannot write $2 to online"
	done
}

# sleepers - SCHED_FIFO sleepers on every online CPU, for about 2 s
sleepers()
{
	for sp_c in $LH_CPU0 $PLUGGABLE; do
		"$LH_BINDIR/rt_sleeper" -c "$sp_c" -p 80 -n 2 -i 2000 -l 1000 -q \
			>/dev/null 2>&1 &
	done
}

# cpu_totals CPU - the "#Total samples" of every histogram of CPU, summed
cpu_totals()
{
	ct_sum=0
	for ct_h in $LH_HISTS; do
		ct_sum=$((ct_sum + $(hl_file_total "$LH_DIR/$ct_h/CPU$1")))
	done
	echo $ct_sum
}

# check_cpu_files CPUS - one read of every file of those CPUs and of every
# summary, each consistent in itself
check_cpu_files()
{
	cf_files=
	for cf_c in $1; do
		for cf_h in $LH_HISTS; do
			cf_files="$cf_files $LH_DIR/$cf_h/CPU$cf_c"
		done
		for cf_h in $LH_MAXLAT_HISTS; do
			cf_files="$cf_files $LH_DIR/$cf_h/max_latency-CPU$cf_c"
		done
	done
	for cf_h in $LH_HISTS; do
		cf_files="$cf_files $LH_DIR/$cf_h/summary"
	done
	# shellcheck disable=SC2086 # a file list, no blanks in the names
	"$LH_BINDIR/lh_readcheck" $cf_files >"$LH_TMP/check" 2>&1 ||
		lh_err "inconsistent reads of CPUs $1"
	while IFS= read -r cf_line; do
		lh_diag "${cf_line#\# }"
	done <"$LH_TMP/check"
}

lh_load_or_bail
lh_enable_available
[ -n "$LH_ENABLED" ] || lh_bail "nothing could be enabled"
# a software event with a static key: creating one takes the hotplug lock
lh_expect_write_ok "$LH_DIR/counters/events" "cpu-clock context-switches"
lh_expect_write_ok "$LH_DIR/counters/enable" 1
lh_diag "enabled:$LH_ENABLED and counters; CPUs going offline:$PLUGGABLE; $ROUNDS rounds"

lh_case_begin
r=1
while [ "$r" -le "$ROUNDS" ]; do
	sleepers
	sleep 0.5
	set_online "$PLUGGABLE" 0
	sleep 0.5
	set_online "$PLUGGABLE" 1
	wait
	r=$((r + 1))
done
for c in $PLUGGABLE; do
	[ "$(cat "$SYSCPU/cpu$c/online")" = 1 ] || lh_err "cpu$c did not come back online"
done
check_cpu_files "$LH_CPU0 $PLUGGABLE"
lh_diag "samples: $(hl_samples_sum)"
lh_case_end recording_survives_cpus_going_offline_and_online

lh_case_begin
sleepers
wait
before=
for c in $PLUGGABLE; do
	before="$before $(cpu_totals "$c")"
done
set_online "$PLUGGABLE" 0
i=0
for c in $PLUGGABLE; do
	i=$((i + 1))
	held=$(echo "$before" | awk -v i=$i '{ print $i }')
	now=$(cpu_totals "$c")
	[ "$held" -gt 0 ] || lh_err "cpu$c recorded nothing while online"
	[ "$now" -ge "$held" ] || lh_err "cpu$c: $now samples after going offline, $held before"
done
check_cpu_files "$PLUGGABLE"
lh_diag "offline CPUs hold:$before samples"
lh_case_end an_offline_cpu_keeps_its_data_readable

lh_case_begin
for h in $LH_HISTS; do
	lh_expect_write_ok "$LH_DIR/$h/reset" 1
done
for c in $PLUGGABLE; do
	left=$(cpu_totals "$c")
	[ "$left" -eq 0 ] || lh_err "cpu$c (offline): $left samples left after reset"
	for h in $LH_MAXLAT_HISTS; do
		lh_expect_content "$LH_DIR/$h/max_latency-CPU$c" "(none)"
	done
done
set_online "$PLUGGABLE" 1
sleepers
wait
for c in $PLUGGABLE; do
	[ "$(cpu_totals "$c")" -gt 0 ] || lh_err "cpu$c records nothing after coming back"
done
lh_case_end reset_covers_offline_cpus_and_they_record_again

lh_disable_all
lh_expect_write_ok "$LH_DIR/counters/enable" 0
refcnt=$(cat "$LH_SYSMOD/refcnt" 2>/dev/null)
[ "$refcnt" = 0 ] || lh_diag "module reference count $refcnt before unload"
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
