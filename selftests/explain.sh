#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086,SC2046 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# explain.sh - explain/enable and <type>/explain-CPUx: where the time of
# each CPU's worst window went
#
# Proves (Documentation/latency_hist.rst, "explain/"):
#  1. off by default: explain/enable and the explain parameter read 0,
#     explain/status lists no hooked tracepoint, every explain-CPUx file
#     reads "(none)"; bad input is refused with EINVAL and changes nothing.
#  2. on: the irq, softirq and sched_switch tracepoints (and on x86 the
#     local timer vector) are hooked; off again: none is.
#  3. hard interrupt: lh_load_test mode=hardirq spins N = 8000 us inside a
#     pinned hard hrtimer on CPU 1, every G = 2000 us; a SCHED_FIFO 80
#     sleeper due on CPU 0 and moved to CPU 1 while it sleeps (rt_sleeper
#     -m: woken from CPU 0, runs on CPU 1) waits for the spin to end. With
#     CPU 1 in the spin 80 % of the time, some of its L wakeups wait
#     >= N/2. wakeup/explain-CPU1 must then: add up (the five categories
#     are the window, each timer line is within the interrupt line it is
#     nested under), be the maximum (window_ns / 1000 == the histogram's
#     maximum), and give hardirq at least the part of the window that
#     lh_load_test's spins cover (its "spins" log, CLOCK_MONOTONIC, against
#     the window ending at the max record's timestamp), name the local
#     timer (x86: "vector <n> local_timer"; elsewhere the timer IRQ line)
#     and, nested under it, the spin's own callback, lh_hardirq_fn, with
#     at least that time too. A window that holds no spin at all is an
#     emulator stall's (seen: 8.28 ms, 7.89 of them idle): run again (at
#     most 3 runs, also when no wakeup waited N/2), then skip saying so;
#     any overlap at all is checked.
#     The sleeper's own timer, when it sleeps on CPU 1, expires late in the
#     same spins: missed_timer_offsets/explain-CPU1 likewise. On x86 each
#     spin also sends its CPU an NMI halfway (lh_load_test nmi_spin_us =
#     NMI_US): its time is nmi's, not hardirq's, so hardirq + nmi cover the
#     spin there.
# 11. NMI (x86): lh_load_test claimed its NMIs, and a record whose window
#     holds one of them (halfway through a logged spin) counts >= 1 NMI of
#     >= NMI_US us.
#  4. preempt-off section: the same with mode=preempt: the wait is the
#     section owner's (lh_load_test) thread time, >= half of the window.
#  8. critical sections (only where the preemptirq tracepoints exist,
#     e.g. 6.12-preempt; elsewhere skipped): lh_load_test mode=preempt
#     with irq_spin_us = S/2 (a hard timer interrupt spinning S/2 us a
#     quarter into each S = 100 ms preempt-off section: a debug kernel
#     under emulation has natural sections of tens of ms, 114 ms seen,
#     and only the maximum is explained): preemptoff/explain-CPU1 adds up,
#     is the maximum, gives hardirq >= S/2 us with the local timer and
#     lh_hardirq_fn named, and the rest to the owner, lh_load_test.
#  9. a plain preempt-off section: the owner's thread time is >= half the
#     window; 10. an irqs-off one in irqsoff/explain-CPU1 likewise. The
#     sections are switched off before the files are read (the debug
#     kernel's own sections of 100-250 ms would change them between two
#     reads). A
#     maximum whose owner is not lh_load_test is not an injected section
#     (the record names who held it, e.g. an interrupt stalled 72 ms in
#     idle): once more, then skipped, saying so.
#  5. equal priority: a SCHED_FIFO 80 sleeper on CPU 1 (pid filter on it,
#     10 ms loops until the spin is over; the spin starts once it runs
#     them as SCHED_FIFO)
#     wakes while rt_hog spins HOG_MS = 200 ms at SCHED_FIFO 80 there, so it
#     waits behind an equal-priority thread that runs first: the maximum of
#     wakeup/sharedprio/CPU1 is >= HOG_MS / 4, and its explain-CPU1 adds up
#     and gives >= half of the window to rt_hog, named with its priority.
# 12. idle states: with lh_load_test gone, CPU 1 idles between the
#     wakeups of a sleeper woken from CPU 0 for CPU 1 (an IPI ends the
#     idle): wakeup/explain-CPU1's window holds idle time (else up to 3
#     runs, then fail), its idle line has idle-state lines under it that
#     add up to at most its time, each naming a state CPU 1 has (its
#     cpuidle driver's name and exit latency in sysfs; without a driver,
#     as in a TCG guest, the kernel's default_idle_call with exit latency
#     "-") and an interrupt or NMI that ended it (a TCG guest's hlt ends
#     only so; a driver's MWAIT state may end with none), and `lh explain`
#     tells them.
#  6. a reset of wakeup empties wakeup's explain files and only them.
#  7. `lh explain` (scripts/lh beside the selftests) tells the story of
#     wakeup/explain-CPU1: its window, the local timer; --json its window.
# Emulation is noisy: injected waits are several ms, bounds are lower bounds.
# The record's own window is printed in the log, so a failure shows its story.
#
# requires: rt_sleeper cpu1 rt_hog lh_load_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

