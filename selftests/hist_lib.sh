# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC3043 # MR_* are read by the tests; local: dash, busybox ash, bash
#
# hist_lib.sh - every reader of the histograms' files: CPUx (totals, header
# fields, rows), max_latency-CPUx (parsed into MR_*), and the invariants that
# tie them together. File formats: Documentation/latency_hist.rst, "File
# formats".
#
# Sourced after lib.sh by the tests that read histograms. POSIX sh, same
# rules as lib.sh. HIST is a histogram's directory under $LH_DIR (wakeup,
# wakeup/sharedprio, missed_timer_offsets, ...), CPU a CPU number.
#
# scripts/lh reads the same files with its own awk: it is installed alone on
# rigs, so it cannot source this file.

# hl_file_total FILE - print the "#Total samples:" count of a CPUx file
hl_file_total()
{
	local line
	{
		read -r line; read -r line; read -r line; read -r line
	} <"$1" 2>/dev/null
	printf '%s\n' "${line#\#Total samples: }"
}

# hl_total HIST CPU - print the "#Total samples:" count of HIST/CPUx
hl_total()
{
	hl_file_total "$LH_DIR/$1/CPU$2"
}

# hl_total_all HIST... - print "#Total samples:" summed over every CPU of
# each HIST
hl_total_all()
{
	local sum=0 h c
	for h in "$@"; do
		for c in $LH_CPUS; do
			sum=$((sum + $(hl_total "$h" "$c")))
		done
	done
	echo "$sum"
}

# hl_field HIST CPU WHICH - print the Minimum, Average or Maximum latency of
# HIST/CPUx ("<undef>" if empty)
hl_field()
{
	awk -v w="#$3" '$1 == w { print $3; exit }' "$LH_DIR/$1/CPU$2"
}

# hl_max HIST CPU - print the "#Maximum latency:" of HIST/CPUx ("<undef>" if
# empty)
hl_max()
{
	hl_field "$1" "$2" Maximum
}

# hl_over HIST CPU - print the "greater or equal than 10240" count of
# HIST/CPUx
hl_over()
{
	awk '/^#There are .* greater or equal than / { print $3; exit }' "$LH_DIR/$1/CPU$2"
}

# hl_kth_largest K FILE... - print the Kth largest sample (us) of the CPUx
# FILEs merged, from their rows and "greater or equal" counts (10240 for
# those); empty if they hold fewer than K
hl_kth_largest()
{
	local k
	k=$1
	shift
	awk -v k="$k" '
		/^#There are .* greater or equal than / { c[10240] += $3 }
		NF == 2 && $1 ~ /^ *[0-9]+$/ && $2 > 0 { c[$1 + 0] += $2 }
		END {
			for (v = 10240; v >= 0; v--) {
				seen += c[v]
				if (seen >= k) { print v; exit }
			}
		}' "$@"
}

# hl_samples FILE... - print every sample of the CPUx FILEs, one a line,
# sorted ("greater or equal than 10240" ones as 10240)
hl_samples()
{
	awk 'NF == 2 && $1 ~ /^ *[0-9]+$/ { for (i = 0; i < $2; i++) print $1 + 0 }
	     /^#There are .* greater or equal than / { for (i = 0; i < $3; i++) print 10240 }' \
		"$@" | sort -n
}

# hl_between HIST CPU LO HI - print how many samples of HIST/CPUx are in
# [LO, HI] us (the "greater or equal than 10240" ones count when HI >= 10240)
hl_between()
{
	awk -v lo="$3" -v hi="$4" '
		/^#There are .* greater or equal than / { if (hi >= 10240) over = $3 }
		/^[ 0-9]/ && $1 + 0 >= lo && $1 + 0 <= hi { sum += $2 }
		END { print sum + over }' "$LH_DIR/$1/CPU$2"
}

# hl_at_least HIST CPU N - print how many samples of HIST/CPUx are >= N us
hl_at_least()
{
	hl_between "$1" "$2" "$3" 10240
}

# hl_snapshot HIST - print the CPUx and max_latency-CPUx files of HIST, every
# CPU, concatenated (to compare a histogram before and after)
hl_snapshot()
{
	local c
	for c in $LH_CPUS; do
		cat "$LH_DIR/$1/CPU$c"
		[ ! -e "$LH_DIR/$1/max_latency-CPU$c" ] ||
			cat "$LH_DIR/$1/max_latency-CPU$c"
	done
}

