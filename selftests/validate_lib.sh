# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC2015,SC2016,SC2046,SC3043 # awk programs in single quotes; sets variables for the caller; A && B || C reports; word lists; local
#
# validate_lib.sh - for the validate_*.sh tests that compare our wakeup
# samples with another tool's, sample set against sample set: the three
# checks of Documentation/validation.rst (totals within 0.5 %, >= 99 % of the
# samples paired by rank in the same or an adjacent 1 us bucket, maxima
# within 1 us) as three test cases, each also a "# table:" row for
# scripts/validate.sh. Source after lib.sh and hist_lib.sh.

# vl_table TOOL CHECK FIGURES RESULT - one row of the validation table
vl_table()
{
	lh_diag "table: $1: $2 | $3 | $4"
}

# vl_ours_cpu CPU OUT - our wakeup + wakeup/sharedprio samples of CPUx, one
# per line, sorted ("greater or equal than 10240" ones as 10240)
vl_ours_cpu()
{
	hl_samples "$LH_DIR/wakeup/CPU$1" "$LH_DIR/wakeup/sharedprio/CPU$1" >"$2"
}

# vl_rank_line FILE - samples at ranks 1, 25 %, 50 %, 75 % and the last
vl_rank_line()
{
	awk '{ v[NR] = $1 } END {
		printf "%s %s %s %s %s", v[1], v[int(NR / 4) + 0], v[int(NR / 2)], v[int(3 * NR / 4)], v[NR] }' "$1"
}

# vl_compare TOOL OURS THEIRS LOOPS - the three cases over two sorted sample
# files; TOOL names the other side in messages and table rows
vl_compare()
{
	local tool n_o n_t r d
	tool=$1
	n_o=$(wc -l <"$2")
	n_t=$(wc -l <"$3")
	lh_diag "$tool: ours at ranks 1, 25 %, 50 %, 75 %, last: $(vl_rank_line "$2")"
	lh_diag "$tool: theirs at the same ranks: $(vl_rank_line "$3")"

	lh_case_begin
	r=PASS
	if [ "$n_t" -eq 0 ] || ! awk -v a="$n_o" -v b="$n_t" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d * 1000 <= b * 5) }'; then
		r=FAIL
		lh_err "ours $n_o samples, $tool $n_t: not within 0.5 %"
	fi
	vl_table "$tool" "totals within 0.5 %" "ours $n_o, $tool $n_t (loops $4)" $r
	lh_case_end totals_agree

	# Pair by rank over the common length.
	set -- $(paste -d ' ' "$2" "$3" | awk '
		NF == 2 { n++; d = $1 - $2; if (d < 0) d = -d; if (d <= 1) near++; if (d > gap) gap = d }
		END { printf "%d %d %d\n", n, near, gap }') "$(tail -n 1 "$2")" "$(tail -n 1 "$3")"
	[ -n "$4" ] || set -- "$1" "$2" "$3" 0 "$5"
	[ -n "$5" ] || set -- "$1" "$2" "$3" "$4" 0
	lh_case_begin
	r=PASS
	[ "$1" -gt 0 ] && [ $(($2 * 100)) -ge $(($1 * 99)) ] ||
		{ r=FAIL; lh_err "$2 of $1 paired samples within 1 us: < 99 % (largest gap $3 us)"; }
	vl_table "$tool" ">= 99 % in the same or an adjacent bucket" "$2 of $1 (largest gap $3 us)" $r
	lh_case_end same_or_adjacent_bucket

	lh_case_begin
	d=$(($4 - $5))
	[ $d -lt 0 ] && d=$((-d))
	r=PASS
	[ $d -le 1 ] || { r=FAIL; lh_err "maxima ours $4 us, $tool $5 us: differ by $d us"; }
	vl_table "$tool" "maxima within 1 us" "ours $4, $tool $5 us" $r
	lh_case_end maxima_agree
}

# ---------------------------------------------------------------- per sample
#
# The per-sample cases (validate_types.sh, Documentation/validation.rst,
# "Sample by sample"): trace-cmd records, in one buffer and on the trace
# clock "mono" (ktime_get_mono_fast_ns(), the wakeup types' clock), the
# module's own lh_sample events of one followed thread and the kernel's
# events from which vl_recompute files the same samples again, offline, by
# the documented rules; vl_pair then pairs the two sample lists of each type
# one to one.