L=30
PERIOD=20000
N=8000
G=2000
PRIO=80
SECTIONS=120	# >= 120 x 10 ms outlast the 60 + 600 ms of the loops
HOG_MS=200
NMI_US=300	# under the 1 ms at which the kernel reports a slow NMI handler
S=100000	# critical sections: lh_load_test's longest

sl_setup
HOG=
# x_cleanup - lh_cleanup hook: stop rt_hog if a bail left it running
x_cleanup()
{
	[ -z "$HOG" ] || kill "$HOG" 2>/dev/null
	HOG=
}
LH_CLEANUP_HOOKS="$LH_CLEANUP_HOOKS x_cleanup"
lh_plan 14
lh_load_or_bail

X_PARAM=/sys/module/latency_hist/parameters/explain
LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}

# x_file HIST CPU - the explain file of HIST on CPU
x_file()
{
	echo "$LH_DIR/$1/explain-CPU$2"
}

# x_field FILE NAME - the ns of category line NAME (or of "window")
x_field()
{
	awk -v n="$2" '$1 == n && NF <= 3 { print $2; exit }' "$1"
}

# x_check_sum FILE - lh_err unless the five categories add up to the
# window and the detail lines of hardirq, softirq and thread add up to them
x_check_sum()
{
	awk '
		/^(hardirq|softirq|nmi|thread|other) / { cat[$1] = $2; sum += $2 }
		/^window / { win = $2 }
		/^  (irq|vector|softirq) / { parent = $NF; tsum = 0 }
		/^    timer / {
			tsum += $NF
			if (parent == "") { print "a timer line under no interrupt line: " $0; exit }
			if (tsum > parent) { print "timer lines " tsum " > their interrupt " parent; exit }
		}
		/^  [^ ]/ && !/^  (irq|vector|softirq) / { parent = "" }
		/^  irq / || /^  vector / { dh += $NF }
		/^  softirq / { ds += $NF }
		/^  thread / || /^  thread-rest / { dt += $NF }
		/^  (idle|uncovered) / { do_ += $NF }
		/^  idle / { idle = $NF }
		/^    idle-state / {
			isum += $NF
			if (prev !~ /^  idle / && prev !~ /^    idle-state /) { print "an idle-state line under no idle line: " $0; exit }
		}
		{ prev = $0 }
		END {
			if (win == "" || sum != win) { print "categories " sum " != window " win; exit }
			if (dh != cat["hardirq"]) { print "irq lines " dh " != hardirq " cat["hardirq"]; exit }
			if (ds != cat["softirq"]) { print "softirq lines " ds " != softirq " cat["softirq"]; exit }
			if (dt != cat["thread"]) { print "thread lines " dt " != thread " cat["thread"]; exit }
			if (do_ != cat["other"]) { print "idle and uncovered " do_ " != other " cat["other"]; exit }
			if (isum > idle) { print "idle-state lines " isum " > their idle " idle; exit }
		}' "$1"
}

# x_check_record HIST CPU EXACT - lh_err unless HIST/explain-CPU holds a
# record that adds up and whose window matches the histogram's maximum
# (EXACT 1: window_ns / 1000 == maximum; 0: >=)
x_check_record()
{
	X_F=$(x_file "$1" "$2")
	lh_diag "$(lh_name "$X_F"):"
	while IFS= read -r X_L; do lh_diag "  $X_L"; done <"$X_F"
	if [ "$(head -n 1 "$X_F")" = "(none)" ]; then
		lh_err "$(lh_name "$X_F") is (none) with a maximum of $(hl_max "$1" "$2") us"
		return 1
	fi
	X_BAD=$(x_check_sum "$X_F")
	[ -z "$X_BAD" ] || lh_err "$(lh_name "$X_F"): $X_BAD"
	X_WIN=$(x_field "$X_F" window)
	X_MAX=$(hl_max "$1" "$2")
	if [ "$3" = 1 ] && [ $((X_WIN / 1000)) -ne "$X_MAX" ]; then
		lh_err "$(lh_name "$X_F"): window $X_WIN ns is not the maximum $X_MAX us"
	elif [ $((X_WIN / 1000)) -lt "$X_MAX" ]; then
		lh_err "$(lh_name "$X_F"): window $X_WIN ns < the maximum $X_MAX us"
	fi
}

