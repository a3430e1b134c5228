#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086,SC2046 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# outliers.sh - <type>/outlier_us and <type>/outliers-CPUx: every sample at
# or above a budget, with its cause
#
# Proves (Documentation/latency_hist.rst, "outlier_us and outliers-CPUx"):
#  1. off by default (outlier_us reads 0, no ring tracepoint hooked, the
#     file's header says budget_us=0 filed=0); bad input is refused with
#     EINVAL; a budget hooks explain's ring tracepoints with explain/enable
#     still 0.
#  2. hard interrupt: lh_load_test mode=hardirq spins N = 8000 us inside a
#     pinned hard hrtimer on CPU 1, every G = 2000 us; a SCHED_FIFO 80
#     sleeper woken on CPU 0 for CPU 1 (pid filter on it) waits for the
#     spins. With budget B = N/2 on wakeup and missed_timer_offsets, each
#     outliers file keeps the invariant: filed == the histogram's samples
#     >= B on that CPU, kept + dropped == filed, the records' numbers run
#     from first_seq to next_seq - 1 without a gap, no record is under B,
#     and each record's five categories add up to its window_ns, which is
#     its own sample's window (wakeup: window_ns / 1000 == latency_us; a
#     late timer's window reaches back at least to its expiry).
#     wakeup/outliers-CPU1 holds at least one record; each explained one
#     whose window (ending at time_ns) lh_load_test's logged spins cover by
#     half or more is cause=hardirq, with hardirq + nmi at least the
#     spins' part of the window; at least one such record.
#  3. preempt-off section: the same with mode=preempt: at least one
#     outlier is cause=thread naming lh_load_test (cause_name), and the
#     invariant holds.
#  4. threaded interrupt (where irq is available: PREEMPT_RT or threadirqs):
#     lh_irq_test fires its line IHOLDS times on CPU 1, each inside an
#     IHOLD_US preempt-off section of its kthread lh_irq_hold; with budget
#     IHOLD_US/2 on irq, irq/outliers-CPU1 holds exactly IHOLDS records of
#     the line's thread (victim irq/<line>-...), at least one explained as
#     cause=thread naming lh_irq_hold, none blaming another thread or
#     "other" (interrupts that outweighed the section, an emulator's stall
#     in a handler, are shown); the invariant holds on every CPU.
#  5. softirq: lh_softirq_test raises HI SHOLDS times on CPU 1, each inside
#     an SHOLD_US bottom-halves-off section of lh_softirq_hold; with budget
#     SHOLD_US/2 on softirq, softirq/outliers-CPU1 holds exactly SHOLDS
#     records of vector HI (victim_pid=0 victim_comm=HI), with causes as
#     in 4, naming lh_softirq_hold; the invariant holds. Where lh is beside the tests, lh outliers shows
#     both types' records with that cause, and lh prom counts them in
#     latency_hist_outliers_total{type,cpu="1",cause="thread"}.
#  6. overflow: a sleeper pinned to CPU 1 (pid filter) wakes 3000 times
#     with budget 1 us on wakeup (topped up by more sleepers for the sleeps
#     that did not block): every wakeup under emulation takes >= 1
#     us, so 3000 outliers fill the 1024-record log: kept=1024,
#     dropped=filed-1024 (1976), filed == the histogram's samples >= 1,
#     numbers continuous; a reader that writes next_seq - 4 reads exactly
#     the last 3 records; a reset empties the log and the numbers go on
#     (first_seq == the old next_seq).
#  7. clearing the last budget unhooks the ring and empties the header.
#  8. dmesg stays clean.
#
# requires: rt_sleeper cpu1 lh_load_test lh_irq_test lh_softirq_test

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"
. "$LH_TESTDIR/inject_lib.sh"

L=30
PERIOD=20000
N=8000
G=2000
B=$((N / 2))
PRIO=80
SECTIONS=120	# >= 120 x 10 ms outlast the 30 x 20 ms of the loops
OVERFLOW=3000
RECS=1024
IHOLD_US=3000	# the preempt-off section around an interrupt of lh_irq_test
IHOLDS=5
SHOLD_US=5000	# the bottom-halves-off section around a raise of HI
SHOLDS=3
LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}