VL_CPUMASK=		# tracing_cpumask before vl_record_start, while it records

# vl_trace_reset - end a recording: events off, filters cleared (trace-cmd
# reset), the CPU mask as it was, the buffer on again
vl_trace_reset()
{
	local t
	t=$(lh_tracefs)
	trace-cmd reset >/dev/null 2>&1
	echo "$VL_CPUMASK" >"$t/tracing_cpumask"
	echo 1 >"$t/tracing_on"
	VL_CPUMASK=
}

# vl_cleanup - lh_cleanup hook: end a recording a bail left on
vl_cleanup()
{
	[ -z "$VL_CPUMASK" ] || vl_trace_reset
}
LH_CLEANUP_HOOKS="vl_cleanup $LH_CLEANUP_HOOKS"

# vl_record_start DAT [OPTION...] -e SYSTEM:EVENT [-f FILTER]... - start
# recording into the kernel's buffer (trace-cmd start: clock mono, 4 MB a
# CPU unless -b says otherwise) for vl_record_stop to extract into DAT.
# No reader runs meanwhile: trace-cmd record's would wake on the recorded
# CPUs and add events of their own, and its shutdown takes many seconds of
# instruction time. The buffer must hold the whole recording, which
# vl_record_stop checks.
vl_record_start()
{
	local dat t
	dat=$1
	shift
	t=$(lh_tracefs)
	VL_CPUMASK=$(cat "$t/tracing_cpumask")
	trace-cmd start -C mono -b 4096 "$@" >"$dat.out" 2>&1 ||
		lh_bail "trace-cmd start failed: $(tail -n 3 "$dat.out")"
	: >"$t/trace"	# empty, and its overrun counts zero
}

# vl_load PLAN - load the module (bails if it cannot), skip every case
# where it has no lh_sample trace event (the per-sample checks record it),
# then plan PLAN cases
vl_load()
{
	lh_load_or_bail
	[ -d "$(lh_tracefs)/events/latency_hist/lh_sample" ] || lh_skip_all "no lh_sample trace event"
	lh_plan "$1"
}

# vl_syscall_nr NAME - print the number of system call NAME (the C
# library's SYS_NAME), for a raw_syscalls filter
vl_syscall_nr()
{
	local nr
	nr=$(printf 'SYS_%s\n' "$1" | cpp -P -include sys/syscall.h - 2>/dev/null | awk 'NF { v = $1 } END { print v }')
	case $nr in
	'' | *[!0-9]*) lh_bail "cannot tell the number of system call $1 (cpp, sys/syscall.h)" ;;
	esac
	echo "$nr"
}

# vl_record_stop DAT REPORT - stop recording, extract the buffer into DAT
# and write its report without plugins (the kernel's own field=value
# format, full-ns timestamps); an error if the buffer overflowed
vl_record_stop()
{
	local t lost
	t=$(lh_tracefs)
	echo 0 >"$t/tracing_on"
	lost=$(cat "$t"/per_cpu/cpu*/stats | awk '$1 == "overrun:" || ($1 == "dropped" && $2 == "events:") { n += $NF } END { print n + 0 }')
	[ "$lost" = 0 ] || lh_err "the trace buffer overflowed: $lost events lost, the recomputation misses some"
	trace-cmd extract -o "$1" >"$1.extract" 2>&1 ||
		lh_bail "trace-cmd extract failed: $(tail -n 3 "$1.extract")"
	vl_trace_reset
	trace-cmd report -N -t -i "$1" >"$2" 2>"$2.err" ||
		lh_bail "trace-cmd report failed: $(tail -n 3 "$2.err")"
	lh_diag "report: $(grep -c . "$2") lines; most frequent: $(sed -n 's/^.*\] *[0-9.]*: *\([a-z_]*\):.*$/\1/p' "$2" | sort | uniq -c | sort -rn | head -n 4 | tr -s ' \n' ' ')"
}

