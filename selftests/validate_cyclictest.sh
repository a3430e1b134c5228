#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086,SC2046 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists (twice)
#
# validate_cyclictest.sh - our wakeup and timer figures against cyclictest's
# own measurement of the same thread in the same run
#
# Proves (Documentation/validation.rst, "cyclictest"): one SCHED_FIFO 80
# cyclictest thread on CPU 1 (clock_nanosleep, absolute, every 5 ms, L
# loops), followed by the wakeup and missed_timer_offsets pid filters from
# its first instruction on (its thread id is set in the filters before it
# exists: cyclictest waits in a wrapper while the test sets the kernel's
# next pid (ns_last_pid) to a free id, the filters to it, and lets it go,
# with builtins only; its one timer thread is the next task created, which
# the test checks, retrying if another task took that id):
#  1. wakeup + sharedprio hold one sample per loop plus the thread's first
#     switch-in (sched_wakeup_new of the new thread): L + 1, and
#     missed_timer_offsets one per loop (each expiry is a sleeper timer of
#     an RT task; an expiry that came early inside its slack is not a
#     sample, so L - the early ones, >= L - L/10);
#  2. per run, our maxima are <= cyclictest's maximum: cyclictest's latency
#     of a loop is timer offset + wakeup + the return to user space, ours
#     are its parts (wakeup, missed offset) and their sum (timerandwakeup);
#     for wakeup and timerandwakeup the second largest sample, as the
#     largest may be the first switch-in, which is no loop;
#  3. the same holds for every percentile (p50, p90, p99): a sample-wise
#     smaller quantity is smaller at every rank; and timerandwakeup tracks
#     cyclictest's shape: its p50 is within 500 us (the return to user space
#     under emulation) below cyclictest's.
# Lines "# table: check | figures | result" feed scripts/validate.sh.
#
# requires: cpu1 cyclictest ns_last_pid

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/validate_lib.sh"

L=400
PERIOD=5000
PRIO=80
TRIES=3

lh_setup
lh_plan 4
lh_load_or_bail

# vc_pcts FILE... - "p50 p90 p99 max n" of the "us count" rows of FILEs
# merged (module CPUx files or a cyclictest histogram), rank ceil(q * n);
# samples over the rows (10240 us and more) count as 10240
vc_pcts()
{
	awk '
		NF == 2 && $1 ~ /^ *[0-9]+$/ && $2 ~ /^[0-9]+$/ && $2 > 0 {
			c[$1 + 0] += $2; n += $2; if ($1 + 0 > max) max = $1 + 0 }
		/^# Histogram Overflows:/ && $4 > 0 { c[10240] += $4; n += $4; max = 10240 }
		/^#There are .* greater or equal than / && $3 > 0 { c[10240] += $3; n += $3; max = 10240 }
		END {
			split("0.5 0.9 0.99", q, " ")
			for (i = 1; i <= 3; i++) {
				r = q[i] * n; if (r > int(r)) r = int(r) + 1
				seen = 0
				for (v = 0; v <= max; v++) {
					seen += c[v]
					if (seen >= r) { printf "%d ", v; break }
				}
			}
			print max, n
		}' "$@"
}

# vc_run - one cyclictest run under the filters; returns 1 if its thread did
# not get the predicted id (nothing was measured then)
vc_run()
{
	rm -f "$LH_TMP/ct.pid" "$LH_TMP/go" "$LH_TMP/hist"
	mkfifo "$LH_TMP/go" || lh_bail "mkfifo failed"
	# shellcheck disable=SC2016 # for the inner shell
	sh -c 'echo $$ >"$0"; read -r go <"$1"; shift; exec "$@"' \
		"$LH_TMP/ct.pid" "$LH_TMP/go" \
		cyclictest -m -q -p $PRIO -t 1 -a 1 -i $PERIOD -l $L \
		-h 10240 --histfile="$LH_TMP/hist" >"$LH_TMP/ct.out" 2>&1 &
	ct_job=$!
	n=0
	while [ ! -s "$LH_TMP/ct.pid" ] && [ $n -lt 100 ]; do
		lh_sleep_s 0.05
		n=$((n + 1))
	done
	p=$(cat "$LH_TMP/ct.pid")
	# Until the real id is known, follow an id no task has (PID_MAX_LIMIT):
	# with the filter at 0, every RT kthread would be recorded meanwhile.
	lh_filter wakeup 4194304
	lh_filter missed_timer_offsets 4194304
	lh_reset wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup
	lh_enable wakeup missed_timer_offsets timerandwakeup
	# cyclictest's thread will be the next task created: make that id a
	# chosen free one (ns_last_pid), clear of the forks above. From here to
	# the go only builtins, so no fork of ours takes it.
	tid=$(($(cat /proc/sys/kernel/ns_last_pid) + 100))
	echo $((tid - 1)) >/proc/sys/kernel/ns_last_pid || lh_bail "cannot write ns_last_pid"
	echo $tid >"$LH_DIR/wakeup/pid"
	echo $tid >"$LH_DIR/missed_timer_offsets/pid"
	echo go >"$LH_TMP/go"
	# Still no fork until the thread exists (a sleep would take the id):
	# poll with builtins, a bounded number of times.
	n=0
	while [ ! -d "/proc/$p/task/$tid" ] && [ -d "/proc/$p" ] && [ $n -lt 200000 ]; do
		n=$((n + 1))
	done
	threads=$(cd "/proc/$p/task" 2>/dev/null && echo *)
	wait "$ct_job" || lh_err "cyclictest exited $?: $(cat "$LH_TMP/ct.out")"
	lh_expect_write_ok "$LH_DIR/enable/timerandwakeup" 0
	lh_expect_write_ok "$LH_DIR/enable/missed_timer_offsets" 0
	lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
	case " $threads " in
	*" $tid "*) return 0 ;;
	esac
	lh_diag "cyclictest pid $p has threads '$threads', not $tid: another task took the id"
	return 1
}