# x_timer_named FILE - true if FILE names the local timer interrupt
x_timer_named()
{
	case $(uname -m) in
	x86_64 | i?86) grep -Eq '^  vector [0-9]+ local_timer [0-9]+ [0-9]+$' "$1" ;;
	*) grep -Eq '^  irq [0-9]+ [^ ]*timer[^ ]* [0-9]+ [0-9]+$' "$1" ;;
	esac
}

# x_status_count WORD - tracepoints explain/status lists as WORD
x_status_count()
{
	awk -v w="$1" '$1 == "tracepoint" && $3 == w { n++ } END { print n + 0 }' \
		"$LH_DIR/explain/status"
}

lh_case_begin
[ "$(cat "$LH_DIR/explain/enable")" = 0 ] || lh_err "explain/enable is not 0 at load"
[ "$(cat "$X_PARAM")" = 0 ] || lh_err "parameter explain is not 0 at load"
[ "$(x_status_count hooked)" = 0 ] || lh_err "explain off, but status lists hooked tracepoints"
for h in wakeup wakeup/sharedprio missed_timer_offsets; do
	for c in $LH_CPUS; do
		lh_expect_content "$(x_file $h $c)" "(none)"
	done
done
for v in 2 on "" "1 " "-1" "1x" " 1" "0 1"; do
	lh_expect_write_errno "$LH_DIR/explain/enable" "$v" EINVAL
done
lh_expect_write_errno "$X_PARAM" 2 EINVAL
[ "$(cat "$LH_DIR/explain/enable")" = 0 ] || lh_err "a refused write turned explain on"
[ "$(x_status_count hooked)" = 0 ] || lh_err "a refused write hooked tracepoints"
lh_case_end off_by_default_and_bad_input_refused

lh_case_begin
lh_expect_write_ok "$LH_DIR/explain/enable" 1
[ "$(cat "$X_PARAM")" = 1 ] || lh_err "parameter explain does not read 1"
for tp in sched_switch irq_handler_entry irq_handler_exit softirq_entry softirq_exit \
	hrtimer_expire_entry hrtimer_expire_exit cpu_idle; do
	grep -q "^tracepoint $tp hooked$" "$LH_DIR/explain/status" ||
		lh_err "explain on, but $tp is not hooked"
done
case $(uname -m) in
x86_64 | i?86)
	grep -q "^tracepoint local_timer_entry hooked$" "$LH_DIR/explain/status" ||
		lh_err "explain on, but local_timer_entry is not hooked" ;;
esac
lh_expect_write_ok "$X_PARAM" 0
[ "$(x_status_count hooked)" = 0 ] || lh_err "explain off again, but tracepoints are still hooked"
[ "$(cat "$LH_DIR/explain/enable")" = 0 ] || lh_err "explain/enable does not read 0 after the parameter"
lh_case_end on_hooks_and_off_unhooks

X_NMI=0
case $(uname -m) in x86_64 | i?86) X_NMI=$NMI_US ;; esac
lt_load cpu=1 mode=hardirq delay_us=$N count=$SECTIONS gap_us=$G nmi_spin_us=$X_NMI ||
	lh_bail "lh_load_test not available"

# run_moved MODE - a sleeper woken on CPU 0 for CPU 1 under MODE sections
run_moved()
{
	echo "$1" >"$LT_PARAMS/mode"
	sl_start "$LH_TMP/sl" -c 0 -m 1 -p $PRIO -i $PERIOD -l $L ||
		lh_bail "rt_sleeper did not start"
	lh_filter wakeup "$SL_TID"
	lh_filter missed_timer_offsets "$SL_TID"
	lh_reset wakeup wakeup/sharedprio missed_timer_offsets
	sl_go_and_wait 1
	sl_show_summary
	hl_show_maxrecs wakeup
}