# hl_cpu_files - print every CPUx file of every histogram, one a line
hl_cpu_files()
{
	local h c
	for h in $LH_HISTS; do
		for c in $LH_CPUS; do
			echo "$LH_DIR/$h/CPU$c"
		done
	done
}

# hl_maxlat_files - print every max_latency-CPUx file, one a line
hl_maxlat_files()
{
	local h c
	for h in $LH_MAXLAT_HISTS; do
		for c in $LH_CPUS; do
			echo "$LH_DIR/$h/max_latency-CPU$c"
		done
	done
}

# hl_samples_sum - print the sum of "#Total samples:" over all CPUx files
hl_samples_sum()
{
	# shellcheck disable=SC2046 # one word per file name, no spaces
	awk '/^#Total samples: / { s += $3 } END { print s + 0 }' $(hl_cpu_files)
}

# hl_empty_cpux - print an empty CPUx histogram, byte for byte
hl_empty_cpux()
{
	awk -v n="$LH_BUCKETS" 'BEGIN {
		print "#Minimum latency: <undef> microseconds"
		print "#Average latency: <undef> microseconds"
		print "#Maximum latency: <undef> microseconds"
		print "#Total samples: 0"
		print "#There are 0 samples lower than 0 microseconds."
		printf "#There are 0 samples greater or equal than %d microseconds.\n", n
		printf "#usecs\t%16s\n", "samples"
		for (i = 0; i < n; i++)
			printf "%6d\t%16d\n", i, 0
	}'
}

