#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# tree.sh - after load, the debugfs tree is exactly the one of
# Documentation/latency_hist.rst ("Where the files are")
#
# Proves: every file and directory exists with its exact name for every
# possible CPU and nothing else does; every file is root-only (CPUx,
# max_latency-CPUx, explain-CPUx, summary, rows, tasks and cgroups 0400,
# reset 0200, pid, threshold, outlier_us, views and enable 0600, status and
# outliers-CPUx 0400; directories are debugfs's fixed 0755, under the 0700
# debugfs mount); status names the documented types in order, with their
# documented rows (switch, needs, pid, max, counters, syscall_slow_path),
# all disabled and empty after load; on a kernel without the
# preemptirq tracepoints the three critical-section histograms report
# available=0 with a reason and enabling them fails with ENODEV plus one
# dmesg line; on a kernel with them (irq_disable and preempt_disable both
# in tracefs) all three report available=1, or the tests that need them
# (critical_sections.sh, explain_section_max.sh, clock_fallback.sh) would
# skip there; no file shows anything that looks like a kernel address.
#
# requires: none

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

# The documented types (Documentation/latency_hist.rst, "status"): name,
# switch, needs, pid, max, counters, syscall_slow_path. The one place the
# tests spell the vocabulary out: every other test reads it from status,
# and this one proves status (and the tree) are what the documentation says.
DOC_TYPES="irqsoff preemptirqsoff - 0 0 1 0
preemptoff preemptirqsoff - 0 0 1 0
preemptirqsoff preemptirqsoff - 0 0 1 0
wakeup wakeup - 1 1 1 0
wakeup/sharedprio wakeup - 0 1 1 0
missed_timer_offsets missed_timer_offsets - 1 1 1 0
timerandwakeup timerandwakeup wakeup,missed_timer_offsets 0 1 0 0
switchtime switchtime wakeup 0 1 0 1
timerwakeupswitch timerwakeupswitch timerandwakeup,switchtime 0 1 0 0
irq irq - 0 1 0 0
softirq softirq - 0 1 0 0"

D_DIR=drwxr-xr-x
D_RO=-r--------
D_WO=--w-------
D_RW=-rw-------

# expected_tree - print "path lsmode" for every entry the tree must hold
expected_tree()
{
	echo ". $D_DIR"
	echo "./status $D_RO"
	echo "./enable $D_DIR"
	for e in $LH_ENABLES; do
		echo "./enable/$e $D_RW"
	done
	for h in $LH_HISTS; do
		echo "./$h $D_DIR"
		echo "./$h/reset $D_WO"
		echo "./$h/summary $D_RO"
		echo "./$h/rows $D_RO"
		echo "./$h/threshold $D_RW"
		for c in $LH_CPUS; do
			echo "./$h/CPU$c $D_RO"
		done
	done
	for h in $LH_MAXLAT_HISTS; do
		for c in $LH_CPUS; do
			echo "./$h/max_latency-CPU$c $D_RO"
		done
	done
	for h in $LH_PID_DIRS; do
		echo "./$h/pid $D_RW"
	done
	for h in $LH_COUNTER_HISTS; do
		echo "./$h/counters $D_RO"
	done
	# the per-line views (Documentation/latency_hist.rst, "irq/lines")
	echo "./irq/lines $D_RO"
	echo "./softirq/lines $D_RO"
	# the per-task and per-cgroup views of the task types ("Per-task and
	# per-cgroup views")
	for h in $LH_HISTS; do
		case $h in
		wakeup | wakeup/sharedprio | missed_timer_offsets | timerandwakeup | switchtime | timerwakeupswitch)
			echo "./$h/views $D_RW"
			echo "./$h/tasks $D_RO"
			echo "./$h/cgroups $D_RO" ;;
		esac
	done
	echo "./counters $D_DIR"
	echo "./counters/enable $D_RW"
	echo "./counters/events $D_RW"
	echo "./counters/status $D_RO"
	for h in $(awk '/ explain=1( |$)/ { print $1 }' "$LH_DIR/status"); do
		for c in $LH_CPUS; do
			echo "./$h/explain-CPU$c $D_RO"
		done
	done
	for h in $(awk '/ outliers=1( |$)/ { print $1 }' "$LH_DIR/status"); do
		echo "./$h/outlier_us $D_RW"
		for c in $LH_CPUS; do
			echo "./$h/outliers-CPU$c $D_RO"
		done
	done
	echo "./explain $D_DIR"
	echo "./explain/enable $D_RW"
	echo "./explain/status $D_RO"
}