# x_spin_overlap HIST - print "<us> <from_us> <to_us>": how many us of
# HIST/explain-CPU1's window lh_load_test's logged spins of the last run
# cover, and the window (CLOCK_MONOTONIC us: it ends at the max record's
# timestamp, the same instant); "0 - -" without a record
x_spin_overlap()
{
	xo_ts=
	hl_maxrec "$1" 1 && [ -z "$MR_NONE" ] && xo_ts=$MR_TS
	xo_win=$(x_field "$(x_file "$1" 1)" window)
	if [ -z "$xo_ts" ] || [ -z "$xo_win" ]; then
		echo "0 - -"
		return
	fi
	awk -v ts="$xo_ts" -v win="$xo_win" '
		BEGIN { split(ts, a, "."); to = a[1] * 1000000 + a[2]; from = to - win / 1000 }
		{ lo = $1 > from ? $1 : from; hi = $2 < to ? $2 : to; if (hi > lo) s += hi - lo }
		END { printf "%d %d %d\n", s, from, to }' "$LT_PARAMS/spins"
}

# x_stall HIST - print why the maximum of HIST/CPU1 is not an injected one
# (its window holds none of the spins: a vCPU stalled by a loaded host,
# whose time goes to whatever ran, often idle); return 1 if it holds one,
# or if there is no maximum of N/2 (that is the case's failure)
x_stall()
{
	xs_m=$(hl_max "$1" 1)
	[ "$xs_m" != "<undef>" ] && [ "$xs_m" -ge $((N / 2)) ] || return 1
	set -- "$1" $(x_spin_overlap "$1")
	[ "$2" = 0 ] || return 1
	echo "$1/CPU1 maximum $xs_m us: its window $3..$4 us holds none of the $(wc -l <"$LT_PARAMS/spins") spins lh_load_test logged, an emulator stall"
}

# x_hardirq_case HIST EXACT NAME - the hard-interrupt checks of HIST/CPU1;
# skipped, saying why, only if the record adds up and its window holds no
# spin (x_stall)
x_hardirq_case()
{
	lh_case_begin
	xh_m=$(hl_max "$1" 1)
	if [ "$xh_m" = "<undef>" ] || [ "$xh_m" -lt $((N / 2)) ]; then
		lh_err "$1/CPU1 maximum $xh_m us < $((N / 2)) us with $N us hard-interrupt spins"
	elif x_check_record "$1" 1 "$2"; then
		if xh_stall=$(x_stall "$1") && [ "$LH_ERRS" -eq 0 ]; then
			lh_skip "$3" "$xh_stall (the record adds up)"
			return
		fi
		set -- "$@" $(x_spin_overlap "$1")
		xh_f=$(x_file "$1" 1)
		# an NMI inside the spin is nmi's time
		xh_hi=$(($(x_field "$xh_f" hardirq) + $(x_field "$xh_f" nmi)))
		lh_diag "spins cover $4 us of the window $5..$6 us"
		# the spin runs inside its interrupt; 20 us for the clock reads
		[ $((xh_hi / 1000 + 20)) -ge "$4" ] ||
			lh_err "$1/explain-CPU1: hardirq + nmi $xh_hi ns < the $4 us of spin in the window"
		x_timer_named "$xh_f" ||
			lh_err "$1/explain-CPU1 does not name the local timer"
		xh_cb=$(awk '$1 == "timer" && $2 == "lh_hardirq_fn" { s += $NF } END { print s + 0 }' "$xh_f")
		xh_cb=$((xh_cb + $(x_field "$xh_f" nmi)))
		[ $((xh_cb / 1000 + 20)) -ge "$4" ] ||
			lh_err "$1/explain-CPU1: timer lh_hardirq_fn $xh_cb ns < the $4 us of spin in the window"
	fi
	lh_case_end "$3"
}

lh_expect_write_ok "$LH_DIR/explain/enable" 1
lh_enable wakeup missed_timer_offsets

# x_rerun_reason - print why the last run_moved cannot be checked (a
# maximum an emulator stall made, or one the spins did not make: seen once
# on 6.12 right after a stall, a run whose sleeper's timer expired in the
# spins' own interrupts, so that every wakeup came at a spin's end); return
# 1 if it can be
x_rerun_reason()
{
	x_stall wakeup || x_stall missed_timer_offsets || {
		xr_m=$(hl_max wakeup 1)
		[ "$xr_m" != "<undef>" ] && [ "$xr_m" -ge $((N / 2)) ] && return 1
		echo "wakeup/CPU1 maximum $xr_m us < $((N / 2)) us: no wakeup waited for a spin"
	}
}

# A loaded host can stall a vCPU for as long as the spins: up to 3 runs then
# (the cases fail if the last one still has no maximum of N/2).
run_moved hardirq
xr_runs=1
while [ $xr_runs -lt 3 ] && noise=$(x_rerun_reason); do
	lh_diag "$noise: once more"
	run_moved hardirq
	xr_runs=$((xr_runs + 1))