# VL_AWK_REPORT - awk code that splits a report line: ev (event name), t
# (ns), cpu (the CPU that recorded it), cur (common_pid); fld(NAME) is the
# value of NAME=value after the event name. A line that is no event leaves
# ev empty.
VL_AWK_REPORT='
	function fld(k,    i) {
		for (i = e + 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2)
		return ""
	}
	function after(k,    i) { for (i = e + 1; i < NF; i++) if ($i == k) return $(i + 1); return "" }
	{
		ev = ""
		for (c = 1; c <= NF; c++) if ($c ~ /^\[[0-9]+\]$/) break
		for (s = c + 1; s < NF; s++) if ($s ~ /^[0-9]+\.[0-9]+:$/) break
		if (c > NF || s >= NF) next
		e = s + 1; ev = $e; sub(/:$/, "", ev)
		split(substr($s, 1, length($s) - 1), tp, ".")
		t = tp[1] * 1000000000 + tp[2] * 10 ^ (9 - length(tp[2]))
		cpu = $c; gsub(/[^0-9]/, "", cpu); cpu += 0
		cur = $(c - 1); sub(/.*-/, "", cur); cur += 0
	}'

# vl_ours REPORT OUT [VICTIM] - the module's samples in the report: "type
# cpu t_ns value" per lh_sample event (of victim pid VICTIM only, if given),
# in trace order
vl_ours()
{
	awk -v victim="${3:-}" "$VL_AWK_REPORT"'
		ev == "lh_sample" {
			if (victim != "") { p = fld("victim"); sub(/.*:/, "", p); if (p != victim) next }
			printf "%s %d %.0f %d\n", fld("type"), fld("cpu"), t, fld("latency_us")
		}' "$1" >"$2"
}