lh_setup
lh_plan 8
lh_load_or_bail

# The types status names are the documented ones, with the documented rows.
lh_case_begin
printf '%s\n' "$DOC_TYPES" >"$LH_TMP/doc_types"
awk '{	s = "?"
	for (i = 2; i <= NF && $i !~ /^reason=/; i++)
		if ($i ~ /^syscall_slow_path=/) s = substr($i, 19)
	print s
}' "$LH_DIR/status" >"$LH_TMP/slow"
lh_status_rows | awk 'NR == FNR { s[FNR] = $0; next } { print $0, s[FNR] }' \
	"$LH_TMP/slow" - >"$LH_TMP/status_types"
if ! cmp -s "$LH_TMP/doc_types" "$LH_TMP/status_types"; then
	lh_err "status rows differ from the documented types:"
	diff "$LH_TMP/doc_types" "$LH_TMP/status_types" | sed 's/^/# /'
fi
lh_diag "switches in switch-on order: $LH_ENABLES"
lh_case_end status_names_the_documented_types_and_their_rows

expected_tree | sort >"$LH_TMP/expected"
(cd "$LH_DIR" && find . | sort) >"$LH_TMP/actual"

lh_case_begin
awk 'NR == FNR { want[$1] = 1; next }
     { have[$1] = 1 }
     END {
	for (p in want) if (!(p in have)) print "missing " p
	for (p in have) if (!(p in want)) print "extra " p
     }' "$LH_TMP/expected" "$LH_TMP/actual" | sort >"$LH_TMP/diff"
while IFS= read -r line; do
	lh_err "$line"
done <"$LH_TMP/diff"
lh_diag "possible CPUs: $LH_CPUS"
lh_case_end tree_has_exact_names_for_every_possible_cpu

lh_case_begin
# shellcheck disable=SC2046 # paths hold no spaces
(cd "$LH_DIR" && ls -ld $(awk '{ print $1 }' "$LH_TMP/expected")) \
	>"$LH_TMP/ls" 2>"$LH_TMP/ls.err"
while IFS= read -r line; do
	lh_err "ls: $line"
done <"$LH_TMP/ls.err"
awk 'NR == FNR { want[$1] = $2; next }
     { mode = substr($1, 1, 10)
       if ($NF in want && mode != want[$NF])
		print $NF ": mode " mode ", expected " want[$NF] }' \
	"$LH_TMP/expected" "$LH_TMP/ls" >"$LH_TMP/diff"
while IFS= read -r line; do
	lh_err "$line"
done <"$LH_TMP/diff"
if [ "$(awk '{ print $3 }' "$LH_TMP/ls" | sort -u)" != root ]; then
	lh_err "not every entry is owned by root"
fi
lh_case_end modes_are_root_only

# status: one line per type, fixed order, fixed fields, all off and empty after load
lh_case_begin
cat "$LH_DIR/status" >"$LH_TMP/status" || lh_err "cannot read status"
sed 's/^/# status: /' "$LH_TMP/status"
if [ "$(tail -c 1 "$LH_TMP/status" | od -An -c | tr -d ' ')" != '\n' ]; then
	lh_err "status does not end with a newline"
fi
awk -v names="$LH_HISTS" '
	BEGIN { n = split(names, want, " ") }
	{
		if (NR > n) { print "extra line " NR ": " $0; next }
		if ($1 != want[NR]) print "line " NR ": name " $1 ", expected " want[NR]
		if ($2 !~ /^available=[01]$/) print $1 ": bad available field: " $2
		if ($3 != "enabled=0") print $1 ": expected enabled=0 after load: " $3
		if ($4 != "bytes=0") print $1 ": expected bytes=0 after load: " $4
		if ($5 !~ /^switch=[a-z_]+$/ || $6 !~ /^needs=(-|[a-z_]+(,[a-z_]+)*)$/ ||
		    $7 !~ /^pid=[01]$/ || $8 !~ /^max=[01]$/ || $9 !~ /^counters=[01]$/ ||
		    $10 !~ /^syscall_slow_path=[01]$/ || $11 !~ /^explain=[01]$/ ||
		    $12 !~ /^outliers=[01]$/)
			print $1 ": fields 5-12 are not switch= needs= pid= max= counters= syscall_slow_path= explain= outliers=: " $0
		if ($13 !~ /^clock=(timer_base|(timer_base\+)?(tsc|arch_counter|mono_fast|local_clock))$/ ||
		    $14 !~ /^clock_why=[a-z_+]+$/ || $15 !~ /^clock_drops=[0-9]+$/)
			print $1 ": fields 13-15 are not clock= clock_why= clock_drops=: " $0
		if ($16 != "untraced=0")
			print $1 ": expected untraced=0 after load: " $16
		if ($2 == "available=1" && NF != 16)
			print $1 ": available=1 line must have exactly 16 fields"
		if ($2 == "available=0" && $17 !~ /^reason=./)
			print $1 ": available=0 without a reason"
	}
	END { if (NR != n) print "status has " NR " lines, expected " n }
