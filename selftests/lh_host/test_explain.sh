#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_explain.sh - host tests of `lh explain` against fixed explain files
#
# The records below are real ones, from explain.sh in a 6.12 guest
# (lh_load_test spinning 8 ms in a hard timer interrupt on CPU 1). Each case
# runs lh with LH_ROOT on a tree made here, once per flavour of the tools lh
# may meet on a rig (gawk, mawk, busybox: see test_lh.sh); a flavour whose
# tools are missing is skipped. python3 checks the JSON strictly when present.
#
# Usage: sh selftests/lh_host/test_explain.sh [FLAVOUR..]
# Prints KTAP: one "ok N flavour: case" line per case, then the plan and the
# kselftest "# Totals:" line; exit 1 if any failed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LT_DIR/host_lib.sh"
PY=$(command -v python3 2>/dev/null)


# expect_out FILE WHAT - err unless the last lh's stdout is FILE's text
expect_out()
{
	cmp -s "$1" "$TMP/out" || err "$2: output differs: $(diff "$1" "$TMP/out" | head -n 8 | tr '\n' '|')"
}

# make_tree DIR - a tree of 2 CPUs with explained maxima of wakeup and
# missed_timer_offsets on CPU 1, none elsewhere, explain on
make_tree()
{
	rm -rf "$1"
	mkdir -p "$1/wakeup/sharedprio" "$1/missed_timer_offsets" "$1/switchtime" "$1/explain"
	cat >"$1/status" <<'EOF'
wakeup available=1 enabled=1 bytes=164560 switch=wakeup needs=- pid=1 max=1 counters=1 syscall_slow_path=0 explain=1
wakeup/sharedprio available=1 enabled=1 bytes=164560 switch=wakeup needs=- pid=0 max=1 counters=1 syscall_slow_path=0 explain=1
missed_timer_offsets available=1 enabled=1 bytes=164560 switch=missed_timer_offsets needs=- pid=1 max=1 counters=1 syscall_slow_path=0 explain=1
switchtime available=1 enabled=0 bytes=0 switch=switchtime needs=wakeup pid=0 max=1 counters=0 syscall_slow_path=1 explain=0
EOF
	echo 1 >"$1/explain/enable"
	for t in wakeup wakeup/sharedprio missed_timer_offsets; do
		for c in 0 1; do
			echo "(none)" >"$1/$t/explain-CPU$c"
			echo "(none)" >"$1/$t/max_latency-CPU$c"
		done
	done
	cat >"$1/wakeup/explain-CPU1" <<'EOF'
hardirq 7709363 1
softirq 16164 1
nmi 0 0
thread 0 0
other 61371 1
window 7786898
  vector 236 local_timer 1 7709363
    timer lh_hardirq_fn [lh_load_test] 1 7700120
    timer hrtimer_wakeup 1 2100
  softirq 7 SCHED 1 16164
  idle 61371
EOF
	echo "242 80 7786 (0) rt_sleeper <- 0 -21 swapper/1 47.968677" >"$1/wakeup/max_latency-CPU1"
	cat >"$1/missed_timer_offsets/explain-CPU1" <<'EOF'
hardirq 4211331 2
softirq 0 0
nmi 1200 1
thread 28100 2
other 3000 1
window 4243631
  vector 236 local_timer 1 4201012
  irq 11 virtio0 1 10319
  thread 1234 1 ktimers/1 20100
  thread-rest 1 8000
  uncovered 3000
EOF
	echo "242 80 4240 (4240) rt_sleeper <- 17 -21 kworker/1:1 48.000001" >"$1/missed_timer_offsets/max_latency-CPU1"
}

