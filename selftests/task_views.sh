#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086,SC2317,SC3043 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists; cleanup hook; local: dash, busybox ash, bash
#
# task_views.sh - wakeup/tasks, wakeup/cgroups and their sharedprio twins
# count every sample of the histograms once, in the line of its task and of
# its cgroup v2 (Documentation/latency_hist.rst, "Per-task and per-cgroup
# views")
#
# Two SCHED_FIFO sleepers, A on CPU 0 in cgroup lh_tv_a and B on CPU 1 in
# lh_tv_b, each L wakeups:
#  - each one's task line holds its L wakeups (wakeup plus sharedprio),
#    its cgroup's line as many, named by the path from the cgroup2 root;
#  - a sleeper that exits and a new one given its thread id (through
#    /proc/sys/kernel/ns_last_pid) are two lines with L samples each;
#  - with task_view_tasks=1 the table's one line still holds exactly what
#    its task's cgroup line holds, and "#other" the rest;
#  - in that table of 1, with only A followed (pid filter), then only B
#    after A exited: B takes A's entry, and A's samples go to "#other";
#  - resets while the sleepers run, with the views of all six types on,
#    leave lines plus "#other" equal to the histograms' totals in both
#    views of each type.
# Every count is read with the switches off, so nothing files between the
# reads.
#
# requires: rt_sleeper cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=60		# loops of each sleeper
PERIOD=5000	# us
PRIO_A=97
PRIO_B=98	# above every kernel thread but the FIFO 99 ones
HISTS="wakeup wakeup/sharedprio"
# every type with views, for the resets under load
ALL_HISTS="$HISTS missed_timer_offsets timerandwakeup switchtime timerwakeupswitch"

sl_setup
lh_plan 8
lh_load_or_bail

CG=$LH_TMP/cgroup2
PID_A='' PID_B='' KEEPERS=''

# tv_cleanup - stop the sleepers and the keepers, remove our cgroups and
# the mount
tv_cleanup()
{
	local p
	for p in $PID_A $PID_B $KEEPERS; do
		kill -TERM "$p" 2>/dev/null
		kill -USR1 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	PID_A='' PID_B=''
	rmdir "$CG/lh_tv_a" "$CG/lh_tv_b" 2>/dev/null
	umount "$CG" 2>/dev/null
}
LH_CLEANUP_HOOKS="tv_cleanup $LH_CLEANUP_HOOKS"

mkdir -p "$CG"
mount -t cgroup2 none "$CG" 2>/dev/null ||
	lh_bail "cannot mount cgroup2 on $CG"
mkdir "$CG/lh_tv_a" "$CG/lh_tv_b" || lh_bail "cannot make cgroups under $CG"
ID_A=$(stat -c %i "$CG/lh_tv_a")
ID_B=$(stat -c %i "$CG/lh_tv_b")
# A task that sleeps in each cgroup until the end, so each keeps a task:
# kernels without cgroup_get_from_id() (before 5.15) name a cgroup's line
# through a task in it, and print ? for a cgroup left empty
# (Documentation/latency_hist.rst, "Per-task and per-cgroup views"). It
# never wakes, so it files nothing.
for c in lh_tv_a lh_tv_b; do
	# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
	sh -c 'echo $$ >"$1" && exec sleep 100000' sh "$CG/$c/cgroup.procs" &
	KEEPERS="$KEEPERS $!"
done

# tv_start OUT CGROUP CPU PRIO - start an rt_sleeper in the background,
# in CGROUP from its first instruction (a shell that moves itself there,
# then becomes the sleeper: no wakeup of it is filed under another cgroup,
# and nothing spins meanwhile); TV_PID gets its process id
tv_start()
{
	# shellcheck disable=SC2016 # $$ and $1 are the inner shell's
	sh -c 'echo $$ >"$1" && shift && exec "$@"' sh "$CG/$2/cgroup.procs" \
		"$LH_BINDIR/rt_sleeper" -s -c "$3" -p "$4" -i $PERIOD -l $L \
		>"$1" 2>"$1.err" &
	TV_PID=$!
}