sl_setup
lh_plan 8
lh_load_or_bail

# o_file HIST CPU - the outliers file of HIST on CPU
o_file()
{
	echo "$LH_DIR/$1/outliers-CPU$2"
}

# o_head FILE FIELD - a field of FILE's header line
o_head()
{
	awk -v f="$2" 'NR == 1 { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == f) print kv[2] } exit }' "$1"
}

# o_hooked - how many tracepoints explain/status lists as hooked
o_hooked()
{
	grep -c ' hooked$' "$LH_DIR/explain/status"
}

# o_check HIST CPU - lh_err for each way HIST/outliers-CPU breaks the
# invariant or the format: filed against the histogram's samples >= the
# budget, kept + dropped, the numbers, records under the budget, breakdowns
# that do not add up
o_check()
{
	oc_f=$(o_file "$1" "$2")
	cp "$oc_f" "$LH_TMP/oc"
	oc_b=$(o_head "$LH_TMP/oc" budget_us)
	oc_n=$(hl_at_least "$1" "$2" "$oc_b")
	lh_diag "$1/outliers-CPU$2: $(head -n 1 "$LH_TMP/oc"); histogram >= $oc_b us: $oc_n"
	[ "$(o_head "$LH_TMP/oc" filed)" = "$oc_n" ] ||
		lh_err "$1/outliers-CPU$2: filed=$(o_head "$LH_TMP/oc" filed), the histogram holds $oc_n samples >= $oc_b us"
	oc_exact=0
	case $1 in wakeup*) oc_exact=1 ;; esac
	awk -v b="$oc_b" -v exact=$oc_exact '
		NR == 1 {
			if ($1 != "#outliers") print "no #outliers header: " $0
			for (i = 2; i <= NF; i++) { split($i, kv, "="); h[kv[1]] = kv[2] }
			if (h["kept"] + h["dropped"] != h["filed"])
				print "kept " h["kept"] " + dropped " h["dropped"] " != filed " h["filed"]
			want = h["first_seq"]
			next
		}
		$1 == "outlier" {
			delete r
			for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
			if (r["seq"] != want) print "seq " r["seq"] ", expected " want
			want = r["seq"] + 1
			n++
			if (r["latency_us"] < b) print "seq " r["seq"] ": latency_us " r["latency_us"] " < budget " b
			s = r["hardirq"] + r["softirq"] + r["nmi"] + r["thread"] + r["other"]
			if (s != r["window_ns"]) print "seq " r["seq"] ": categories " s " != window_ns " r["window_ns"]
			w = int(r["window_ns"] / 1000)
			if (exact ? w != r["latency_us"] : w < r["latency_us"])
				print "seq " r["seq"] ": window_ns " r["window_ns"] " is not the window of latency_us " r["latency_us"]
			if (r["cause"] == "unexplained") u++
		}
		END {
			if (n != h["kept"]) print n " records, kept=" h["kept"]
			if (want != h["next_seq"]) print "last seq " want - 1 ", next_seq=" h["next_seq"]
			if (b && n + 0 != 0 && h["unexplained"] < u) print u " unexplained records, unexplained=" h["unexplained"]
		}' "$LH_TMP/oc" >"$LH_TMP/oc.err"
	while IFS= read -r oc_line; do
		lh_err "$1/outliers-CPU$2: $oc_line"
	done <"$LH_TMP/oc.err"
}

# o_check_all HIST - o_check HIST on every possible CPU
o_check_all()
{
	for oa_cpu in $(lh_possible_cpus); do
		o_check "$1" "$oa_cpu"
	done
}

# o_show HIST CPU - diagnostics: the start of the file
o_show()
{
	head -n 24 "$(o_file "$1" "$2")" | while IFS= read -r os_line; do
		lh_diag "$os_line"
	done
}