done
x_hardirq_case wakeup 1 hardirq_wakeup_explained
x_hardirq_case missed_timer_offsets 0 hardirq_late_timer_explained
# x_nmi_inside HIST - true if HIST/explain-CPU1's window holds a whole NMI
# of lh_load_test's: N/2 us into a logged spin, NMI_US long
x_nmi_inside()
{
	set -- $(x_spin_overlap "$1")
	[ "$2" != - ] || return 1
	awk -v from="$2" -v to="$3" -v n=$N -v nmi=$NMI_US '
		$1 + n / 2 >= from && $1 + n / 2 + nmi <= to { found = 1 }
		END { exit !found }' "$LT_PARAMS/spins"
}

lh_case_begin
if [ "$X_NMI" = 0 ]; then
	lh_skip nmi_explained "lh_load_test sends NMIs only on x86 (its apic driver)"
else
	nmis=$(cat "$LT_PARAMS/nmis")
	[ "$nmis" -gt 0 ] || lh_err "lh_load_test claimed no NMI in $SECTIONS spins"
	xn_h=
	for h in wakeup missed_timer_offsets; do
		x_nmi_inside $h && xn_h=$h && break
	done
	if [ -z "$xn_h" ] && [ "$LH_ERRS" -eq 0 ]; then
		lh_skip nmi_explained "$nmis NMIs claimed, but neither record's window holds a whole one"
	elif [ -z "$xn_h" ]; then
		lh_case_end nmi_explained
	else
		f=$(x_file "$xn_h" 1)
		lh_diag "$xn_h/explain-CPU1: $(grep '^nmi ' "$f")"
		[ "$(awk '$1 == "nmi" { print $3 }' "$f")" -ge 1 ] ||
			lh_err "$xn_h/explain-CPU1 counts no NMI, though its window holds one"
		[ $(($(x_field "$f" nmi) / 1000 + 20)) -ge $NMI_US ] ||
			lh_err "$xn_h/explain-CPU1: nmi $(x_field "$f" nmi) ns < the $NMI_US us NMI inside"
		lh_case_end nmi_explained
	fi
fi

grep '^replay' "$LH_DIR/explain/status" | while IFS= read -r l; do lh_diag "explain/status: $l"; done

# lh explain tells the same story as the file, in text and JSON
lh_case_begin
if ! lh_req_met lh-tool; then
	lh_skip lh_explain_tells_the_story "$LH_REQ_WHY"
else
	f=$(x_file wakeup 1)
	LH_ROOT=$LH_DIR sh "$LH_TOOL" explain wakeup --cpu 1 >"$LH_TMP/story" 2>&1 ||
		lh_err "lh explain wakeup --cpu 1 failed: $(cat "$LH_TMP/story")"
	lh_diag "lh explain: $(cat "$LH_TMP/story")"
	grep -q "^wakeup on CPU1: .* waited $(awk '/^window / { printf "%.1f", $2 / 1000 }' "$f") us to run: " "$LH_TMP/story" ||
		lh_err "lh explain does not tell wakeup/explain-CPU1's window"
	if [ -z "$(x_stall wakeup)" ] && ! grep -Eq 'in hard IRQs \(.*(local_timer|timer)' "$LH_TMP/story"; then
		lh_err "lh explain does not name the local timer"
	fi
	LH_ROOT=$LH_DIR sh "$LH_TOOL" explain --json >"$LH_TMP/json" 2>&1 ||
		lh_err "lh explain --json failed: $(head -c 300 "$LH_TMP/json")"
	grep -q "\"window_ns\": $(x_field "$f" window)," "$LH_TMP/json" ||
		lh_err "lh explain --json lacks wakeup/explain-CPU1's window"
	lh_case_end lh_explain_tells_the_story
fi

lh_case_begin
run_moved preempt
m=$(hl_max wakeup 1)
if [ "$m" = "<undef>" ] || [ "$m" -lt $((N / 2)) ]; then
	lh_err "wakeup/CPU1 maximum $m us < $((N / 2)) us with $N us preempt-off sections"
elif x_check_record wakeup 1 1; then
	f=$(x_file wakeup 1)
	owner=$(awk '$1 == "thread" && $4 == "lh_load_test" { s += $NF } END { print s + 0 }' "$f")
	oth=$(x_field "$f" other)
	[ $(((owner + oth) * 2)) -ge "$X_WIN" ] ||
		lh_err "wakeup/explain-CPU1: lh_load_test $owner ns + other $oth ns < half the window $X_WIN ns"
	[ "$owner" -gt 0 ] || lh_err "wakeup/explain-CPU1 does not name lh_load_test"