# tv_wait PID OUT - wait for the sleeper PID that writes OUT; lh_err if it
# failed; TV_TID gets its thread id
tv_wait()
{
	wait "$1" || lh_err "rt_sleeper $1 exited $?: $(cat "$2.err")"
	TV_TID=$(awk '/^tid / { print $2; exit }' "$2")
}

# tv_samples HIST VIEW KEY [NTH] - the samples of the NTH (default 1st)
# line of KEY in HIST/VIEW, 0 if none
tv_samples()
{
	awk -v k="$3" -v nth="${4:-1}" '!/^#/ && $1 == k && ++n == nth { s = $3 }
		END { print s + 0 }' "$LH_DIR/$1/$2"
}

# tv_lines HIST VIEW KEY - how many lines KEY has in HIST/VIEW
tv_lines()
{
	awk -v k="$3" '!/^#/ && $1 == k { n++ } END { print n + 0 }' \
		"$LH_DIR/$1/$2"
}

# tv_sum HIST VIEW - the samples of all lines of HIST/VIEW plus its #other
tv_sum()
{
	awk '!/^#/ { s += $3 } /^#other / { s += $2 } END { print s + 0 }' \
		"$LH_DIR/$1/$2"
}

# tv_total HIST - the samples of every CPUx file of HIST
tv_total()
{
	local c t=0
	for c in $LH_CPUS; do
		t=$((t + $(hl_total "$1" "$c")))
	done
	echo $t
}

# tv_check_sums - lh_err unless lines plus #other equal each histogram's
# total, in both views; the switch is off
tv_check_sums()
{
	local h v total sum
	for h in $HISTS; do
		total=$(tv_total "$h")
		for v in tasks cgroups; do
			sum=$(tv_sum "$h" "$v")
			[ "$sum" = "$total" ] ||
				lh_err "$h/$v: lines plus #other are $sum, $h/CPUx hold $total"
		done
	done
}

# tv_views_on - switch the views of the types in HISTS on
tv_views_on()
{
	local h
	for h in $HISTS; do
		lh_expect_write_ok "$LH_DIR/$h/views" 1
	done
}

# tv_views_off - switch the views of the types in HISTS off
tv_views_off()
{
	local h
	for h in $HISTS; do
		lh_expect_write_ok "$LH_DIR/$h/views" 0
	done
}

# tv_show FILE - FILE (under the tree) as diagnostics
tv_show()
{
	local l
	while IFS= read -r l; do
		lh_diag "$1: $l"
	done <"$LH_DIR/$1"
}

# tv_run_pair - run sleeper A (cgroup lh_tv_a, CPU 0) and B (lh_tv_b, CPU 1)
# to their end: TID_A, TID_B their thread ids
tv_run_pair()
{
	tv_start "$LH_TMP/a" lh_tv_a 0 $PRIO_A
	PID_A=$TV_PID
	tv_start "$LH_TMP/b" lh_tv_b 1 $PRIO_B
	PID_B=$TV_PID
	tv_wait "$PID_A" "$LH_TMP/a"
	TID_A=$TV_TID
	tv_wait "$PID_B" "$LH_TMP/b"
	TID_B=$TV_TID
	PID_A='' PID_B=''
}

# tv_both TID - samples of TID's task line in wakeup plus sharedprio
tv_both()
{
	echo $(($(tv_samples wakeup tasks "$1") +
		$(tv_samples wakeup/sharedprio tasks "$1")))
}

# tv_most N WOKE - true if N samples are at most, and most of, WOKE wakeups:
# a wakeup beside a higher priority's on its CPU (migration/N's at 99) is
# not a sample, since the type tracks the highest wakee; none is invented
tv_most()
{
	[ "$1" -le "$2" ] && [ "$1" -ge $(($2 - $2 / 10)) ]
}

# tv_check_own TID ID PATH - lh_err unless the lines of task TID and of
# cgroup ID (named PATH, the task alone in it) hold its L wakeups
tv_check_own()
{
	local n c name
	n=$(tv_both "$1")
	tv_most "$n" $L ||
		lh_err "tid $1: $n samples in wakeup/tasks and wakeup/sharedprio/tasks, it woke $L times"
	c=$(($(tv_samples wakeup cgroups "$2") +
		$(tv_samples wakeup/sharedprio cgroups "$2")))
	[ "$c" = "$n" ] ||
		lh_err "cgroup $3 (id $2): $c samples, its only task $n"
	name=$(awk -v k="$2" '$1 == k { print $2; exit }' "$LH_DIR/wakeup/cgroups")
	[ "$name" = "$3" ] ||
		lh_err "cgroup id $2 is named '$name' in wakeup/cgroups, not $3"
}

