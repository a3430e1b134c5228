#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2086 # lh_load_or_bail takes optional parameters; word lists
#
# switchtime.sh - switchtime and timerwakeupswitch follow a pid-filtered RT
# sleeper: one sample each per wakeup, each timerwakeupswitch sample its
# timerandwakeup sample plus its switchtime sample, the max records name it
#
# Proves (Documentation/latency_hist.rst, "switchtime/" and
# "timerwakeupswitch/"): with wakeup/pid and missed_timer_offsets/pid set to
# the thread id of a SCHED_FIFO 73 sleeper pinned to CPU 1 that sleeps in
# clock_nanosleep exactly L times, and wakeup, missed_timer_offsets,
# timerandwakeup, switchtime and timerwakeupswitch enabled:
#  1. switchtime and timerwakeupswitch hold L samples each (+-1 for the
#     boundary, less what sl_expect_wakeups allows a stalled guest; a wakeup
#     switched out again before its sys_exit is dropped, so never more than
#     wakeup/ holds), all on CPU 1, and the same number;
#  2. per sample, from the lh_sample trace events of the sleeper: every
#     timerwakeupswitch sample equals its wakeup's timerandwakeup sample
#     plus its switchtime sample, so it is >= its timerandwakeup part, and
#     carries the same timer offset; every switchtime event is followed by
#     its timerwakeupswitch event, and the events number the histograms'
#     samples, one or more (skipped only where tracefs or the lh_sample
#     event is missing: no event at all is a failure);
#  3. the max records of both name the sleeper (pid, priority 73, comm
#     rt_sleeper), with the histogram's maximum; timerwakeupswitch's timer
#     part is at most its latency;
#  4. no timerwakeupswitch sample exceeds the lateness the sleeper measured
#     of itself in user space (deadline to return from clock_nanosleep, which
#     holds the timer offset, the wakeup and the switch);
#  5. status says syscall_slow_path=1 for switchtime only, and with wakeup
#     on but switchtime off the sleeper's wakeups file no switchtime sample;
#  6. a sys_exit with no sys_enter ends no window: a SCHED_FIFO 50 spinner
#     (rt_hog stopspin) is stopped and continued mid-spin (on PREEMPT_RT it
#     stops itself, on the way out of a system call, after its sys_exit),
#     so the wakeup by SIGCONT returns it to user space without a
#     sys_exit; it spins SPIN_MS more and calls getppid(), which its
#     seccomp filter denies before sys_enter. wakeup/ files the SIGCONT
#     wakeup, switchtime nothing (issue 33 item 4: it filed the spin,
#     ~SPIN_MS ms).
#
# requires: rt_sleeper cpu1 rt_hog type:wakeup type:missed_timer_offsets type:timerandwakeup type:switchtime type:timerwakeupswitch

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=100		# loops
PERIOD=10000	# us: longer than any emulation stall, so no overrun
PRIO=73
SPIN_MS=20	# stopspin's spin after the SIGCONT
TYPES="wakeup missed_timer_offsets timerandwakeup switchtime timerwakeupswitch"

HOG=
# st_cleanup - lh_cleanup hook: end rt_hog stopspin if a bail left it (stopped or spinning)
st_cleanup()
{
	[ -n "$HOG" ] || return 0
	kill -KILL "$HOG" 2>/dev/null
	wait "$HOG" 2>/dev/null
	HOG=
}
LH_CLEANUP_HOOKS="st_cleanup $LH_CLEANUP_HOOKS"

sl_setup
lh_plan 8
lh_load_or_bail
T=$(lh_tracefs) || T=
[ -n "$T" ] && [ -d "$T/events/latency_hist/lh_sample" ] || T=