lh_case_begin
lh_expect_content "$LH_DIR/wakeup/outlier_us" 0
[ "$(o_hooked)" = 0 ] || lh_err "no budget, no explain: $(o_hooked) tracepoints hooked"
[ "$(o_head "$(o_file wakeup 0)" budget_us)" = 0 ] ||
	lh_err "wakeup/outliers-CPU0: $(head -n 1 "$(o_file wakeup 0)")"
lh_expect_write_errno "$LH_DIR/wakeup/outlier_us" abc EINVAL
lh_expect_write_errno "$LH_DIR/wakeup/outlier_us" -1 EINVAL
lh_expect_write_errno "$(o_file wakeup 0)" x1 EINVAL
lh_expect_content "$LH_DIR/wakeup/outlier_us" 0
lh_expect_write_ok "$LH_DIR/wakeup/outlier_us" $B
lh_expect_write_ok "$LH_DIR/missed_timer_offsets/outlier_us" $B
lh_expect_content "$LH_DIR/wakeup/outlier_us" $B
[ "$(o_hooked)" -gt 0 ] || lh_err "a budget is set, but no ring tracepoint is hooked"
lh_expect_content "$LH_DIR/explain/enable" 0
lh_case_end budget_hooks_the_ring_without_explain

lt_load cpu=1 mode=hardirq delay_us=$N count=$SECTIONS gap_us=$G ||
	lh_bail "lh_load_test not available"
lh_enable wakeup missed_timer_offsets

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
}

lh_case_begin
run_moved hardirq
o_check_all wakeup
o_check_all missed_timer_offsets
o_show wakeup 1
# Each record against the spins: "<hardirq records> <errors...>"
awk '
	NR == FNR { from[NR] = $1; to[NR] = $2; ns = NR; next }
	$1 == "outlier" {
		delete r
		for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
		hi = int(r["time_ns"] / 1000); lo = hi - r["window_ns"] / 1000
		cov = 0
		for (i = 1; i <= ns; i++) {
			a = from[i] > lo ? from[i] : lo; b = to[i] < hi ? to[i] : hi
			if (b > a) cov += b - a
		}
		if (r["cause"] == "unexplained" || cov * 2000 < r["window_ns"])
			next
		if (r["cause"] != "hardirq")
			print "seq " r["seq"] ": spins cover " cov " us of its " r["window_ns"] " ns, cause=" r["cause"]
		else if ((r["hardirq"] + r["nmi"]) / 1000 + 20 < cov)
			print "seq " r["seq"] ": hardirq+nmi " r["hardirq"] + r["nmi"] " ns < the " cov " us of spin"
		else
			hard++
	}
	END { if (!hard) print "no record whose window the spins cover by half is cause=hardirq" }
' "$LT_PARAMS/spins" "$(o_file wakeup 1)" >"$LH_TMP/hard.err"
lh_diag "lh_load_test logged $(wc -l <"$LT_PARAMS/spins") spins"
while IFS= read -r line; do
	lh_err "wakeup/outliers-CPU1: $line"
done <"$LH_TMP/hard.err"
lh_case_end wakeups_in_a_hardirq_spin_are_cause_hardirq

lh_case_begin
run_moved preempt
o_check_all wakeup
o_check_all missed_timer_offsets
o_show wakeup 1
grep '^outlier .* cause=thread cause_kind=thread cause_id=[0-9]* cause_name=lh_load_test ' \
	"$(o_file wakeup 1)" >/dev/null ||
	lh_err "wakeup/outliers-CPU1: no cause=thread naming lh_load_test"
lh_case_end wakeups_behind_a_preempt_off_kthread_are_cause_thread
lt_unload