# tv_check_line HIST TID ID - lh_err unless task TID's line in HIST/tasks,
# if it has one, holds what the line of its cgroup ID holds
tv_check_line()
{
	local t c
	t=$(tv_samples "$1" tasks "$2")
	[ "$t" = 0 ] && return
	c=$(tv_samples "$1" cgroups "$3")
	[ "$t" = "$c" ] ||
		lh_err "$1/tasks: tid $2's line holds $t samples, its cgroup's $c"
}

lh_case_begin
lh_expect_content "$LH_DIR/wakeup/views" "0"
lh_expect_write_errno "$LH_DIR/wakeup/views" maybe EINVAL
lh_expect_content "$LH_DIR/wakeup/views" "0"
head -1 "$LH_DIR/wakeup/tasks" | grep -qx '#tasks off' ||
	lh_err "wakeup/tasks while off: '$(head -1 "$LH_DIR/wakeup/tasks")'"
lh_case_end views_are_off_by_default_and_refuse_a_non_boolean

lh_case_begin
lh_enable wakeup
tv_views_on
tv_run_pair
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
tv_show wakeup/tasks
tv_show wakeup/cgroups
tv_check_own "$TID_A" "$ID_A" /lh_tv_a
tv_check_own "$TID_B" "$ID_B" /lh_tv_b
tv_check_sums
lh_case_end each_task_and_cgroup_line_counts_its_own_wakeups

lh_case_begin
# A's thread id again, for a new task: its main thread takes TID_A - 1
lh_enable wakeup
n=0
while :; do
	echo $((TID_A - 2)) >/proc/sys/kernel/ns_last_pid 2>/dev/null ||
		lh_bail "cannot write /proc/sys/kernel/ns_last_pid"
	tv_start "$LH_TMP/a2" lh_tv_a 0 $PRIO_A
	PID_A=$TV_PID
	tv_wait "$PID_A" "$LH_TMP/a2"
	PID_A=''
	[ "$TV_TID" = "$TID_A" ] && break
	n=$((n + 1))
	[ $n -lt 3 ] || lh_bail "no new task got thread id $TID_A in 3 tries"
	lh_diag "the new sleeper got tid $TV_TID, not $TID_A: again"
done
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
tv_show wakeup/tasks
lines=$(($(tv_lines wakeup tasks "$TID_A") +
	$(tv_lines wakeup/sharedprio tasks "$TID_A")))
[ "$lines" -ge 2 ] ||
	lh_err "tid $TID_A, two tasks one after the other: $lines line(s)"
all=$(awk -v k="$TID_A" '!/^#/ && $1 == k { s += $3 } END { print s + 0 }' \
	"$LH_DIR/wakeup/tasks" "$LH_DIR/wakeup/sharedprio/tasks")
tv_most "$all" $((2 * L)) ||
	lh_err "tid $TID_A: $all samples in its lines, its two tasks woke $L times each"
over=$(awk -v k="$TID_A" -v l=$L '!/^#/ && $1 == k && $3 > l { print $3 }' \
	"$LH_DIR/wakeup/tasks" "$LH_DIR/wakeup/sharedprio/tasks")
[ -z "$over" ] ||
	lh_err "tid $TID_A: a line holds $over samples, more than one task's $L wakeups"
tv_check_sums
lh_case_end a_new_task_with_an_exited_tasks_tid_gets_its_own_line

lh_case_begin
tv_views_off
echo 1 >"$LH_SYSMOD/parameters/task_view_tasks" ||
	lh_err "cannot set task_view_tasks=1"
lh_expect_write_errno "$LH_SYSMOD/parameters/task_view_tasks" 0 EINVAL
tv_views_on
echo 256 >"$LH_SYSMOD/parameters/task_view_tasks"
head -1 "$LH_DIR/wakeup/tasks" | grep -qx '#tasks 1' ||
	lh_err "wakeup/tasks with task_view_tasks=1: '$(head -1 "$LH_DIR/wakeup/tasks")'"
