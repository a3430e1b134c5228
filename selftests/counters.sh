#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# counters.sh - perf counters over latency windows: controls, degradation
# without a hardware PMU, plausible deltas, hotplug, set changes, unload
#
# Proves (Documentation/latency_hist.rst, "Counters"):
#  1. counters/{enable,events,status} exist, <type>/counters exists for the
#     six types with a window on one CPU and not for timerandwakeup; the
#     default set starts with cycles ref-cycles instructions cache-misses;
#  2. bad event sets and bad enable values fail with EINVAL and change
#     nothing;
#  3. hardware events where the machine has no hardware PMU (a TCG guest)
#     enable cleanly and show "unsupported(...)" or "failed(...)" per CPU,
#     never "active", while cpu-clock is active on every online CPU;
#  4. over late timers (irqs held off 8000 us on CPU 1 by lh_load_test while
#     a pid-filtered SCHED_FIFO sleeper is due there): one counted window per
#     missed_timer_offsets sample; the max sample of the counters file is
#     the histogram's maximum and has a window; with the msr
#     PMU's tsc, tsc / window_ns matches the TSC rate of the boot log
#     within 10% (when the boot log says the PIT calibration deviated from
#     the HPET's, either of the two; on a loaded emulator host the PIT one
#     the kernel keeps can be far off); while the clocksource is the TSC, cpu-clock over a window
#     equals the window's length within 2% + 100 us (cpu-clock counts
#     local_clock(), which lags CLOCK_MONOTONIC on a CPU with interrupts
#     off once the TSC was found unstable: then that is only reported);
#  5. on kernels with irqsoff: an injected N = 5000 us irqs-off section is
#     the max sample of irqsoff/counters, with window_ns >= N us and
#     tsc ~ N us x TSC rate (10%) (window ~ latency and cpu-clock ~ window
#     while the clocksource is the TSC, as above);
#  6. changing the event set while counting: the new set is live at once
#     and the statistics start from zero; a wakeup whose counting restarts
#     between its waking and its switch-in (lh_probe_test's waking_a, a
#     restart, switch_in_a) still has its window counted, from the switch
#     mark of the new counting (the waking's mark belongs to the old one);
#  7. CPU 1 going offline and back while counting: "offline", then active;
#  8. unload while counting, then load with counters=1
#     counter_events=cpu-clock: both work, the parameters read back; after
#     load the counter_events parameter takes generic and type:config names
#     but refuses "pmu/event/" ones (resolving them reads sysfs, which a
#     parameter write must not) with EINVAL.
#
# requires: rt_sleeper cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

N=8000
N_IRQ=5000
L=30
PERIOD=10000
CPU1=/sys/devices/system/cpu/cpu1/online

sl_setup
lh_plan 10
lh_load_or_bail
C=$LH_DIR/counters

# ct_row TYPE CPU ROW FIELD - print FIELD (windows, sum, mean, max) of a row
# of TYPE/counters
ct_row()
{
	awk -v cpu="CPU$2" -v row="$3" -v f="$4" '
		BEGIN { col["windows"] = 3; col["sum"] = 4; col["mean"] = 5; col["max"] = 6 }
		$1 == cpu && $2 == row { print $(col[f]); exit }' "$LH_DIR/$1/counters"
}

# ct_show FILE - diagnostics: FILE, a line each
ct_show()
{
	ct_name=$(lh_name "$1")
	while IFS= read -r ct_line; do
		lh_diag "$ct_name: $ct_line"
	done <"$1"
}

# ct_state EVENT CPU - print the state of EVENT on CPU from counters/status
ct_state()
{
	awk -v ev="$1" -v cpu="CPU$2" '
		$1 == ev { for (i = 4; i <= NF; i++) if (index($i, cpu "=") == 1) {
			print substr($i, length(cpu) + 2); exit } }' "$C/status"
}

# ct_has_cpu_pmu - true if the kernel drives a hardware PMU of the CPUs:
# x86's "cpu" (hybrid: "cpu_core"), arm64's "armv8_*" (armv8_pmuv3, or named
# after the core on boards: armv8_cortex_a72, ...)
ct_has_cpu_pmu()
{
	for ct_pmu in /sys/bus/event_source/devices/cpu \
		      /sys/bus/event_source/devices/cpu_core \
		      /sys/bus/event_source/devices/armv8_*; do
		[ -d "$ct_pmu" ] && return 0
	done
	return 1
}

# ct_tsc_mhz - the TSC rate the kernel settled on, in MHz (empty if unknown)
ct_tsc_mhz()
{
	dmesg | awk '/tsc: (Detected|Refined TSC clocksource calibration:) [0-9.]+ MHz/ {
		for (i = 1; i < NF; i++) if ($(i + 1) == "MHz") mhz = $i }
		END { if (mhz != "") print mhz }'
}