lh_case_begin
try=1
while ! vc_run; do
	try=$((try + 1))
	[ $try -le $TRIES ] || lh_bail "cyclictest's thread never got the predicted id in $TRIES runs"
done
[ -s "$LH_TMP/hist" ] || lh_bail "cyclictest wrote no histogram: $(cat "$LH_TMP/ct.out")"
hl_show_totals wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup
nw=$(hl_total_all wakeup wakeup/sharedprio)
nm=$(hl_total_all missed_timer_offsets)
ct_n=$(awk '/^# Total:/ { n += $3 } /^# Histogram Overflows:/ { n += $4 } END { print n + 0 }' "$LH_TMP/hist")
[ "$ct_n" = $L ] || lh_err "cyclictest counted $ct_n loops, asked for $L"
r=PASS
[ "$nw" = $((L + 1)) ] || { r=FAIL; lh_err "wakeup + sharedprio: $nw samples of tid $tid, expected $L loops + 1"; }
vl_table "cyclictest" "one wakeup per loop" "loops $L, wakeups $nw (L + 1 with the first switch-in)" $r
r=PASS
lh_in_range "$nm" $((L - L / 10)) $L || { r=FAIL; lh_err "missed_timer_offsets: $nm samples, expected $((L - L / 10))..$L"; }
vl_table "cyclictest" "one missed-offset sample per expiry" "loops $L, samples $nm" $r
lh_case_end one_sample_per_cyclictest_loop

lh_case_begin
ct_max=$(awk '/^# Max Latencies:/ { print $4 + 0 }' "$LH_TMP/hist")
# The thread's first switch-in (no loop of cyclictest's) is one of the
# wakeup and timerandwakeup samples: compare the second largest there.
for h in wakeup missed_timer_offsets timerandwakeup; do
	files=
	for c in $LH_CPUS; do
		files="$files $LH_DIR/$h/CPU$c"
		[ "$h" = wakeup ] && files="$files $LH_DIR/wakeup/sharedprio/CPU$c"
	done
	k=2
	[ "$h" = missed_timer_offsets ] && k=1
	m=$(hl_kth_largest $k $files)
	r=PASS
	[ -n "$m" ] && [ "$m" -le "$ct_max" ] || { r=FAIL; lh_err "$h: sample number $k from the top '$m' us > cyclictest's maximum $ct_max us"; }
	vl_table "cyclictest" "$h max <= cyclictest max" "$m <= $ct_max us (sample $k from the top)" $r
done
lh_case_end maxima_are_below_cyclictest

lh_case_begin
set -- $(vc_pcts "$LH_TMP/hist")
c50=$1 c90=$2 c99=$3
set -- $(vc_pcts "$LH_DIR/timerandwakeup/CPU1")
t50=$1 t90=$2 t99=$3
lh_diag "cyclictest p50/p90/p99 $c50/$c90/$c99 us, timerandwakeup $t50/$t90/$t99 us"
r=PASS
[ "$t50" -le "$c50" ] && [ "$t90" -le "$c90" ] && [ "$t99" -le "$c99" ] ||
	{ r=FAIL; lh_err "a timerandwakeup percentile exceeds cyclictest's"; }
[ $((c50 - t50)) -le 500 ] || { r=FAIL; lh_err "timerandwakeup p50 $t50 us is more than 500 us below cyclictest's $c50 us"; }
vl_table "cyclictest" "timerandwakeup percentiles track cyclictest" "p50 $t50/$c50, p90 $t90/$c90, p99 $t99/$c99 us" $r
lh_case_end timerandwakeup_tracks_cyclictest

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