fi
lh_case_end preempt_off_section_is_the_owners_time

# x_section_case MODE HIST IRQ_SPIN_US NAME - critical section cases 8-10
x_section_case()
{
	lh_case_begin
	if ! lh_req_met "type:$2"; then
		lh_skip "$4" "$LH_REQ_WHY"
		return
	fi
	echo "$1" >"$LT_PARAMS/mode"
	echo "$3" >"$LT_PARAMS/irq_spin_us"
	echo $S >"$LT_PARAMS/delay_us"
	echo 3 >"$LT_PARAMS/count"
	echo 3000 >"$LT_PARAMS/gap_us"
	xs_f=$(x_file "$2" 1)
	for xs_try in 1 2; do
		lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 1
		lh_reset "$2"
		lt_trigger || lh_err "lh_load_test mode=$1 irq_spin_us=$3 failed"
		# Off before reading: it unhooks and waits for the filings in
		# flight, so the histogram and explain-CPU1 are read as they
		# stand. On they change between two reads: a 7.3 debug kernel
		# under a loaded emulator files sections of 100-250 ms of its
		# own (sh, awk, rcu_preempt...) every few seconds, each a new
		# maximum that the file then explains, so an explain-CPU1 read
		# a moment before the maximum could name an older sample.
		lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
		xs_own=$(awk '$1 == "thread" && $4 == "lh_load_test" { s += $NF } END { print s + 0 }' "$xs_f")
		[ "$xs_own" = 0 ] || break
		lh_diag "try $xs_try: $2/CPU1 maximum $(hl_max "$2" 1) us is not lh_load_test's: once more"
	done
	xs_m=$(hl_max "$2" 1)
	if [ "$xs_m" = "<undef>" ] || [ "$xs_m" -lt "$S" ]; then
		lh_err "$2/CPU1 maximum $xs_m us < $S us with $S us sections"
	elif x_check_record "$2" 1 1; then
		if [ "$xs_own" = 0 ] && [ "$LH_ERRS" -eq 0 ]; then
			lh_skip "$4" "$2/CPU1 maximum $xs_m us is not an injected section: lh_load_test did not hold it ($(grep '^  thread ' "$xs_f" | head -n 1))"
			return
		fi
		# on x86 the spin holds an NMI (nmi_spin_us): nmi's time
		xs_nmi=$(x_field "$xs_f" nmi)
		xs_hi=$(($(x_field "$xs_f" hardirq) + xs_nmi))
		if [ "$3" -gt 0 ]; then
			# the spin runs inside its interrupt; 20 us for the clock reads
			[ $((xs_hi / 1000 + 20)) -ge "$3" ] ||
				lh_err "$2/explain-CPU1: hardirq + nmi $xs_hi ns < the $3 us interrupt spin inside"
			x_timer_named "$xs_f" || lh_err "$2/explain-CPU1 does not name the local timer"
			xs_cb=$(awk '$1 == "timer" && $2 == "lh_hardirq_fn" { s += $NF } END { print s + 0 }' "$xs_f")
			xs_cb=$((xs_cb + xs_nmi))
			[ $((xs_cb / 1000 + 20)) -ge "$3" ] ||
				lh_err "$2/explain-CPU1: timer lh_hardirq_fn $xs_cb ns < its $3 us spin"
			if [ -r "$LH_TOOL" ]; then
				LH_ROOT=$LH_DIR sh "$LH_TOOL" explain "$2" --cpu 1 >"$LH_TMP/story" 2>&1 ||
					lh_err "lh explain $2 --cpu 1 failed: $(cat "$LH_TMP/story")"
				lh_diag "lh explain: $(cat "$LH_TMP/story")"
				grep -q "^$2 on CPU1: preemption was off for .*timer lh_hardirq_fn" "$LH_TMP/story" ||
					lh_err "lh explain $2 does not tell the section with its timer callback"
			fi
		fi
		# the window is the section: the owner's time and, with a
		# spin, the interrupt's (plain: the owner's alone)
		[ "$3" -gt 0 ] || xs_hi=0
		[ $(((xs_own + xs_hi) * 2)) -ge "$X_WIN" ] ||
			lh_err "$2/explain-CPU1: lh_load_test $xs_own ns + hardirq and nmi $xs_hi ns < half the window $X_WIN ns"
	fi
	lh_case_end "$4"
}

x_section_case preempt preemptoff $((S / 2)) preemptoff_section_with_hardirq_explained
x_section_case preempt preemptoff 0 preemptoff_plain_section_is_the_owners
x_section_case irq irqsoff 0 irqsoff_section_is_the_owners