# ct_tsc_alt_mhz - both rates of a "PIT calibration deviates from HPET: KHZ KHZ" boot line, in MHz
# (empty if the calibrations agreed)
ct_tsc_alt_mhz()
{
	dmesg | awk '/tsc: PIT calibration deviates from [A-Z]+: [0-9]+ [0-9]+/ {
		printf "%.3f %.3f\n", $(NF - 1) / 1000, $NF / 1000 }' | tail -n 1
}

# ct_near A B PCT ABS - true if |A - B| <= B * PCT / 100 + ABS
ct_near()
{
	awk -v a="$1" -v b="$2" -v p="$3" -v abs="$4" 'BEGIN {
		d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100 + abs) }'
}

lh_case_begin
for f in enable events status; do
	[ -e "$C/$f" ] || lh_err "counters/$f is missing"
done
for t in $LH_HISTS; do
	case " $LH_COUNTER_HISTS " in
	*" $t "*) [ -r "$LH_DIR/$t/counters" ] || lh_err "$t/counters is missing" ;;
	*) [ -e "$LH_DIR/$t/counters" ] && lh_err "$t/counters exists (status: counters=0)" ;;
	esac
done
lh_expect_content "$C/enable" "0"
def=$(tr '\n' ' ' <"$C/events")
case $def in
"cycles ref-cycles instructions cache-misses "*) ;;
*) lh_err "default event set '$def'" ;;
esac
lh_case_end counters_tree_and_default_set

lh_case_begin
before=$(cat "$C/events")
for bad in bogus "cycles cycles" "cpu-clock,nosuch" "msr/../x/" "nosuchpmu/x/" \
	   "1:2:3" ":5" "a b c d e f g h i" " " \
	   "cycles instructions branches branch-misses bus-cycles ref-cycles cpu-clock page-faults context-switches"; do
	lh_expect_write_errno "$C/events" "$bad" EINVAL
done
[ "$(cat "$C/events")" = "$before" ] || lh_err "a rejected write changed the event set"
for bad in 2 -1 1x "" "0 1" on; do
	[ -n "$bad" ] || continue
	lh_expect_write_errno "$C/enable" "$bad" EINVAL
done
lh_expect_content "$C/enable" "0"
lh_case_end bad_input_changes_nothing

lh_case_begin
lh_expect_write_ok "$C/events" "cycles instructions cpu-clock"
lh_expect_write_ok "$C/enable" 1
ct_show "$C/status"
for cpu in $(lh_possible_cpus); do
	[ "$(ct_state cpu-clock $cpu)" = active ] ||
		lh_err "cpu-clock on CPU$cpu: '$(ct_state cpu-clock $cpu)', expected active"
	if ! ct_has_cpu_pmu; then
		for ev in cycles instructions; do
			case $(ct_state $ev $cpu) in
			unsupported\(*\) | failed\(*\)) ;;
			*) lh_err "$ev on CPU$cpu without a hardware PMU: '$(ct_state $ev $cpu)'" ;;
			esac
		done
	fi
done
lh_expect_write_ok "$C/enable" 0
grep -q "CPU0=off" "$C/status" || lh_err "status after disable: $(cat "$C/status")"
lh_case_end hardware_events_degrade_cleanly

# Counting set for the windows: cpu-clock, and the msr PMU's tsc if present.
SET="cpu-clock"
[ -r /sys/bus/event_source/devices/msr/events/tsc ] && SET="cpu-clock msr/tsc/"
MHZ=$(ct_tsc_mhz)
MHZ_ALT=$(ct_tsc_alt_mhz)
lh_diag "event set '$SET', TSC ${MHZ:-unknown} MHz${MHZ_ALT:+ (PIT and HPET calibrations disagreed: $MHZ_ALT MHz)}"

# ct_clocksource - CS gets the current clocksource (the watchdog may switch
# away from the TSC at any time under emulation)
ct_clocksource()
{
	CS=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
}

# ct_check_clock TYPE CPU WINDOW_NS - cpu-clock of the max sample against its
# window, where local_clock() is the TSC
ct_check_clock()
{
	clk=$(ct_row "$1" "$2" cpu-clock max)
	ct_clocksource
	if [ "$CS" != tsc ]; then
		lh_diag "$1 CPU$2: cpu-clock $clk ns over $3 ns, not compared: clocksource $CS"
	elif ! ct_near "$clk" "$3" 2 100000; then
		lh_err "$1 CPU$2: cpu-clock $clk ns over a window of $3 ns"
	fi
}