# case_text - one paragraph per explained CPU, largest part first
case_text()
{
	lh explain
	expect_rc 0 "lh explain"
	cat >"$TMP/want" <<'EOF'
wakeup on CPU1: rt_sleeper/242 (prio 80) waited 7786.9 us to run: 7709.4 us in hard IRQs (1 x local_timer 7709.4 us (of it 1 x timer lh_hardirq_fn [lh_load_test] 7700.1 us, 1 x timer hrtimer_wakeup 2.1 us)); 61.4 us other (idle 61.4 us); 16.2 us in softirqs (1 x SCHED 16.2 us).
missed_timer_offsets on CPU1: the timer of rt_sleeper/242 (prio 80) fired 4243.6 us late: 4211.3 us in hard IRQs (1 x local_timer 4201.0 us, 1 x virtio0 irq 11 10.3 us); 28.1 us in other threads (ktimers/1 (pid 1234, prio 1) 20.1 us, 1 more 8.0 us); 3.0 us other (3.0 us before the oldest event explain still held, not explained); 1.2 us in NMIs (1 x NMI).
EOF
	expect_out "$TMP/want" "lh explain"
	case_end text_one_paragraph_per_explained_cpu
}

# case_cpu_type - a type and --cpu narrow the answer
case_cpu_type()
{
	lh explain wakeup --cpu 1
	expect_rc 0 "lh explain wakeup --cpu 1"
	[ "$(wc -l <"$TMP/out")" -eq 1 ] && grep -q '^wakeup on CPU1: ' "$TMP/out" ||
		err "lh explain wakeup --cpu 1: '$(cat "$TMP/out")'"
	lh explain wakeup --cpu 0
	expect_rc 0 "lh explain wakeup --cpu 0"
	grep -q '^no maximum explained yet$' "$TMP/out" ||
		err "lh explain wakeup --cpu 0 (none): '$(cat "$TMP/out")'"
	lh explain switchtime
	expect_rc 2 "a type without explain files"
	expect_err "'switchtime' has no explain files" "a type without explain files"
	lh explain nosuch
	expect_rc 2 "an unknown type"
	lh explain --cpu x
	expect_rc 2 "--cpu x"
	expect_err "is not a CPU number" "--cpu x"
	lh explain --cpu 7
	expect_rc 2 "--cpu 7 of 2 CPUs"
	lh explain --bogus
	expect_rc 2 "an unknown option"
	case_end type_and_cpu_narrow_and_bad_arguments_exit_2
}