# vl_irq_filed REPORT ROWS KEYED - every irq lh_sample of the report, for
# vl_rows ("cpu us" into ROWS) and vl_lines ("irq us t_ns" into KEYED: the
# interrupt number from the victim, the line's thread irq/N-name)
vl_irq_filed()
{
	awk -v rows="$2" -v keyed="$3" "$VL_AWK_REPORT"'
		ev == "lh_sample" && fld("type") == "irq" {
			k = fld("victim")
			if (k ~ /^irq\/[0-9]+-/) { sub(/^irq\//, "", k); sub(/-.*/, "", k) } else k = -1
			printf "%d %d\n", fld("cpu"), fld("latency_us") >rows
			printf "%s %d %.0f\n", k, fld("latency_us"), t >keyed
		}' "$1"
	[ -e "$2" ] || : >"$2"
	[ -e "$3" ] || : >"$3"
}

# vl_recompute REPORT TID OUT - the samples of thread TID, filed again from
# the kernel events alone by the rules of Documentation/validation.rst
# ("Sample by sample"), in the format of vl_ours. The thread is followed by
# pid filters (wakeup/pid, missed_timer_offsets/pid): an outranked wakeup
# goes to sharedprio, not away. Needs sched_switch and sched_waking of
# every real-time task on the thread's CPU (rivals of its priority),
# hrtimer_start, raw_syscalls of TID, hrtimer_expire_entry/exit of its CPU.
vl_recompute()
{
	awk -v tid="$2" "$VL_AWK_REPORT"'
		function out(type, c, v) { printf "%s %d %.0f %d\n", type, c, t, v }
		function us(d) { return int(d / 1000) }
		# meet: a task ran while the wakee waited: one of its priority or a
		# more important one makes it a sharedprio sample (idle: pid 0)
		function meet(pid, prio) { if (pid != 0 && prio <= w_prio) w_shared = 1 }
		ev == "sched_switch" {
			pp = fld("prev_pid") + 0; ppr = fld("prev_prio") + 0
			np = fld("next_pid") + 0; npr = fld("next_prio") + 0
			run_pid[cpu] = np; run_prio[cpu] = npr
			if (pp == tid) myprio = ppr
			if (np == tid) myprio = npr
			if (pp == tid && st_on && st_cpu == cpu)
				st_on = 0	# switched out before its sys_exit
			if (!w_on || w_cpu != cpu)
				next
			if (pp == tid) {
				w_on = 0	# it was running: no wakeup
				next
			}
			meet(pp, ppr)
			if (np != tid) {
				meet(np, npr)
				next
			}
			w_on = 0
			lat = us(t - w_start)
			if (w_shared) {
				out("wakeup/sharedprio", cpu, lat)
				next
			}
			out("wakeup", cpu, lat)
			out("timerandwakeup", cpu, w_off + lat)
			st_on = 1; st_cpu = cpu; st_t = t; st_taw = w_off + lat; st_nr = last_nr
			next
		}
		ev == "sched_waking" {
			p = fld("pid") + 0; pr = fld("prio") + 0; tc = fld("target_cpu") + 0
			if (p != tid) {
				if (w_on && w_cpu == tc && pr == w_prio) w_shared = 1	# a rival
				next
			}
			w_off = 0
			if (x_on[cpu] && x_pid[cpu] == p) {
				w_off = x_off[cpu]	# woken by the counted late timer
				x_on[cpu] = 0
			}
			w_on = 1; w_cpu = tc; w_start = t; w_prio = pr; w_shared = 0
			myprio = pr
			next
		}
		ev == "sched_migrate_task" {
			if (fld("pid") + 0 == tid && w_on) w_cpu = fld("dest_cpu") + 0
			next
		}
		ev == "hrtimer_start" {
			if (cur != tid || fld("function") != "hrtimer_wakeup") next
			a = fld("hrtimer"); expires[a] = fld("expires") + 0; armed[a] = t
			next
		}
		ev == "hrtimer_expire_entry" {
			a = fld("hrtimer")
			if (!(a in expires)) next
			# The later of the expiry and the arming (an expiry in the past)
			start = expires[a] > armed[a] ? expires[a] : armed[a]
			delete expires[a]
			lat = fld("now") - start
			if (lat < 0) next	# inside its slack: early, not late
			# the RT patch rule: the wakeup would preempt the interrupted task
			# (an idle CPU counts; an equal priority counts only for a wakee
			# that cannot run here, and this one is pinned here)
			if (cur != 0 && run_pid[cpu] == cur && !(myprio < run_prio[cpu])) next
			out("missed_timer_offsets", cpu, us(lat))
			x_on[cpu] = 1; x_addr[cpu] = a; x_pid[cpu] = tid; x_off[cpu] = us(lat)
			next
		}
		ev == "hrtimer_expire_exit" {
			if (x_on[cpu] && x_addr[cpu] == fld("hrtimer")) x_on[cpu] = 0
			next
		}
		ev == "sys_enter" && cur == tid {
			last_nr = after("NR") + 0
			if (st_on && st_cpu == cpu) st_on = 0	# back in the kernel: no sys_exit of its sleep
			next
		}
		ev == "sys_exit" && cur == tid {
			if (!st_on || st_cpu != cpu) next
			st_on = 0
			if (after("NR") + 0 != st_nr) next
			lat = us(t - st_t)
			out("switchtime", cpu, lat)
			out("timerwakeupswitch", cpu, st_taw + lat)
		}' "$1" >"$3"
}

# vl_irq_recompute REPORT IRQ THREAD OUT - the irq samples of line IRQ,
# whose interrupt thread is THREAD, filed again from irq_handler_entry and
# irq_handler_exit of the line and THREAD's sched_switch events, by the
# module's rules (module/irq.c): an interrupt whose handler wakes the
# thread (the line's primary handler always does) is noted with the
# thread's count of switch-outs, unless one noted at that count is still
# unserved; the thread's next switch-in files the time from the noted
# irq_handler_entry, on its CPU, if the count is unchanged (an interrupt
# while the thread runs is served without a wakeup), and ends the note
vl_irq_recompute()
{
	awk -v irq="$2" -v thread="$3" "$VL_AWK_REPORT"'
		ev == "irq_handler_entry" && fld("irq") + 0 == irq + 0 { entry[cpu] = t; next }
		ev == "irq_handler_exit" && fld("irq") + 0 == irq + 0 {
			if (!(cpu in entry)) next
			if (!noted || noted_out != outs) { noted = 1; noted_at = entry[cpu]; noted_out = outs }
			delete entry[cpu]
			next
		}
		ev == "sched_switch" && fld("prev_pid") + 0 == thread + 0 { outs++; next }
		ev == "sched_switch" && fld("next_pid") + 0 == thread + 0 {
			if (noted && noted_out == outs)
				printf "irq %d %.0f %d\n", cpu, t, int((t - noted_at) / 1000)
			noted = 0
		}' "$1" >"$4"
}

# vl_softirq REPORT FROM TO OURS OUT [FILED] - the softirq samples of the
# report: the module's (its lh_sample events, each followed on its CPU by
# the softirq_entry it files for: the type's probes run before ftrace's)
# into OURS, and the same filed again from softirq_raise and softirq_entry
# by the module's rules (module/softirq.c) into OUT, per CPU and vector: a
# raise stamps the vector if it has no stamp, its entry files the time from
# the stamp and clears it. The window ends at ftrace's softirq_entry, less
# any interruption ftrace saw between our sample and that entry on the CPU:
# the probes of softirq_entry run with interrupts on, preemptible on
# PREEMPT_RT, so an interrupt or a switch there (irq_handler_*, the x86
# vectors, sched_switch, raises: any event of the CPU that lies between the
# two) moves ftrace's end; the span from the first to the last such event is
# taken off. Only the lh_sample's place in the trace is read, never its
# time: a module that files before the vector runs differs from the
# reference by as much. An lh_sample counts as the entry's only if that
# entry follows within VL_SOFTIRQ_FILED_NS: every other sample of ours
# between FROM and TO (a second one before the entry, a duplicate; or one
# filed long before the vector ran) is written to OURS unpaired, so the
# counts differ. Both keep the entries between FROM and TO (ns: the type is
# on from before the one to after the other) but the first of each CPU and
# vector, whose raise may have come before the module hooked it; every
# later window opens after an entry both saw. FILED (if given) gets every
# lh_sample of the report, "cpu vector us t_ns" (vector -1: no entry
# followed within VL_SOFTIRQ_FILED_NS), for vl_rows and vl_lines.
VL_SOFTIRQ_FILED_NS=1000000	# a sample is filed within microseconds of its entry
vl_softirq()
{
	awk -v from="$2" -v to="$3" -v ours="$4" -v filed="$VL_SOFTIRQ_FILED_NS" -v all="${6:-/dev/null}" -v out="$5" "$VL_AWK_REPORT"'
		function unpaired(c) {
			if ((c in pend) && pend_t[c] >= from && pend_t[c] <= to)
				printf "softirq %d %.0f %d\n", c, pend_t[c], pend[c] >ours
			if (c in pend) printf "%d -1 %d %.0f\n", pend_c[c], pend[c], pend_t[c] >all
			delete pend[c]
			delete ifirst[c]
		}
		ev == "lh_sample" && fld("type") == "softirq" {
			unpaired(cpu)
			pend[cpu] = fld("latency_us"); pend_t[cpu] = t; pend_c[cpu] = fld("cpu"); next
		}
		# anything else between our sample and its entry on this CPU
		# interrupted the two probes
		(cpu in pend) && ev != "softirq_entry" {
			if (!(cpu in ifirst)) ifirst[cpu] = t
			ilast[cpu] = t
		}
		ev == "softirq_raise" { v = fld("vec") + 0; if (!stamp[cpu, v]) stamp[cpu, v] = t; next }
		ev == "softirq_entry" {
			v = fld("vec") + 0
			keep = t >= from && t <= to && ((cpu, v) in seen)
			if (t >= from) seen[cpu, v] = 1
			end = t
			if ((cpu in pend) && t - pend_t[cpu] > filed)
				unpaired(cpu)
			if (cpu in pend) {
				if (keep) printf "softirq %d %.0f %d\n", cpu, pend_t[cpu], pend[cpu] >ours
				printf "%d %d %d %.0f\n", pend_c[cpu], v, pend[cpu], pend_t[cpu] >all
				if (cpu in ifirst) { end -= ilast[cpu] - ifirst[cpu]; cut++ }
			}
			delete pend[cpu]
			delete ifirst[cpu]
			if (stamp[cpu, v] && keep) printf "softirq %d %.0f %d\n", cpu, t, int((end - stamp[cpu, v]) / 1000) >out
			stamp[cpu, v] = 0
		}
		END {
			for (c in pend) unpaired(c)
			printf "%d\n", cut
		}' "$1" >"$5.cut"
	[ -e "$4" ] || : >"$4"
	[ -e "$5" ] || : >"$5"
	lh_diag "softirq: $(cat "$5.cut") windows ended earlier by an interruption between the two entry probes"
}

# ------------------------------------------------------ the files users read
#
# The per-sample cases compare lh_sample events, which a type emits apart
# from filing (a histogram that refuses a sample still emits it): these
# check that the files hold exactly the samples of the events. A recording
# for them starts before the type is reset and enabled, and the type is
# disabled before it stops, so every filed sample is in it and nothing is
# filed after it (CPUx keep their rows over a disable).

# vl_rows HIST SAMPLES CPU... - lh_err unless HIST/CPUx of each CPU holds in
# its total and rows (1 us buckets, "greater or equal than 10240" as 10240)
# exactly the samples of SAMPLES ("cpu us" a line) of that CPU, plus at
# most status's untraced= of HIST (samples filed with no lh_sample event:
# a critical section closed inside the module's own emission; 0 for the
# other types, so their files must hold the events exactly)
vl_rows()
{
	local hist samples c got want extra untraced line
	hist=$1 samples=$2
	shift 2
	untraced=$(lh_status_field "$hist" untraced)
	case $untraced in
	'' | *[!0-9]*) lh_err "status of $hist has no untraced= count: '$untraced'"; untraced=0 ;;
	esac
	extra=0
	for c in "$@"; do
		hl_samples "$LH_DIR/$hist/CPU$c" | sort >"$LH_TMP/rows.file"
		awk -v c="$c" '$1 == c { print ($2 >= 10240 ? 10240 : $2) }' "$samples" | sort >"$LH_TMP/rows.want"
		got=$(hl_total "$hist" "$c")
		want=$(wc -l <"$LH_TMP/rows.want")
		if [ "$got" -lt "$want" ]; then
			lh_err "$hist/CPU$c: #Total samples: $got, $want lh_sample events of CPU$c"
		fi
		# every event's sample in the file, the file's others untraced
		if [ -n "$(comm -13 "$LH_TMP/rows.file" "$LH_TMP/rows.want")" ]; then
			lh_err "$hist/CPU$c: rows lack samples of the lh_sample events (file <, events >):"
			diff "$LH_TMP/rows.file" "$LH_TMP/rows.want" | grep '^[<>]' | sort | uniq -c | head -n 6 |
				while IFS= read -r line; do lh_diag "  $line"; done
		fi
		extra=$((extra + $(comm -23 "$LH_TMP/rows.file" "$LH_TMP/rows.want" | wc -l)))
		[ "$got" = "$want" ] ||
			lh_diag "$hist/CPU$c: #Total samples $got, $want lh_sample events; rows of no event: $(comm -23 "$LH_TMP/rows.file" "$LH_TMP/rows.want" | sort -n | tr '\n' ' ')"
	done
	[ "$extra" -le "$untraced" ] ||
		lh_err "$hist: $extra samples in CPU $* rows have no lh_sample event, status says untraced=$untraced"
	lh_diag "$hist: CPU $* rows: $(wc -l <"$samples") samples of the events compared; untraced=$untraced"
}

# vl_lines HIST LINES SAMPLES FROM TO - lh_err unless LINES, a copy of
# HIST/lines (irq, softirq) read with the type on (a disable empties it)
# between the times FROM and TO (ns, trace markers), holds per line key
# (interrupt or vector number; a culprit comm with blanks comes after the
# fields read) in samples, min, mean (two decimals, rounded down) and max those of SAMPLES ("key us t_ns" a line; key -1: not known)
# filed before FROM; for a key with samples filed during the read, only
# the count, between those filed before FROM and before TO
vl_lines()
{
	local line
	awk '$1 !~ /^#/ { k = $1; if (k in seen) k = k "+"; seen[k] = 1; printf "%s %s %s %s %s\n", k, $3, $4, $5, $8 }' "$2" |
		sort -n >"$LH_TMP/lines.file"
	awk -v from="$4" -v to="$5" '
		$3 < from { n[$1]++; s[$1] += $2; if (!($1 in lo) || $2 < lo[$1]) lo[$1] = $2; if ($2 > hi[$1]) hi[$1] = $2 }
		$3 >= from && $3 < to { more[$1]++; n[$1] += 0 }
		END {
			for (v in n) {
				if (n[v]) { q = int(s[v] * 100 / n[v]); printf "%s %d %d %d.%02d %d %d\n", v, n[v], lo[v], int(q / 100), q % 100, hi[v], more[v] }
				else printf "%s 0 - - - %d\n", v, more[v]
			}
		}' "$3" | sort -n >"$LH_TMP/lines.want"
	awk '
		FNR == 1 { side++ }
		side == 1 { file[$1] = $2 " " $3 " " $4 " " $5; fn[$1] = $2; next }
		{
			v = $1; want = $2 " " $3 " " $4 " " $5
			f = (v in file) ? file[v] : "(none)"
			n = (v in fn) ? fn[v] : 0
			delete file[v]
			if (!$6) {
				if (f == "(none)" && $2 == 0) next
				if (f != want) printf "line %s: file %s, events %s\n", v, f, want
			} else if (n < $2 || n > $2 + $6)
				printf "line %s: file %d samples, events %d before the read and %d during it\n", v, n, $2, $6
		}
		END { for (v in file) printf "line %s: file %s, no lh_sample events\n", v, file[v] }' \
		"$LH_TMP/lines.file" "$LH_TMP/lines.want" >"$LH_TMP/lines.diff"
	if [ -s "$LH_TMP/lines.diff" ]; then
		lh_err "$1/lines (samples min mean max) differs from the lh_sample events (line -1: a sample of no known line; N+: a second line of N):"
		head -n 8 "$LH_TMP/lines.diff" | while IFS= read -r line; do lh_diag "  $line"; done
	fi
	lh_diag "$1/lines: $(wc -l <"$LH_TMP/lines.file") lines, $(awk '$6 { n++ } END { print n + 0 }' "$LH_TMP/lines.want") with samples filed during its read"
}

# vl_read_lines HIST OUT - copy HIST/lines into OUT between the trace
# markers lh-lines-read and lh-lines-read-end (vl_lines' FROM and TO)
vl_read_lines()
{
	local t
	t=$(lh_tracefs)
	echo lh-lines-read >"$t/trace_marker"
	cat "$LH_DIR/$1/lines" >"$2"
	echo lh-lines-read-end >"$t/trace_marker"
}

# vl_sections REPORT OUT - the irqsoff, preemptoff and preemptirqsoff
# samples filed again from the preemptirq events (irq_disable/irq_enable,
# preempt_disable/preempt_enable: the kernel fires them only on the
# outermost transitions) and power:cpu_idle, by the module's rules: a
# section opens when its kind goes off and none is open; "both" opens when
# the second kind goes off while the first is; each closes when its kind
# comes on, "both" when either does; entering idle discards every open one
vl_sections()
{
	awk "$VL_AWK_REPORT"'
		function out(type, v) { printf "%s %d %.0f %d\n", type, cpu, t, v }
		function off(w) {
			if (!open[cpu, w]) { open[cpu, w] = 1; start[cpu, w] = t }
			if (open[cpu, !w] && !open[cpu, 2]) { open[cpu, 2] = 1; start[cpu, 2] = t }
		}
		function on(w) {
			if (open[cpu, w]) { open[cpu, w] = 0; out(w ? "preemptoff" : "irqsoff", int((t - start[cpu, w]) / 1000)) }
			if (open[cpu, 2]) { open[cpu, 2] = 0; out("preemptirqsoff", int((t - start[cpu, 2]) / 1000)) }
		}
		ev == "irq_disable" { off(0) }
		ev == "irq_enable" { on(0) }
		ev == "preempt_disable" { off(1) }
		ev == "preempt_enable" { on(1) }
		ev == "cpu_idle" && fld("state") != "4294967295" { open[cpu, 0] = open[cpu, 1] = open[cpu, 2] = 0 }' "$1" >"$2"
}

# vl_window IN OUT FROM TO - the samples of IN ("type cpu t_ns us") whose
# window lies within [FROM, TO] ns: it starts (t - us, the same estimate for
# both sides of a pair) at or after FROM and ends at or before TO
vl_window()
{
	awk -v from="$3" -v to="$4" '$3 - $4 * 1000 >= from && $3 <= to' "$1" >"$2"
}

# vl_marker REPORT TEXT - the time (ns) of the trace_marker line TEXT
vl_marker()
{
	awk -v m="$2" "$VL_AWK_REPORT"' index($0, m) { printf "%.0f\n", t; exit }' "$1"
}

# vl_pair TYPE OURS THEIRS MIN [WORKLOAD] - one case (named after WORKLOAD
# too, if given): the samples of TYPE in the two
# lists (vl_ours, vl_recompute) paired one to one in time order (each
# module sample is filed within microseconds of the event that ends its
# window, so a pair is within 1 ms); equal counts, >= MIN pairs, every pair
# on the same CPU, >= 99 % within 2 us, none beyond 10 us. The first
# mismatches are shown.
vl_pair()
{
	local r w
	w=${5:-}
	set -- "$1" $(awk -v type="$1" -v out="$LH_TMP/pair.$$" '
		FNR == 1 { side++ }
		$1 != type { next }
		side == 1 { no++; ot[no] = $3; oc[no] = $2; ov[no] = $4 }
		side == 2 { nt++; tt[nt] = $3; tc[nt] = $2; tv[nt] = $4 }
		function show(s) { if (++shown <= 10) print s >out }
		END {
			i = j = 1
			while (i <= no || j <= nt) {
				if (i <= no && j <= nt && (ot[i] - tt[j] <= 1000000 && tt[j] - ot[i] <= 1000000)) {
					p++; d = ov[i] - tv[j]; if (d < 0) d = -d
					if (d <= 2) near++; if (d > 10) far++; if (d > worst) worst = d
					if (oc[i] != tc[j]) { cpus++; show(sprintf("t=%.0f: ours on CPU%d, recomputed on CPU%d", ot[i], oc[i], tc[j])) }
					if (d > 2) show(sprintf("t=%.0f: ours %d us, recomputed %d us", ot[i], ov[i], tv[j]))
					i++; j++
				} else if (j > nt || (i <= no && ot[i] < tt[j])) {
					show(sprintf("t=%.0f: ours %d us on CPU%d, no recomputed sample", ot[i], ov[i], oc[i])); i++
				} else {
					show(sprintf("t=%.0f: recomputed %d us on CPU%d, no sample of ours", tt[j], tv[j], tc[j])); j++
				}
			}
			printf "%d %d %d %d %d %d %d\n", no, nt, p, near, far, worst, cpus
		}' "$2" "$3") "$4"
	# $2 ours, $3 recomputed, $4 pairs, $5 within 2 us, $6 beyond 10 us, $7 worst, $8 CPU mismatches, $9 MIN
	lh_case_begin
	r=PASS
	if [ "$2" != "$3" ] || [ "$2" != "$4" ]; then
		r=FAIL; lh_err "$1: ours $2, recomputed $3, paired $4"
	fi
	[ "$4" -ge "$9" ] || { r=FAIL; lh_err "$1: $4 pairs, expected at least $9"; }
	[ $(($5 * 100)) -ge $(($4 * 99)) ] || { r=FAIL; lh_err "$1: $5 of $4 pairs within 2 us: < 99 %"; }
	[ "$6" = 0 ] || { r=FAIL; lh_err "$1: $6 pairs differ by more than 10 us (worst $7 us)"; }
	[ "$8" = 0 ] || { r=FAIL; lh_err "$1: $8 pairs filed under different CPUs"; }
	if [ -s "$LH_TMP/pair.$$" ]; then
		while IFS= read -r line; do lh_diag "$1: $line"; done <"$LH_TMP/pair.$$"
	fi
	rm -f "$LH_TMP/pair.$$"
	vl_table ftrace "$1 per sample${w:+ ($w)}" "ours $2, ftrace $3, paired $4, $5 within 2 us, worst $7 us" $r
	lh_case_end "${w:+${w}_}$(echo "$1" | tr / _)_sample_by_sample"
}