lt_unload

# x_idle_states - the idle states CPU 1 may be in, "<index> <name> <exit_us>"
# a line: its cpuidle driver's (sysfs, names with blanks as "_"), or the
# kernel's own idle where there is no driver
x_idle_states()
{
	xi_drv=$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)
	if [ -z "$xi_drv" ] || [ "$xi_drv" = none ]; then
		echo "0 cpu_idle_poll -"
		echo "1 default_idle_call -"
		return
	fi
	for xi_d in /sys/devices/system/cpu/cpu1/cpuidle/state[0-9]*; do
		echo "${xi_d##*state} $(tr ' \t' '__' <"$xi_d/name") $(cat "$xi_d/latency")"
	done
}

# x_idle_lines FILE - lh_err unless every idle-state line of FILE names a
# state of x_idle_states and what ended it; print how many name an
# interrupt or NMI
x_idle_lines()
{
	x_idle_states >"$LH_TMP/idle_states"
	awk 'FNR == NR { st[$1 " " $2 " " $3] = 1; next }
		$1 == "idle-state" {
			if (NF != 9 || $8 !~ /^[0-9]+$/ || $9 !~ /^[0-9]+$/) { print "bad: " $0 > "/dev/stderr"; next }
			if (!(($2 " " $3 " " $4) in st) && $2 != -1) { print "no such state: " $0 > "/dev/stderr"; next }
			if ($5 != "irq" && $5 != "vector" && $5 != "nmi" && $5 != "none" && $2 != -1) { print "bad waker: " $0 > "/dev/stderr"; next }
			if ($5 != "none" && $5 != "-") n++
		}
		END { print n + 0 }' "$LH_TMP/idle_states" "$1" 2>"$LH_TMP/idle_bad"
	[ ! -s "$LH_TMP/idle_bad" ] || lh_err "$(lh_name "$1"): $(cat "$LH_TMP/idle_bad") (states: $(tr '\n' ';' <"$LH_TMP/idle_states"))"
}

lh_case_begin
lh_diag "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null || echo "none (no cpuidle)")"
xi_f=$(x_file wakeup 1)
for xi_try in 1 2 3; do
	# 10 loops: each wakeup finds CPU 1 idle, the maximum is one of them
	sl_start "$LH_TMP/sl3" -c 0 -m 1 -p $PRIO -i $PERIOD -l 10 ||
		lh_bail "rt_sleeper did not start"
	lh_filter wakeup "$SL_TID"
	lh_reset wakeup
	sl_go_and_wait 0
	xi_idle=$(awk '/^  idle / { print $2 }' "$xi_f")
	[ -z "$xi_idle" ] || break
	lh_diag "try $xi_try: the window of wakeup/CPU1's maximum $(hl_max wakeup 1) us holds no idle time: once more"
done
if x_check_record wakeup 1 1; then
	if [ -z "$xi_idle" ]; then
		lh_err "wakeup/explain-CPU1: no idle time in 3 runs of a sleeper woken for an idle CPU 1"
	elif ! grep -q '^    idle-state ' "$xi_f"; then
		lh_err "wakeup/explain-CPU1: idle $xi_idle ns but no idle-state line"
	else
		xi_woken=$(x_idle_lines "$xi_f")
		case $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null) in
		"" | none)
			# hlt (default_idle_call) is left only by an interrupt or NMI
			grep -Eq '^    idle-state 1 default_idle_call - (irq|vector|nmi) -?[0-9]+ [^ ]+ [0-9]+ [0-9]+$' "$xi_f" ||
				lh_err "wakeup/explain-CPU1: no default_idle_call line with what ended it"
			[ "$xi_woken" -gt 0 ] || lh_err "wakeup/explain-CPU1: no idle period ended by an interrupt" ;;
		esac
		if [ -r "$LH_TOOL" ]; then
			LH_ROOT=$LH_DIR sh "$LH_TOOL" explain wakeup --cpu 1 >"$LH_TMP/story" 2>&1 ||
				lh_err "lh explain wakeup --cpu 1 failed: $(cat "$LH_TMP/story")"
			lh_diag "lh explain: $(cat "$LH_TMP/story")"
			xi_name=$(awk '$1 == "idle-state" { print $3; exit }' "$xi_f")
			grep -q "other (idle [0-9.]* us (of it [0-9]* x $xi_name " "$LH_TMP/story" ||
				lh_err "lh explain does not tell the idle state $xi_name"
		fi
	fi