# o_victims HIST CPU VICTIM N CULPRIT - lh_err unless HIST/outliers-CPU
# holds exactly N records whose victim_comm matches the awk ERE VICTIM, at
# least one of them explained as cause=thread with the thread CULPRIT as
# its detail, and none blames another thread or "other" (the section's task
# ran through the window). An explained one whose interrupts (hardirq,
# softirq, nmi) outweighed the section is shown, not an error: under TCG
# a vCPU stalled inside an interrupt handler makes that.
o_victims()
{
	awk -v re="$3" -v n="$4" -v who="$5" '
		$1 == "outlier" {
			delete r
			for (i = 2; i <= NF; i++) { split($i, kv, "="); r[kv[1]] = kv[2] }
			if (r["victim_comm"] !~ re) next
			got++
			what = "seq " r["seq"] " (" r["victim_comm"] ", " r["latency_us"] " us): cause=" r["cause"] " " r["cause_kind"] " " r["cause_name"]
			if (r["cause"] == "unexplained") next
			if (r["cause"] == "thread" && r["cause_kind"] == "thread" && r["cause_name"] == who)
				named++
			else if (r["cause"] == "thread" || r["cause"] == "other")
				print "ERR " what ", expected thread " who
			else
				print "DIAG " what ": interrupts outweighed the section"
		}
		END {
			if (got != n) print "ERR " got + 0 " records of victim " re ", expected " n
			if (!named) print "ERR no explained record of victim " re " names " who
		}' "$(o_file "$1" "$2")" >"$LH_TMP/victims.err"
	while read -r ov_kind ov_line; do
		case $ov_kind in
		ERR) lh_err "$1/outliers-CPU$2: $ov_line" ;;
		*) lh_diag "$1/outliers-CPU$2: $ov_line" ;;
		esac
	done <"$LH_TMP/victims.err"
}

# o_lh HIST CULPRIT - where lh is beside the tests: lh outliers shows a
# record of HIST with cause thread CULPRIT, and lh prom counts HIST's
# records of CPU 1 with cause thread
o_lh()
{
	if [ ! -r "$LH_TOOL" ]; then
		lh_diag "$LH_TOOL is not here: lh's reading of $1/outliers-CPUx not checked"
		return
	fi
	LH_ROOT=$LH_DIR sh "$LH_TOOL" outliers "$1" >"$LH_TMP/lh.out" 2>&1 ||
		lh_err "lh outliers $1 failed: $(head -c 300 "$LH_TMP/lh.out")"
	grep -Eq " $1 +[0-9]+ thread +thread $2/[0-9]+ " "$LH_TMP/lh.out" ||
		lh_err "lh outliers $1 shows no record caused by thread $2: $(head -n 3 "$LH_TMP/lh.out")"
	LH_ROOT=$LH_DIR sh "$LH_TOOL" prom >"$LH_TMP/prom" 2>&1 ||
		lh_err "lh prom failed: $(head -c 300 "$LH_TMP/prom")"
	want="latency_hist_outliers_total{type=\"$1\",cpu=\"1\",cause=\"thread\"}"
	awk -v w="$want" '$1 == w && $2 >= 1 { ok = 1 } END { exit !ok }' "$LH_TMP/prom" ||
		lh_err "lh prom lacks $want >= 1: $(grep "latency_hist_outliers_total.*$1" "$LH_TMP/prom" | head -n 3)"
}

if [ "$(lh_status_field irq available)" != 1 ]; then
	lh_skip irq_outliers_behind_a_preempt_off_section_name_its_thread \
		"irq is not available here: $(lh_status_line irq)"
else
	lh_case_begin
	it_load cpu=1 count=$IHOLDS gap_us=$G hold_us=$IHOLD_US
	lh_expect_write_ok "$LH_DIR/irq/outlier_us" $((IHOLD_US / 2))
	lh_enable irq
	lh_reset irq
	echo 1 >"$IT_PARAMS/trigger" || lh_err "lh_irq_test's run with sections failed"
	lh_expect_write_ok "$LH_DIR/enable/irq" 0
	o_check_all irq
	o_show irq 1
	o_victims irq 1 "^irq/$IT_IRQ-" $IHOLDS lh_irq_hold
	o_lh irq lh_irq_hold
	lh_expect_write_ok "$LH_DIR/irq/outlier_us" 0
	it_unload
	lh_case_end irq_outliers_behind_a_preempt_off_section_name_its_thread
fi