# hl_maxrec HIST CPU - parse HIST/max_latency-CPUx into MR_* variables:
#   MR_LINE (raw), MR_NONE (1 for "(none)"), MR_VPID MR_VPRIO MR_LAT MR_TOFF
#   MR_VCOMM (victim), MR_CPID MR_CPRIO MR_CCOMM (culprit), MR_TS.
# Comms may hold spaces: the victim comm is everything between "(offset) "
# and " <- ", the culprit comm everything between its prio and the
# timestamp. Returns 1 if the line does not have that shape.
hl_maxrec()
{
	local v cu x
	MR_LINE=
	MR_NONE=
	MR_VPID='' MR_VPRIO='' MR_LAT='' MR_TOFF='' MR_VCOMM=''
	MR_CPID='' MR_CPRIO='' MR_CCOMM='' MR_TS=''
	IFS= read -r MR_LINE <"$LH_DIR/$1/max_latency-CPU$2" 2>/dev/null
	if [ "$MR_LINE" = "(none)" ]; then
		MR_NONE=1
		return 0
	fi
	case $MR_LINE in
	*" <- "*) ;;
	*) return 1 ;;
	esac
	v=${MR_LINE%% <- *}
	cu=${MR_LINE#* <- }
	# victim: pid prio lat (toff) comm
	MR_VPID=${v%% *}; v=${v#* }
	MR_VPRIO=${v%% *}; v=${v#* }
	MR_LAT=${v%% *}; v=${v#* }
	MR_TOFF=${v%% *}; MR_VCOMM=${v#* }
	MR_TOFF=${MR_TOFF#(}; MR_TOFF=${MR_TOFF%)}
	# culprit: pid prio comm ts
	MR_CPID=${cu%% *}; cu=${cu#* }
	MR_CPRIO=${cu%% *}; cu=${cu#* }
	MR_TS=${cu##* }; MR_CCOMM=${cu% *}
	for x in "$MR_VPID" "$MR_LAT" "$MR_TOFF" "$MR_CPID"; do
		case $x in
		"" | *[!0-9-]*) return 1 ;;
		esac
	done
	return 0
}

# hl_show_maxrecs HIST - diagnostics: HIST's max record on every CPU
hl_show_maxrecs()
{
	local c
	for c in $LH_CPUS; do
		lh_diag "$1/max_latency-CPU$c: $(cat "$LH_DIR/$1/max_latency-CPU$c" 2>/dev/null)"
	done
}

# hl_show_totals HIST... - diagnostics: total and max per CPU of each HIST
hl_show_totals()
{
	local h c
	for h in "$@"; do
		for c in $LH_CPUS; do
			lh_diag "$h/CPU$c: total $(hl_total "$h" "$c") max $(hl_max "$h" "$c")"
		done
	done
}

# hl_offline_sections NAME - the case NAME: with the critical-section types
# on, CPU 1 goes offline for 2 s and comes back; none of its sections may be
# a second or more (the time offline, or a clock that jumps when the CPU
# comes back). Skipped where CPU 1 cannot go offline.
hl_offline_sections()
{
	local online h m
	lh_case_begin
	online=/sys/devices/system/cpu/cpu1/online
	if ! lh_req_met cpu1-hotplug; then
		lh_skip "$1" "$LH_REQ_WHY"
		return
	fi
	for h in irqsoff preemptoff preemptirqsoff; do
		lh_write "$LH_DIR/$h/reset" 1 || lh_err "cannot reset $h"
	done
	lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 1
	echo 0 >"$online" || lh_err "cannot take CPU 1 offline"
	lh_sleep_s 2
	echo 1 >"$online" || lh_err "cannot bring CPU 1 back online"
	lh_activity
	lh_expect_write_ok "$LH_DIR/enable/preemptirqsoff" 0
	for h in irqsoff preemptoff preemptirqsoff; do
		m=$(hl_max $h 1)
		lh_diag "after 2 s offline: $h/CPU1 total $(hl_total $h 1) max $m over $(hl_over $h 1)"
		[ "$m" = "<undef>" ] || [ "$m" -lt 1000000 ] ||
			lh_err "$h/CPU1: a section of $m us after 2 s offline"
	done
	lh_case_end "$1"
}

# hl_check_invariants SAME_INTERVAL - what every wakeup and timer test must
# leave true (Documentation/latency_hist.rst, "What a sample means"); call
# inside a case, it reports through lh_err. It turns every switch off, then:
#  - no wakeup/ (exclusive) max record names a culprit that outranks its
#    victim: a real-time culprit (printed prio >= 0, which is 99 - the
#    kernel prio) with a higher printed prio than the victim's;
#  - on every CPU, each max_latency-CPUx value equals the "#Maximum
#    latency" of that type's CPUx ("(none)" goes with "<undef>");
#  - with SAME_INTERVAL = 1 (the test enabled wakeup and timerandwakeup for
#    the same interval and filtered one thread), wakeup/CPUx and
#    timerandwakeup/CPUx hold the same number of samples.
# The rows-and-totals identity of every CPUx file is checked by lh_readcheck
# in stress_races.sh and by the format tests.
hl_check_invariants()
{
	local c h m
	lh_disable_all
	for c in $LH_CPUS; do
		if hl_maxrec wakeup "$c" && [ -z "$MR_NONE" ] &&
			[ "$MR_CPRIO" -ge 0 ] && [ "$MR_CPRIO" -gt "$MR_VPRIO" ]; then
			lh_err "wakeup/max_latency-CPU$c: culprit $MR_CPID ($MR_CCOMM, prio $MR_CPRIO) outranks victim $MR_VPID ($MR_VCOMM, prio $MR_VPRIO): '$MR_LINE'"
		fi
		for h in $LH_MAXLAT_HISTS; do
			[ -r "$LH_DIR/$h/max_latency-CPU$c" ] || continue
			m=$(hl_max "$h" "$c")
			if ! hl_maxrec "$h" "$c"; then
				lh_err "$h/max_latency-CPU$c does not parse: '$MR_LINE'"
			elif [ -n "$MR_NONE" ]; then
				[ "$m" = "<undef>" ] ||
					lh_err "$h/max_latency-CPU$c is (none), CPU$c's maximum is $m"
			elif [ "$MR_LAT" != "$m" ]; then
				lh_err "$h/max_latency-CPU$c holds $MR_LAT us, CPU$c's maximum is $m"
			fi
		done
		if [ "$1" = 1 ] && [ "$(hl_total wakeup "$c")" != "$(hl_total timerandwakeup "$c")" ]; then
			lh_err "CPU$c: wakeup/ holds $(hl_total wakeup "$c") samples, timerandwakeup/ $(hl_total timerandwakeup "$c"), enabled over the same interval"
		fi
	done
}

# hl_finish_checked SAME_INTERVAL - the last cases of a wakeup or timer test:
# the invariants (hl_check_invariants SAME_INTERVAL), the unload and a clean
# dmesg; then the KTAP totals
hl_finish_checked()
{
	lh_case_begin
	hl_check_invariants "$1"
	lh_case_end invariants_hold
	lh_unload_or_bail
	lh_case_dmesg_clean
	lh_finished
}

# hl_line TYPE KEY - LN_* get the fields of KEY's line of TYPE/lines (the
# per-line views: irq/lines by interrupt number, softirq/lines by vector);
# 1 if it has none
hl_line()
{
	local row
	row=$(awk -v key="$2" '$1 == key { print; exit }' "$LH_DIR/$1/lines")
	[ -n "$row" ] || return 1
	# shellcheck disable=SC2086 # the row's fields
	set -- $row
	LN_NAME=$2 LN_SAMPLES=$3 LN_MIN=$4 LN_MEAN=$5 LN_P99=$6 LN_P999=$7
	LN_MAX=$8 LN_MAXCPU=$9
	shift 9
	LN_CPID=$1
	shift
	LN_CCOMM=$*
}

# hl_check_explain TYPE CPU LAT CPID CCOMM HOLDER - TYPE/explain-CPU<CPU>
# breaks down a sample of LAT us whose culprit is CPID (comm CCOMM): its
# window is that sample, the culprit ran in it (the idle line for pid 0),
# and where the culprit is HOLDER (the comm of the test's section), longer
# than any other thread (not always for most of the window: the time the
# host stalls the vCPU in an interrupt handler is the handler's). The file
# is shown as diagnostics.
hl_check_explain()
{
	local f="$LH_DIR/$1/explain-CPU$2" lat="$3" cpid="$4" ccomm="$5" holder="$6" win ran line
	lh_diag "$(lh_name "$f"):"
	while IFS= read -r line; do lh_diag "  $line"; done <"$f"
	win=$(awk '$1 == "window" { print $2; exit }' "$f")
	# (the culprit's time, then the longest other thread's: pid ns)
	# shellcheck disable=SC2046 # three numbers
	set -- $(awk -v pid="$cpid" '
		pid == 0 && $1 == "idle" && NF == 2 { n += $2 }
		$1 == "thread" && NF >= 5 { t[$2] += $NF }
		END {
			if (pid != 0) n = t[pid]
			for (p in t) if (p != pid && t[p] > top) { top = t[p]; tp = p }
			print n + 0, tp + 0, top + 0
		}' "$f")
	ran=$1
	if [ -z "$win" ]; then
		lh_err "$(lh_name "$f") has no window for the maximum of $lat us"
	elif [ $((win / 1000)) != "$lat" ]; then
		lh_err "$(lh_name "$f"): window $win ns is not the maximum's $lat us"
	elif [ "$ran" = 0 ]; then
		lh_err "$(lh_name "$f"): the culprit $cpid ($ccomm) did not run in the window"
	elif [ "$ccomm" = "$holder" ] && [ "$ran" -le "$3" ]; then
		lh_err "$(lh_name "$f"): $holder ran $ran ns of the $win ns window, thread $2 $3 ns"
	fi
}

# hl_line_ordered WHAT - the statistics hl_line read are in order:
# min <= p99 <= p99.9 <= max, and min <= mean <= max (the mean has two
# decimals); lh_err names WHAT ("line 28") if not
hl_line_ordered()
{
	[ "$LN_MIN" -le "$LN_P99" ] && [ "$LN_P99" -le "$LN_P999" ] &&
		[ "$LN_P999" -le "$LN_MAX" ] &&
		awk -v lo="$LN_MIN" -v m="$LN_MEAN" -v hi="$LN_MAX" \
			'BEGIN { exit !(m ~ /^[0-9]+(\.[0-9]+)?$/ && lo <= m + 0 && m + 0 <= hi) }' &&
		return 0
	lh_err "$1: min $LN_MIN mean $LN_MEAN p99 $LN_P99 p99.9 $LN_P999 max $LN_MAX out of order"
}

# hl_mean_below LIMIT - the mean hl_line read (two decimals) is below LIMIT
hl_mean_below()
{
	awk -v m="$LN_MEAN" -v lim="$1" 'BEGIN { exit !(m + 0 < lim) }'
}

# hl_show_lines TYPE - TYPE/lines as diagnostics
hl_show_lines()
{
	local l
	while IFS= read -r l; do
		lh_diag "$1/lines: $l"
	done <"$LH_DIR/$1/lines"
}