lh_case_begin
sl_start "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L || lh_bail "rt_sleeper did not start"
tid=$SL_TID
lh_filter wakeup "$tid"
lh_filter missed_timer_offsets "$tid"
lh_enable $TYPES
lh_reset wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup switchtime timerwakeupswitch
if [ -n "$T" ]; then
	echo 0 >"$T/tracing_on"
	echo >"$T/trace"
	echo "victim_pid == $tid" >"$T/events/latency_hist/lh_sample/filter"
	echo 1 >"$T/events/latency_hist/lh_sample/enable"
	echo 1 >"$T/tracing_on"
fi
sl_go
sl_wait
lh_disable_all
if [ -n "$T" ]; then
	echo 0 >"$T/events/latency_hist/lh_sample/enable"
	echo 0 >"$T/events/latency_hist/lh_sample/filter"
	grep 'lh_sample:' "$T/trace" >"$LH_TMP/events"
	echo >"$T/trace"
fi
sl_show_summary
hl_show_totals $TYPES
hl_show_maxrecs switchtime
hl_show_maxrecs timerwakeupswitch
loops=$(sl_field "$tid" loops)
[ "$loops" = $L ] || lh_err "the sleeper did $loops loops, expected $L"
st=$(hl_total_all switchtime)
twsw=$(hl_total_all timerwakeupswitch)
wk=$(hl_total_all wakeup)
# A stalled guest can lose wakeups (7.3-rt-debug under load: 98 in wakeup/,
# missed_timer_offsets/ and here for 100 loops, 14 overruns):
# sl_expect_wakeups says what it allows.
sl_expect_wakeups "$tid" "$st" switchtime
[ "$twsw" = "$st" ] || lh_err "timerwakeupswitch holds $twsw samples, switchtime $st"
[ "$st" -le "$wk" ] || lh_err "switchtime holds $st samples, more than the $wk wakeups in wakeup/"
for c in $LH_CPUS; do
	[ "$c" = 1 ] && continue
	for h in switchtime timerwakeupswitch; do
		n=$(hl_total $h "$c")
		[ "$n" = 0 ] || lh_err "$h/CPU$c holds $n samples; the sleeper only ran on CPU 1"
	done
done
lh_case_end one_sample_each_per_wakeup_under_the_pid_filter

# 2. timerandwakeup at the switch-in, then switchtime and timerwakeupswitch
# at the sys_exit: in the trace, each wakeup's three events follow each
# other in that order.
lh_case_begin
if [ -z "$T" ]; then
	lh_skip each_timerwakeupswitch_sample_is_timerandwakeup_plus_switchtime \
		"no tracefs, or no latency_hist/lh_sample event in it"
else
	awk -v tid="$tid" '
		function field(k,    i) {
			for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2)
			return ""
		}
		index($0, "victim=rt_sleeper:" tid " ") == 0 { next }
		{ t = field("type"); lat = field("latency_us") + 0; off = field("timeroffset_us") + 0 }
		t == "timerandwakeup" { taw = lat; tawoff = off; have = 1; next }
		t == "switchtime" {
			if (pend) { print "switchtime " st " without its timerwakeupswitch"; bad++ }
			nst++; st = lat; havest = have; pend = 1; next
		}
		t == "timerwakeupswitch" {
			n++
			pend = 0
			if (!havest) { print "timerwakeupswitch " lat " without its timerandwakeup and switchtime"; bad++ }
			else if (lat != taw + st) { print "timerwakeupswitch " lat " != timerandwakeup " taw " + switchtime " st; bad++ }
			else if (lat < taw) { print "timerwakeupswitch " lat " < timerandwakeup " taw; bad++ }
			else if (off != tawoff) { print "timer part " off " != timerandwakeup timer part " tawoff; bad++ }
			have = havest = 0
		}
		END {
			if (pend) { print "switchtime " st " without its timerwakeupswitch"; bad++ }
			print "checked " n + 0 " timerwakeupswitch samples of " nst + 0 " switchtime events"
			exit bad > 0
		}
	' "$LH_TMP/events" >"$LH_TMP/pairs"
	rc=$?
	while IFS= read -r line; do
		case $line in
		checked*) lh_diag "$line" ;;
		*) lh_err "$line" ;;
		esac
	done <"$LH_TMP/pairs"
	[ "$rc" = 0 ] || lh_err "per-sample sums do not hold"
	n=$(grep -c 'type=timerwakeupswitch ' "$LH_TMP/events")
	[ "$n" = "$twsw" ] || lh_err "$n timerwakeupswitch events, the histograms hold $twsw"
	n=$(grep -c 'type=switchtime ' "$LH_TMP/events")
	[ "$n" = "$st" ] || lh_err "$n switchtime events, the histograms hold $st"
	[ "$st" -gt 0 ] || lh_err "no switchtime sample to check"
	lh_case_end each_timerwakeupswitch_sample_is_timerandwakeup_plus_switchtime