lh_enable wakeup
tv_run_pair
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
tv_show wakeup/tasks
for h in $HISTS; do
	n=$(awk '!/^#/ { n++ } END { print n + 0 }' "$LH_DIR/$h/tasks")
	[ "$n" -le 1 ] || lh_err "$h/tasks: $n lines in a table of 1"
	[ "$h" = wakeup ] &&
		other=$(awk '/^#other / { print $2 }' "$LH_DIR/$h/tasks")
	tv_check_line "$h" "$TID_A" "$ID_A"
	tv_check_line "$h" "$TID_B" "$ID_B"
done
[ "$(tv_both "$TID_A")" = 0 ] || [ "$(tv_both "$TID_B")" = 0 ] ||
	lh_err "both sleepers have a line in a table of 1"
[ "${other:-0}" -gt 0 ] ||
	lh_err "wakeup/tasks: #other is '$other' with two sleepers and one entry"
tv_check_sums
lh_case_end a_full_table_counts_other_and_files_no_sample_into_a_wrong_line

lh_case_begin
# Only the followed thread is measured: the one entry is A's, then B's.
sl_start "$LH_TMP/sa" -c 1 -p $PRIO_A -i $PERIOD -l $L ||
	lh_bail "rt_sleeper did not start"
TID_A=$SL_TID
lh_filter wakeup "$TID_A"
tv_views_off
echo 1 >"$LH_SYSMOD/parameters/task_view_tasks"
tv_views_on
echo 256 >"$LH_SYSMOD/parameters/task_view_tasks"
lh_enable wakeup
sl_go
sl_wait
a_n=$(tv_samples wakeup tasks "$TID_A")
[ "$a_n" -gt 0 ] || lh_err "the followed sleeper A (tid $TID_A) has no line"
lh_sleep_s 1	# A is reaped; its task_struct goes after a grace period
sl_start "$LH_TMP/sb" -c 1 -p $PRIO_A -i $PERIOD -l $L ||
	lh_bail "rt_sleeper did not start"
TID_B=$SL_TID
lh_filter wakeup "$TID_B"
sl_go
sl_wait
lh_disable_all
lh_filter wakeup 0
tv_show wakeup/tasks
lines=$(awk '!/^#/ { n++ } END { print n + 0 }' "$LH_DIR/wakeup/tasks")
key=$(awk '!/^#/ { print $1; exit }' "$LH_DIR/wakeup/tasks")
other=$(awk '/^#other / { print $2 }' "$LH_DIR/wakeup/tasks")
[ "$lines" = 1 ] && [ "$key" = "$TID_B" ] ||
	lh_err "after A (tid $TID_A) exited, B (tid $TID_B) did not take its entry: $lines line(s), the first of tid '$key'"
[ "$other" = "$a_n" ] ||
	lh_err "#other is $other, A's line held $a_n samples"
tv_check_sums
lh_case_end an_exited_tasks_entry_goes_to_a_new_task_and_its_samples_to_other

lh_case_begin
tv_views_off
HISTS=$ALL_HISTS
tv_views_on
lh_enable wakeup missed_timer_offsets timerandwakeup switchtime timerwakeupswitch
L=300
tv_start "$LH_TMP/a" lh_tv_a 0 $PRIO_A
PID_A=$TV_PID
tv_start "$LH_TMP/b" lh_tv_b 1 $PRIO_B
PID_B=$TV_PID
resets=0
while kill -0 "$PID_A" 2>/dev/null && [ $resets -lt 20 ]; do
	lh_reset $ALL_HISTS
	resets=$((resets + 1))
	lh_sleep_s 0.05
done
tv_wait "$PID_A" "$LH_TMP/a"
tv_wait "$PID_B" "$LH_TMP/b"
PID_A='' PID_B=''
lh_disable_all
lh_diag "$resets resets under load; wakeup holds $(tv_total wakeup) samples, missed_timer_offsets $(tv_total missed_timer_offsets), switchtime $(tv_total switchtime)"
[ $resets -ge 2 ] || lh_err "only $resets resets while the sleepers ran"
tv_check_sums
lh_case_end resets_under_load_keep_views_equal_to_histograms

tv_views_off
hl_finish_checked 0