' "$LH_TMP/status" >"$LH_TMP/diff"
while IFS= read -r line; do
	lh_err "$line"
done <"$LH_TMP/diff"
for h in wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup switchtime timerwakeupswitch; do
	lh_available "$h" || lh_err "$h must be available on every kernel"
done
lh_case_end status_has_one_line_per_type_in_order

# preemptirq availability follows the kernel
tp=$(lh_preemptirq_tracepoints)
lh_diag "preemptirq tracepoints: $tp"
lh_case_begin
case $tp in
absent)
	for h in irqsoff preemptoff preemptirqsoff; do
		lh_available "$h" && lh_err "$h: available=1 without preemptirq tracepoints"
	done
	lh_case_end preemptirq_availability_follows_the_tracepoints
	;;
present)
	ev=$(lh_tracefs 2>/dev/null)/events/preemptirq
	if [ -d "$ev/irq_disable" ] && [ -d "$ev/preempt_disable" ]; then
		for h in irqsoff preemptoff preemptirqsoff; do
			lh_diag "$(lh_status_line "$h")"
			lh_available "$h" ||
				lh_err "$h: not available, with the preemptirq tracepoints here: $(lh_status_line "$h")"
		done
		lh_case_end preemptirq_availability_follows_the_tracepoints
	else
		lh_skip preemptirq_availability_follows_the_tracepoints \
			"only some preemptirq tracepoints here: $(cd "$ev" 2>/dev/null && echo *)"
	fi
	;;
*)
	lh_skip preemptirq_availability_follows_the_tracepoints \
		"cannot tell whether the kernel has preemptirq tracepoints"
	;;
esac

lh_case_begin
if lh_available irqsoff || lh_available preemptoff || lh_available preemptirqsoff; then
	lh_skip enable_unavailable_preemptirqsoff_fails_enodev \
		"a preemptirq histogram is available here"
else
	lh_mark "enable preemptirqsoff"
	mark=$LH_MARK
	lh_expect_write_errno "$LH_DIR/enable/preemptirqsoff" 1 ENODEV
	lh_expect_content "$LH_DIR/enable/preemptirqsoff" 0
	for h in irqsoff preemptoff preemptirqsoff; do
		[ "$(lh_status_field "$h" enabled)" = 0 ] ||
			lh_err "$h: enabled after a failed enable"
		[ "$(lh_status_field "$h" bytes)" = 0 ] ||
			lh_err "$h: memory allocated by a failed enable"
	done
	lh_dmesg_since "$mark" >"$LH_TMP/dmesg"
	n=$(grep -c 'latency_hist: cannot enable preemptirqsoff: .' "$LH_TMP/dmesg")
	if [ "$n" -ne 1 ]; then
		lh_err "expected one 'latency_hist: cannot enable preemptirqsoff: <reason>' line in dmesg, found $n"
		sed 's/^/# dmesg: /' "$LH_TMP/dmesg"
	fi
	lh_case_end enable_unavailable_preemptirqsoff_fails_enodev
fi

# No kernel pointers anywhere, also after samples and max records exist.
lh_case_begin
lh_enable_available
lh_activity
lh_disable_all
find "$LH_DIR" -type f >"$LH_TMP/files"
ls "$LH_SYSMOD"/parameters/* >>"$LH_TMP/files" 2>/dev/null
# shellcheck disable=SC2046 # paths hold no spaces
grep -iHE '0xffff|(^|[^0-9a-f])ffff[0-9a-f]{12}([^0-9a-f]|$)' \
	$(grep -v '/reset$' "$LH_TMP/files") >"$LH_TMP/leaks" 2>/dev/null
while IFS= read -r line; do
	lh_err "looks like a kernel address: $line"
done <"$LH_TMP/leaks"
lh_diag "samples recorded during the scan: $(hl_samples_sum)"
lh_case_end no_file_shows_a_kernel_address

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