fi

lh_case_begin
for h in switchtime timerwakeupswitch; do
	if ! hl_maxrec $h 1; then
		lh_err "$h/max_latency-CPU1 malformed: '$MR_LINE'"
	elif [ -n "$MR_NONE" ]; then
		lh_err "$h/max_latency-CPU1 is (none) after $st samples"
	else
		[ "$MR_VPID" = "$tid" ] || lh_err "$h: max record victim pid $MR_VPID, expected $tid"
		[ "$MR_VPRIO" = $PRIO ] || lh_err "$h: max record victim priority $MR_VPRIO, expected $PRIO"
		[ "$MR_VCOMM" = rt_sleeper ] || lh_err "$h: max record victim comm '$MR_VCOMM', expected rt_sleeper"
		[ "$MR_LAT" = "$(hl_max $h 1)" ] ||
			lh_err "$h: max record latency $MR_LAT != histogram maximum $(hl_max $h 1)"
		if [ $h = switchtime ]; then
			[ "$MR_TOFF" = 0 ] || lh_err "switchtime: max record timeroffset $MR_TOFF, expected 0"
		else
			[ "$MR_TOFF" -le "$MR_LAT" ] 2>/dev/null ||
				lh_err "timerwakeupswitch: timer part $MR_TOFF > latency $MR_LAT"
		fi
	fi
done
lh_case_end max_records_name_the_sleeper

lh_case_begin
own_max=$(sl_field "$tid" max_us)
m=$(hl_max timerwakeupswitch 1)
if [ "$m" != "<undef>" ]; then
	[ "$m" -le "$own_max" ] ||
		lh_err "timerwakeupswitch/CPU1 maximum $m us > the sleeper's own worst lateness $own_max us"
fi
lh_diag "timerwakeupswitch maximum $m us, the sleeper's own worst lateness $own_max us"
lh_case_end timerwakeupswitch_never_exceeds_the_sleepers_own_lateness

# 5. Only switchtime slows system calls, and it files nothing while off.
lh_case_begin
for h in $LH_HISTS; do
	lh_status_get "$h" syscall_slow_path
	want=0
	[ "$h" = switchtime ] && want=1
	[ "$LH_FIELD" = $want ] || lh_err "status $h: syscall_slow_path=$LH_FIELD, expected $want"
done
sl_start "$LH_TMP/sl2" -c 1 -p $PRIO -i $PERIOD -l 20 || lh_bail "rt_sleeper did not start"
lh_filter wakeup "$SL_TID"
lh_reset wakeup switchtime timerwakeupswitch
lh_enable wakeup
sl_go
sl_wait
lh_disable_all
n=$(hl_total_all switchtime timerwakeupswitch)
[ "$n" = 0 ] || lh_err "switchtime off: $n switchtime/timerwakeupswitch samples filed"
[ "$(hl_total_all wakeup)" -gt 0 ] || lh_err "switchtime off: the sleeper's 20 wakeups filed nothing in wakeup/ either"
lh_case_end only_switchtime_slows_system_calls_and_files_nothing_while_off