lh_case_begin
sq_load cpu=1 count=$SHOLDS gap_us=$G hold_us=$SHOLD_US
lh_expect_write_ok "$LH_DIR/softirq/outlier_us" $((SHOLD_US / 2))
lh_enable softirq
lh_reset softirq
echo 1 >"$SQ_PARAMS/trigger" || lh_err "lh_softirq_test's run with sections failed"
lh_expect_write_ok "$LH_DIR/enable/softirq" 0
o_check_all softirq
o_show softirq 1
o_victims softirq 1 '^HI$' $SHOLDS lh_softirq_hold
grep -q '^outlier .* victim_pid=0 victim_prio=[-0-9]* victim_comm=HI ' "$(o_file softirq 1)" ||
	lh_err "softirq/outliers-CPU1: no record names vector 0 as victim_pid=0 victim_comm=HI"
o_lh softirq lh_softirq_hold
lh_expect_write_ok "$LH_DIR/softirq/outlier_us" 0
sq_unload
lh_case_end softirq_outliers_behind_a_bh_off_section_name_its_thread

lh_case_begin
lh_expect_write_ok "$LH_DIR/missed_timer_offsets/outlier_us" 0
lh_expect_write_ok "$LH_DIR/wakeup/outlier_us" 1
F=$(o_file wakeup 1)
lh_reset wakeup
# A sleep that does not block wakes nobody: top up to OVERFLOW wakeups.
for _ in 1 2 3 4; do
	need=$((OVERFLOW - $(hl_file_total "$LH_DIR/wakeup/CPU1")))
	[ $need -gt 0 ] || break
	sl_start "$LH_TMP/slo" -c 1 -p $PRIO -i 1000 -l $need ||
		lh_bail "rt_sleeper did not start"
	lh_filter wakeup "$SL_TID"
	sl_go
	sl_wait
	sl_show_summary
done
o_check wakeup 1
filed=$(o_head "$F" filed)
total=$(hl_file_total "$LH_DIR/wakeup/CPU1")
[ "$(o_head "$F" kept)" = $RECS ] || lh_err "kept=$(o_head "$F" kept) after $filed outliers, expected $RECS"
[ "$(o_head "$F" dropped)" = $((filed - RECS)) ] ||
	lh_err "dropped=$(o_head "$F" dropped) after $filed outliers, expected $((filed - RECS))"
if [ "$total" = $OVERFLOW ]; then
	[ "$filed" = $OVERFLOW ] && [ "$(o_head "$F" dropped)" = $((OVERFLOW - RECS)) ] ||
		lh_err "$OVERFLOW wakeups >= 1 us: filed=$filed dropped=$(o_head "$F" dropped), expected $OVERFLOW and $((OVERFLOW - RECS))"
else
	lh_diag "wakeup/CPU1 holds $total samples, not $OVERFLOW: checked against the histogram"
	[ "$filed" -gt $RECS ] || lh_err "only $filed outliers: the log did not overflow"
fi
next=$(o_head "$F" next_seq)
got=$(exec 3<>"$F" && echo $((next - 4)) >&3 && awk '$1 == "outlier" { sub("seq=", "", $2); printf "%s ", $2 }' <&3)
[ "$got" = "$((next - 3)) $((next - 2)) $((next - 1)) " ] ||
	lh_err "after writing $((next - 4)): records '$got', expected the last 3 before $next"
lh_reset wakeup
[ "$(o_head "$F" first_seq)" = "$next" ] && [ "$(o_head "$F" filed)" = 0 ] &&
	[ "$(o_head "$F" kept)" = 0 ] && [ "$(o_head "$F" dropped)" = 0 ] ||
	lh_err "after a reset: $(head -n 1 "$F"), expected filed=kept=dropped=0 first_seq=$next"
lh_case_end overflow_drops_the_oldest_and_counts_them

lh_case_begin
lh_expect_write_ok "$LH_DIR/wakeup/outlier_us" 0
[ "$(o_hooked)" = 0 ] || lh_err "no budget left, but $(o_hooked) tracepoints are hooked"
[ "$(o_head "$F" budget_us)" = 0 ] && [ "$(o_head "$F" filed)" = 0 ] ||
	lh_err "budget cleared: $(head -n 1 "$F")"
lh_case_end clearing_the_last_budget_unhooks_the_ring
lh_case_dmesg_clean

lh_finished