# case_json - --json is strict JSON with the records' values
case_json()
{
	lh explain --json
	expect_rc 0 "lh explain --json"
	if [ -z "$PY" ]; then
		grep -q '"window_ns": 7786898' "$TMP/out" || err "no window_ns 7786898 in $(head -c 300 "$TMP/out")"
		case_end json_has_the_records
		return
	fi
	res=$("$PY" -c '
import json, sys
d = json.load(sys.stdin)
w = d["types"]["wakeup"]["cpus"]
assert d["schema_version"] >= 1 and d["explain_enabled"] is True
assert w["0"] is None, w["0"]
r = w["1"]
assert r["window_ns"] == 7786898 and r["hardirq"] == {"ns": 7709363, "count": 1}
assert sum(r[c]["ns"] for c in ("hardirq", "softirq", "nmi", "thread", "other")) == r["window_ns"]
assert r["details"][0] == {"kind": "vector", "id": 236, "name": "local_timer", "count": 1, "ns": 7709363}, r["details"][0]
assert r["details"][1] == {"kind": "timer", "function": "lh_hardirq_fn [lh_load_test]", "count": 1, "in": 0, "ns": 7700120}, r["details"][1]
assert r["max"] == {"latency": 7786, "pid": 242, "prio": 80, "comm": "rt_sleeper"}, r["max"]
assert r["text"].startswith("wakeup on CPU1: rt_sleeper/242 (prio 80) waited 7786.9 us")
m = d["types"]["missed_timer_offsets"]["cpus"]["1"]
t = [x for x in m["details"] if x["kind"] == "thread"]
assert t == [{"kind": "thread", "pid": 1234, "prio": 1, "comm": "ktimers/1", "ns": 20100}], t
assert {"kind": "thread-rest", "tasks": 1, "ns": 8000} in m["details"]
assert {"kind": "uncovered", "ns": 3000} in m["details"]
assert d["types"]["wakeup/sharedprio"]["cpus"] == {"0": None, "1": None}
print("ok")
' <"$TMP/out" 2>&1)
	[ "$res" = ok ] || err "lh explain --json: $res"
	case_end json_has_the_records
}

# refused WHAT ERROR SED [LINE] - lh explain exits 2 saying ERROR when the
# good wakeup/explain-CPU1 is changed by the sed script SED, LINE appended
refused()
{
	sed "$3" "$TMP/t/wakeup/explain-CPU1" >"$TMP/bad/wakeup/explain-CPU1"
	[ -z "${4:-}" ] || printf '%s\n' "$4" >>"$TMP/bad/wakeup/explain-CPU1"
	LH_ROOT=$TMP/bad lh explain
	expect_rc 2 "$1"
	expect_err "$2" "$1"
}

# case_malformed - a record that does not add up, or a bad line, exits 2
case_malformed()
{
	cp -r "$TMP/t" "$TMP/bad"
	refused "a window that is not the sum" "do not add up" 's/^window 7786898$/window 7786899/'
	refused "an unknown detail line" "unknown detail line" '' "  bogus 1 2"
	refused "a timer line under idle" "a timer line under no irq, vector or softirq line" '' \
		"    timer hrtimer_wakeup 1 2"
	refused "a timer line with two blanks" \
		"a timer or idle-state line, and only they, start with four blanks" \
		's/^    timer hrtimer_wakeup/  timer hrtimer_wakeup/'
	refused "an idle-state line under softirq" "an idle-state line under no idle line" \
		's/^  softirq 7 SCHED 1 16164$/&\n    idle-state 1 default_idle_call - vector 253 reschedule 1 2/'
	refused "an idle-state line without its waker's name" 'expected "idle-state <index>' '' \
		"    idle-state 1 default_idle_call - vector 253 1 2"
	sed -i 's/explain=[01]//' "$TMP/bad/status"
	LH_ROOT=$TMP/bad lh explain
	expect_rc 2 "a module without explain"
	expect_err "no type has explain files" "a module without explain"
	rm -rf "$TMP/bad"
	case_end malformed_records_exit_2
}

# case_section - a critical section's record (a real one: 6.12-preempt, a
# natural 114 ms preempt-off section of ksoftirqd running RCU) tells how
# long the section held the CPU and who held it
case_section()
{
	cp -r "$TMP/t" "$TMP/sec"
	echo "preemptoff available=1 enabled=1 bytes=164560 switch=preemptirqsoff needs=- pid=0 max=0 counters=1 syscall_slow_path=0 explain=1" >>"$TMP/sec/status"
	mkdir "$TMP/sec/preemptoff"
	echo "(none)" >"$TMP/sec/preemptoff/explain-CPU0"
	cat >"$TMP/sec/preemptoff/explain-CPU1" <<'EOF'
hardirq 306007 2
softirq 113871343 2
nmi 0 0
thread 28257 1
other 0 0
window 114205607
  vector 253 reschedule 1 5168
  vector 236 local_timer 1 300839
    timer tick_nohz_handler 1 182432
  softirq 7 SCHED 1 64316
  softirq 9 RCU 1 113807027
  thread 23 -21 ksoftirqd/1 28257
EOF
	LH_ROOT=$TMP/sec lh explain preemptoff
	expect_rc 0 "lh explain preemptoff"
	cat >"$TMP/want" <<'EOF'
preemptoff on CPU1: preemption was off for 114205.6 us: 113871.3 us in softirqs (1 x SCHED 64.3 us, 1 x RCU 113807.0 us); 306.0 us in hard IRQs (1 x reschedule 5.2 us, 1 x local_timer 300.8 us (of it 1 x timer tick_nohz_handler 182.4 us)); 28.3 us in the task that held it (ksoftirqd/1 (pid 23, prio -21) 28.3 us).
EOF
	expect_out "$TMP/want" "lh explain preemptoff"
	rm -rf "$TMP/sec"
	case_end critical_section_tells_who_held_it
}

# case_idle - idle states under the idle line: the kernel's default idle
# (a real record: explain.sh's idle case on 6.12-preempt, a TCG guest, no
# cpuidle driver), and a driver's states with their exit latency, ended by
# an IPI, an NMI or nothing, and the rest beyond the eight named (made
# here: no guest of the matrix has a driver)
case_idle()
{
	cp -r "$TMP/t" "$TMP/idle"
	cat >"$TMP/idle/wakeup/explain-CPU1" <<'EOF'
hardirq 351373 2
softirq 0 0
nmi 0 0
thread 0 0
other 630618 1
window 981991
  vector 236 local_timer 1 106715
    timer tick_nohz_handler 1 55516
  vector 251 call_function_s 1 244658
  idle 630618
    idle-state 1 default_idle_call - vector 236 local_timer 1 116713
    idle-state 1 default_idle_call - vector 251 call_function_s 1 385077
EOF
	echo "432 80 981 (0) rt_sleeper <- 0 -21 swapper/1 98.123456" >"$TMP/idle/wakeup/max_latency-CPU1"
	cat >"$TMP/idle/missed_timer_offsets/explain-CPU1" <<'EOF'
hardirq 9100 1
softirq 0 0
nmi 2000 1
thread 0 0
other 912000 1
window 923100
  vector 251 call_function_single 1 9100
  idle 912000
    idle-state 3 C6 133 vector 251 call_function_single 1 800000
    idle-state 2 C1E 10 nmi -1 - 1 60000
    idle-state 3 C6 133 none -1 - 2 30000
    idle-state -1 (others) - - -1 - 3 1500
EOF
	LH_ROOT=$TMP/idle lh explain
	expect_rc 0 "lh explain with idle states"
	cat >"$TMP/want" <<'EOF'
wakeup on CPU1: rt_sleeper/432 (prio 80) waited 982.0 us to run: 630.6 us other (idle 630.6 us (of it 1 x default_idle_call 116.7 us woken by local_timer, 1 x default_idle_call 385.1 us woken by call_function_s)); 351.4 us in hard IRQs (1 x local_timer 106.7 us (of it 1 x timer tick_nohz_handler 55.5 us), 1 x call_function_s 244.7 us).
missed_timer_offsets on CPU1: the timer fired 923.1 us late: 912.0 us other (idle 912.0 us (of it 1 x C6 (exit latency 133 us) 800.0 us woken by call_function_single, 1 x C1E (exit latency 10 us) 60.0 us woken by an NMI, 2 x C6 (exit latency 133 us) 30.0 us woken by no interrupt, 3 x other idle states 1.5 us)); 9.1 us in hard IRQs (1 x call_function_single 9.1 us); 2.0 us in NMIs (1 x NMI).
EOF
	expect_out "$TMP/want" "lh explain with idle states"
	LH_ROOT=$TMP/idle lh explain --json
	expect_rc 0 "lh explain --json with idle states"
	if [ -n "$PY" ]; then
		res=$("$PY" -c '
import json, sys
d = json.load(sys.stdin)
r = d["types"]["missed_timer_offsets"]["cpus"]["1"]
i = [x for x in r["details"] if x["kind"] == "idle-state"]
assert r["details"][1] == {"kind": "idle", "ns": 912000}, r["details"][1]
assert i[0] == {"kind": "idle-state", "state": 3, "name": "C6", "exit_latency_us": 133, "woken_by": {"kind": "vector", "id": 251, "name": "call_function_single"}, "count": 1, "in": 1, "ns": 800000}, i[0]
assert i[1]["woken_by"] == {"kind": "nmi", "id": -1, "name": None}, i[1]
assert i[2]["woken_by"] is None and i[2]["count"] == 2, i[2]
assert i[3]["state"] == -1 and i[3]["woken_by"] is None and i[3]["exit_latency_us"] is None, i[3]
assert sum(x["ns"] for x in i) <= r["details"][1]["ns"]
w = d["types"]["wakeup"]["cpus"]["1"]["details"]
assert w[3] == {"kind": "idle", "ns": 630618}, w[3]
assert w[5] == {"kind": "idle-state", "state": 1, "name": "default_idle_call", "exit_latency_us": None, "woken_by": {"kind": "vector", "id": 251, "name": "call_function_s"}, "count": 1, "in": 3, "ns": 385077}, w[5]
print("ok")
' <"$TMP/out" 2>&1)
		[ "$res" = ok ] || err "lh explain --json with idle states: $res"
	fi
	rm -rf "$TMP/idle"
	case_end idle_states_told_with_what_ended_them
}

# case_softirq - a softirq maximum: the victim is a vector, named by its
# number and name (the record is the shape of softirq.sh's: HI raised in a
# 5 ms bottom-halves-off section of lh_softirq_hold, a virtio interrupt in it)
case_softirq()
{
	cp -r "$TMP/t" "$TMP/sirq"
	echo "softirq available=1 enabled=1 bytes=164560 switch=softirq needs=- pid=0 max=1 counters=0 syscall_slow_path=0 explain=1" \
		>>"$TMP/sirq/status"
	mkdir "$TMP/sirq/softirq"
	echo "(none)" >"$TMP/sirq/softirq/explain-CPU0"
	echo "(none)" >"$TMP/sirq/softirq/max_latency-CPU0"
	cat >"$TMP/sirq/softirq/explain-CPU1" <<'EOF'
hardirq 10319 1
softirq 0 0
nmi 0 0
thread 5002000 1
other 0 0
window 5012319
  irq 11 virtio0 1 10319
  thread 301 -21 lh_softirq_hold 5002000
EOF
	echo "0 -21 5012 (0) HI <- 301 -21 lh_softirq_hold 98.123456" >"$TMP/sirq/softirq/max_latency-CPU1"
	LH_ROOT=$TMP/sirq lh explain softirq
	expect_rc 0 "lh explain softirq"
	cat >"$TMP/want" <<'EOF'
softirq on CPU1: vector 0 HI waited 5012.3 us to run: 5002.0 us in tasks (lh_softirq_hold (pid 301, prio -21) 5002.0 us); 10.3 us in hard IRQs (1 x virtio0 irq 11 10.3 us).
EOF
	expect_out "$TMP/want" "lh explain softirq"
	rm -rf "$TMP/sirq"
	case_end a_softirq_maximum_names_its_vector
}

# case_off - nothing explained and explain off: say how to turn it on
case_off()
{
	cp -r "$TMP/t" "$TMP/off"
	for f in "$TMP"/off/*/explain-CPU* "$TMP"/off/*/*/explain-CPU*; do
		echo "(none)" >"$f"
	done
	echo 0 >"$TMP/off/explain/enable"
	LH_ROOT=$TMP/off lh explain
	expect_rc 0 "all (none)"
	grep -q "^no maximum explained yet (explain is off: echo 1 > $TMP/off/explain/enable)$" "$TMP/out" ||
		err "all (none), explain off: '$(cat "$TMP/out")'"
	rm -rf "$TMP/off"
	case_end nothing_explained_says_how_to_turn_it_on
}

echo "TAP version 13"
make_tree "$TMP/t"
export LH_ROOT="$TMP/t"
for f in ${*:-gawk mawk busybox}; do
	if ! flavour "$f"; then
		FLAVOUR=$f
		skip all "$f is not installed"
		continue
	fi
	case_text
	case_cpu_type
	case_json
	case_malformed
	case_section
	case_idle
	case_softirq
	case_off
done

echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