# 6. A seccomp-denied system call fires sys_exit without sys_enter. Only
# where the kernel has seccomp filters (CONFIG_SECCOMP_FILTER registers
# kernel.seccomp.actions_avail): the matrix's source-built kernels do not.
if ! grep -qw errno /proc/sys/kernel/seccomp/actions_avail 2>/dev/null; then
	lh_skip a_sys_exit_without_sys_enter_ends_no_window "no seccomp filters in this kernel (CONFIG_SECCOMP_FILTER)"
	hl_finish_checked 0
fi
lh_case_begin
# On PREEMPT_RT the spinner stops itself (rt_hog -s) instead of spinning
# until this shell stops it: there a FIFO 50 spinner starves rcuc/1 (RT
# throttling holds back every RT thread of the CPU), and the shell's own
# fork and exec then waited behind it (a guest: "rcuc ... jiffies(starved)",
# the shell stuck between two commands, for minutes). Its tgkill(SIGSTOP)
# stops it after that call's sys_exit, so the SIGCONT still returns it to
# user space without one. The shell stays off CPU 1 either way.
stop_by=shell
[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] && stop_by=itself
taskset -p -c 0 $$ >/dev/null 2>&1 || lh_diag "cannot pin the test shell to CPU 0"
"$LH_BINDIR/rt_hog" stopspin -w $([ $stop_by = itself ] && echo -s) -c 1 -p 50 -d $SPIN_MS \
	>"$LH_TMP/hog" 2>"$LH_TMP/hog.err" &
HOG=$!
n=0
while ! grep -q '^ready' "$LH_TMP/hog" 2>/dev/null && [ $n -lt 600 ] && kill -0 $HOG 2>/dev/null; do
	n=$((n + 1))
	lh_sleep_s 0.1
done
grep -q '^ready' "$LH_TMP/hog" || lh_bail "rt_hog stopspin not ready: $(cat "$LH_TMP/hog.err")"
tid=$(awk '$1 == "tid" { print $2 }' "$LH_TMP/hog")
lh_filter wakeup "$tid"
lh_enable wakeup switchtime
kill -USR1 $HOG
n=0
while ! grep -q -e '^spinning' -e '^stopping' "$LH_TMP/hog" && [ $n -lt 100 ]; do
	n=$((n + 1))
	lh_sleep_s 0.1
done
[ $stop_by = itself ] || kill -STOP $HOG
# Reset once it is stopped: a reset waits for an RCU grace period, which a
# spinner on CPU 1 delays on PREEMPT_RT (above). The reset drops the wakeups
# of its 1 ms polls for SIGUSR1 (true wakeups from nanosleep), which are not
# what is counted.
n=0
until [ "$(awk '{ print $3 }' "/proc/$HOG/task/$tid/stat" 2>/dev/null)" = T ] || [ $n -ge 100 ]; do
	n=$((n + 1))
	lh_sleep_s 0.1
done
[ $n -lt 100 ] || lh_bail "rt_hog stopspin: its spinner $tid did not stop within 10 s (stopped by $stop_by)"
lh_diag "rt_hog's spinner $tid stopped by $stop_by"
lh_reset wakeup switchtime
lh_sleep_s 0.3
kill -CONT $HOG
wait $HOG || lh_err "rt_hog stopspin failed: $(cat "$LH_TMP/hog.err")"
HOG=
lh_disable_all
lh_diag "$(grep '^done' "$LH_TMP/hog")"
grep -q 'getppid_errno 1$' "$LH_TMP/hog" || lh_err "getppid() was not denied with EPERM"
hl_show_totals wakeup switchtime
[ "$(hl_total wakeup 1)" -ge 1 ] || lh_err "wakeup/CPU1 holds no sample: the SIGCONT wakeup of $tid was not filed"
n=$(hl_total_all switchtime)
[ "$n" = 0 ] || lh_err "switchtime holds $n samples (maximum $(hl_max switchtime 1) us) from a sys_exit without sys_enter"
taskset -p -c "$(cat /sys/devices/system/cpu/possible)" $$ >/dev/null 2>&1 || true
lh_case_end a_sys_exit_without_sys_enter_ends_no_window

hl_finish_checked 0