fi
lh_case_end idle_wakeup_names_idle_state_and_waker

# hog_ready - wait until rt_hog (started with -w) waits for SIGUSR1
hog_ready()
{
	while ! grep -q '^ready' "$LH_TMP/hog" 2>/dev/null; do
		kill -0 "$HOG" 2>/dev/null || lh_bail "rt_hog: $(cat "$LH_TMP/hog.err")"
		lh_sleep_s 0.05
	done
}

lh_case_begin
# -l 0: it sleeps until told to stop, so it is still there when the spin
# starts however long the shell takes to see it at SCHED_FIFO (a 7.3 debug
# kernel under a loaded emulator took about 2 s per poll below, longer
# than 100 loops of 10 ms: the spin came after the sleeper had ended)
sl_start "$LH_TMP/sl2" -c 1 -p $PRIO -i 10000 -l 0 ||
	lh_bail "rt_sleeper did not start"
"$LH_BINDIR/rt_hog" spin -w -c 1 -p $PRIO -d $HOG_MS >"$LH_TMP/hog" 2>"$LH_TMP/hog.err" &
HOG=$!
hog_ready
lh_filter wakeup "$SL_TID"
lh_reset wakeup wakeup/sharedprio
sl_go
# the spin starts once the sleeper runs its loops (SCHED_FIFO, field 41)
n=0
until [ "$(awk '{ print $41 }' "/proc/$SL_PID/task/$SL_TID/stat" 2>/dev/null)" = 1 ]; do
	kill -0 "$SL_PID" 2>/dev/null || lh_bail "rt_sleeper ended before its loops: $(cat "$LH_TMP/sl2.err")"
	[ $n -lt 300 ] || lh_bail "rt_sleeper is not SCHED_FIFO after $n polls"
	n=$((n + 1))
	lh_sleep_s 0.01
done
lh_diag "rt_sleeper runs its loops at SCHED_FIFO (seen after $n polls): rt_hog spins"
kill -USR1 "$HOG"
wait "$HOG" || lh_err "rt_hog failed: $(cat "$LH_TMP/hog.err")"
HOG=
kill -TERM "$SL_PID"	# it ends after its current loop
sl_wait
hl_show_totals wakeup wakeup/sharedprio
m=$(hl_max wakeup/sharedprio 1)
if [ "$m" = "<undef>" ] || [ "$m" -lt $((HOG_MS * 1000 / 4)) ]; then
	lh_err "wakeup/sharedprio/CPU1 maximum $m us < $((HOG_MS * 1000 / 4)) us behind a $HOG_MS ms equal-priority spin"
elif x_check_record wakeup/sharedprio 1 1; then
	f=$(x_file wakeup/sharedprio 1)
	hog_ns=$(awk '$1 == "thread" && $4 == "rt_hog" { s += $NF } END { print s + 0 }' "$f")
	[ $((hog_ns * 2)) -ge "$X_WIN" ] ||
		lh_err "wakeup/sharedprio/explain-CPU1: rt_hog $hog_ns ns < half the window $X_WIN ns"
	grep -Eq "^  thread [0-9]+ $PRIO rt_hog [0-9]+$" "$f" ||
		lh_err "wakeup/sharedprio/explain-CPU1 does not name rt_hog at priority $PRIO"
fi
lh_case_end sharedprio_names_the_equal_priority_thread

lh_case_begin
[ "$(head -n 1 "$(x_file missed_timer_offsets 1)")" != "(none)" ] ||
	lh_diag "missed_timer_offsets/explain-CPU1 was already empty"
mto_before=$(cat "$(x_file missed_timer_offsets 1)")
sp_before=$(cat "$(x_file wakeup/sharedprio 1)")
lh_reset wakeup
for c in $LH_CPUS; do
	if [ "$(hl_max wakeup $c)" = "<undef>" ]; then
		lh_expect_content "$(x_file wakeup $c)" "(none)"
	else
		lh_diag "wakeup/CPU$c has a sample since the reset"
	fi
done
[ "$(cat "$(x_file missed_timer_offsets 1)")" = "$mto_before" ] ||
	lh_err "a reset of wakeup changed missed_timer_offsets/explain-CPU1"
[ "$(cat "$(x_file wakeup/sharedprio 1)")" = "$sp_before" ] ||
	lh_err "a reset of wakeup changed wakeup/sharedprio/explain-CPU1"
lh_case_end reset_empties_only_its_type

lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
lh_expect_write_ok "$LH_DIR/enable/missed_timer_offsets" 0
lh_expect_write_ok "$LH_DIR/explain/enable" 0
lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