# ct_check_tsc TYPE CPU WINDOW_NS - the tsc of the max sample against the rate (or either rate of a
# deviating calibration)
ct_check_tsc()
{
	case $SET in *msr/tsc/*) ;; *) return 0 ;; esac
	tsc=$(ct_row "$1" "$2" msr/tsc/ max)
	if [ -z "$MHZ" ]; then
		lh_diag "no TSC rate in the boot log: tsc $tsc over $3 ns not checked"
		return 0
	fi
	for mhz in $MHZ $MHZ_ALT; do
		ct_near "$tsc" "$(awk -v w="$3" -v m="$mhz" 'BEGIN { printf "%d", w * m / 1000 }')" 10 0 && return 0
	done
	lh_err "$1 CPU$2: tsc $tsc over $3 ns, expected ${MHZ_ALT:-$MHZ} MHz x window +-10%"
}

lh_case_begin
lh_expect_write_ok "$C/events" "$SET"
lh_expect_write_ok "$C/enable" 1
skipped=
if ! lt_load cpu=1 mode=irq delay_us=$N count=40 gap_us=3000; then
	lh_skip counts_over_late_timer_windows "$LH_REQ_WHY"
	skipped=1
else
	sl_start "$LH_TMP/sl" -c 1 -p 80 -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
	lh_filter missed_timer_offsets "$SL_TID"
	lh_reset missed_timer_offsets
	lh_enable missed_timer_offsets
	sl_go_and_wait 1
	lh_expect_write_ok "$LH_DIR/enable/missed_timer_offsets" 0
	sl_show_summary
	ct_show "$LH_DIR/missed_timer_offsets/counters"
	total=$(hl_total missed_timer_offsets 1)
	hmax=$(hl_max missed_timer_offsets 1)
	win=$(ct_row missed_timer_offsets 1 latency_us windows)
	[ "$win" = "$total" ] && [ "$total" -gt 0 ] ||
		lh_err "missed_timer_offsets/counters CPU1: $win windows, histogram $total samples"
	cmax=$(ct_row missed_timer_offsets 1 latency_us max)
	[ "$cmax" = "$hmax" ] || lh_err "counters max sample $cmax us, histogram maximum $hmax us"
	wns=$(ct_row missed_timer_offsets 1 window_ns max)
	# Not >= the latency: a context switch after the timer was due (with
	# interrupts off across it; 6.1-rt did it) starts the window late.
	[ -n "$wns" ] && [ "$wns" != - ] && [ "$wns" -gt 0 ] ||
		lh_err "no window for the max sample: '$wns'"
	ct_check_clock missed_timer_offsets 1 "$wns"
	ct_check_tsc missed_timer_offsets 1 "$wns"
	lt_unload
fi
[ -n "$skipped" ] || lh_case_end counts_over_late_timer_windows

lh_case_begin
skipped=1
if ! lh_req_met type:irqsoff || ! lt_load cpu=1 mode=irq delay_us=$N_IRQ count=3 gap_us=3000; then
	lh_skip counts_over_irqsoff_sections "$LH_REQ_WHY"
else
	skipped=
	lh_reset irqsoff
	lh_enable preemptirqsoff
	lt_trigger || lh_err "lh_load_test trigger failed"
	lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
	lt_unload
	ct_show "$LH_DIR/irqsoff/counters"
	cmax=$(ct_row irqsoff 1 latency_us max)
	wns=$(ct_row irqsoff 1 window_ns max)
	if [ -z "$cmax" ] || [ "$cmax" = - ] || [ "$cmax" -lt $N_IRQ ]; then
		lh_err "irqsoff/counters CPU1 max sample '$cmax' us < $N_IRQ us"
	else
		[ "$wns" -ge $((N_IRQ * 1000)) ] || lh_err "irqsoff window $wns ns < $N_IRQ us"
		ct_clocksource
		[ "$CS" != tsc ] || ct_near "$wns" $((cmax * 1000)) 5 100000 ||
			lh_err "irqsoff window $wns ns is not the section's $cmax us"
		ct_check_clock irqsoff 1 "$wns"
		ct_check_tsc irqsoff 1 "$wns"
	fi
fi
[ -n "$skipped" ] || lh_case_end counts_over_irqsoff_sections

lh_case_begin
lh_expect_write_ok "$C/events" "cpu-clock"
grep -q "^enabled=1 events=1$" "$C/status" || lh_err "status after a set change: $(head -n 1 "$C/status")"
[ "$(ct_state cpu-clock 0)" = active ] || lh_err "cpu-clock not active after the set change"
grep -q "events: cpu-clock$" "$LH_DIR/wakeup/counters" ||
	lh_err "wakeup/counters header: $(sed -n 2p "$LH_DIR/wakeup/counters")"
[ "$(ct_row missed_timer_offsets 1 latency_us windows)" = 0 ] ||
	lh_err "statistics survived the set change"
lh_case_end changing_the_set_while_counting

lh_case_begin
if ! pt_load 1; then
	lh_skip window_across_a_counting_restart "$LH_REQ_WHY"
else
	lh_filter wakeup "$PT_A"
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 1
	# A more important task running on CPU 1 between the steps (the
	# stopper, say) drops A's wakeup, by design: try a few times.
	try=1
	while :; do
		lh_reset wakeup
		pt_run waking_a
		lh_expect_write_ok "$C/enable" 0
		lh_expect_write_ok "$C/enable" 1
		pt_run switch_in_a
		n=$(hl_total wakeup 1)
		[ "$n" = 0 ] && [ $try -lt 5 ] || break
		try=$((try + 1))
	done
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	w=$(ct_row wakeup 1 latency_us windows)
	lh_diag "wakeup/CPU1: $n sample(s) of A, $w counted window(s), try $try"
	lh_filter wakeup 0
	pt_unload
	if [ "$LH_ERRS" = 0 ] && [ "$n" = 0 ]; then
		lh_skip window_across_a_counting_restart \
			"A's wakeup was dropped $try times: a more important task ran on CPU 1 between the steps"
	else
		[ "$w" = "$n" ] ||
			lh_err "$n wakeup sample(s) of A on CPU1 but $w counted window(s): the window across the restart was lost"
		lh_case_end window_across_a_counting_restart
	fi
fi

lh_case_begin
if ! lh_req_met cpu1-hotplug; then
	lh_skip offline_and_online_while_counting "$LH_REQ_WHY"
else
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 1
	echo 0 >"$CPU1" || lh_err "cannot offline CPU 1"
	[ "$(ct_state cpu-clock 1)" = offline ] || lh_err "CPU1 while offline: '$(ct_state cpu-clock 1)'"
	lh_sleep_s 0.5
	echo 1 >"$CPU1" || lh_err "cannot online CPU 1"
	[ "$(ct_state cpu-clock 1)" = active ] || lh_err "CPU1 back online: '$(ct_state cpu-clock 1)'"
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
fi
[ -w "$CPU1" ] && lh_case_end offline_and_online_while_counting

lh_case_begin
lh_expect_write_ok "$LH_DIR/enable/wakeup" 1
lh_unload || lh_err "rmmod while counting failed"
if lh_load counters=1 counter_events=cpu-clock; then
	lh_expect_content "$LH_SYSMOD/parameters/counters" 1
	lh_expect_content "$LH_SYSMOD/parameters/counter_events" cpu-clock
	lh_expect_content "$C/enable" 1
	[ "$(ct_state cpu-clock 0)" = active ] || lh_err "cpu-clock after a load with counters=1: '$(ct_state cpu-clock 0)'"
	lh_expect_write_errno "$LH_SYSMOD/parameters/counter_events" "msr/tsc/" EINVAL
	lh_expect_write_ok "$LH_SYSMOD/parameters/counter_events" "1:0,cpu-clock"
	lh_expect_content "$LH_SYSMOD/parameters/counter_events" "1:0 cpu-clock"
	[ "$(ct_state 1:0 0)" = active ] || lh_err "1:0 (cpu-clock by number) on CPU0: '$(ct_state 1:0 0)'"
	lh_unload || lh_err "rmmod after a load with counters=1 failed"
else
	lh_err "load with counters=1 counter_events=cpu-clock failed"
fi
# A PMU event given to insmod: its form is checked while insmod holds the
# parameter lock, its name resolved in sysfs after, at init (lockdep sees
# no sysfs read under that lock); an unknown PMU fails the load.
if [ -r /sys/bus/event_source/devices/msr/events/tsc ]; then
	if lh_load counters=1 counter_events=cpu-clock,msr/tsc/; then
		lh_expect_content "$LH_SYSMOD/parameters/counter_events" "cpu-clock msr/tsc/"
		[ "$(ct_state msr/tsc/ 0)" = active ] ||
			lh_err "msr/tsc/ after a load with it: '$(ct_state msr/tsc/ 0)'"
		lh_unload || lh_err "rmmod after a load with msr/tsc/ failed"
	else
		lh_err "load with counter_events=cpu-clock,msr/tsc/ failed"
	fi
else
	lh_diag "no msr/tsc/ here: a PMU event at load not tried"
fi
if lh_load counter_events=nosuchpmu/ev/ 2>/dev/null; then
	lh_err "load with counter_events=nosuchpmu/ev/ succeeded"
	lh_unload
fi
lh_loaded && lh_err "module loaded after a refused counter_events"
lh_case_end unload_while_counting_and_load_parameters

lh_case_dmesg_clean
lh_finished
