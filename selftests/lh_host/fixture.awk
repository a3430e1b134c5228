# SPDX-License-Identifier: GPL-2.0
#
# fixture.awk - write a latency_hist debugfs tree from a short spec, in the
# module's exact formats, for the host tests of scripts/lh
#
#   awk -v out=DIR -f fixture.awk SPEC
#
# The CPUx, max_latency-CPUx and status formats are those of
# module/hist_print.c, module/debugfs.c and module/control.c; the summary
# file follows the format the lead fixed for issue 7 (header, one line per
# CPU, an "all" line; percentile = smallest bucket whose cumulative count,
# below-range samples first, reaches ceil(q * samples), "<0" / ">=10240" when
# the rank falls among out-of-range samples). The percentiles are computed
# here independently of lh, which only reads them.
#
# SPEC lines (# comments):
#   cpus N                        possible CPUs 0..N-1 (default 2)
#   types T..                     only these histogram directories (default all 7)
#   samples TYPE CPU V:COUNT..    V in us; V < 0 or V >= 10240 are out of range
#   max TYPE CPU TEXT..           the max_latency-CPUx line (default "(none)")
#   status TYPE KEY=VALUE..       replace the status line's fields (after TYPE)
#   enable SWITCH 0|1             enable/SWITCH (default 0)
#   pid TYPE N                    TYPE/pid (default 0)
#   nosummary                     no summary files (a module older than them)
#   rows                          a rows file per type too (module/hist_print.c), as
#                                 a module that has it: lh then reads it, not CPUx
#   lines TYPE TEXT..             a line of TYPE/lines, the per-line view, as the
#                                 module prints it (module/irq_lines.c); irq, a
#                                 type the default tree leaves out, is there when
#                                 `types` names it
#   tasks TYPE TEXT..             a line of TYPE/tasks, the per-task view, as the
#                                 module prints it (module/task_views_print.c)
#   cgroups TYPE TEXT..           a line of TYPE/cgroups, the per-cgroup view
#   budget TYPE US                TYPE/outlier_us, and an outliers-CPUx file per CPU
#                                 (module/outlier_print.c) with the records below
#   outlier TYPE CPU SEQ TIME_NS LATENCY_US CAUSE [KIND ID NAME]
#                                 a record of TYPE's log on CPU, in SEQ order: its
#                                 window is LATENCY_US ms plus 500 ns, all in CAUSE
#                                 but 500 ns of idle (all in other for other and
#                                 unexplained), one detail line of KIND
#   outlierlog TYPE CPU KEY=VALUE..  header fields (dropped, first_seq, next_seq,
#                                 realtime_offset_ns) other than the ones the records
#                                 give: kept their count, filed kept + dropped,
#                                 first_seq the first's, next_seq the last's + 1

BEGIN {
	ncpus = 2
	nhists = split("irqsoff preemptoff preemptirqsoff wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup switchtime timerwakeupswitch irq", hists, " ")
	for (i = 1; i <= nhists; i++) present[hists[i]] = hists[i] != "irq"
	maxrec_types = " wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup switchtime timerwakeupswitch irq "
	nsw = split("preemptirqsoff wakeup missed_timer_offsets timerandwakeup switchtime timerwakeupswitch irq", switches, " ")
	# q = qnum / 10000, so ranks are computed in integers
	nq = split("5000 9000 9900 9990 9999", qnum, " ")
	summary = 1
}

/^#/ || NF == 0 { next }
$1 == "budget" { budget[$2] = $3; next }
$1 == "outlier" {
	k = ++onr[$2, $3]
	orec[$2, $3, k] = $0
	next
}
$1 == "outlierlog" {
	for (i = 4; i <= NF; i++) { split($i, kv, "="); ohdr[$2, $3, kv[1]] = kv[2] }
	next
}
$1 == "cpus" { ncpus = $2 + 0; next }
$1 == "types" {
	for (i = 1; i <= nhists; i++) present[hists[i]] = 0
	for (i = 2; i <= NF; i++) present[$i] = 1
	next
}
$1 == "samples" {
	for (i = 4; i <= NF; i++) {
		split($i, vc, ":")
		cnt[$2, $3, vc[1] + 0] += vc[2]
		if (!(($2, $3, vc[1] + 0) in seenv)) {
			seenv[$2, $3, vc[1] + 0] = 1
			nv[$2, $3]++
			vals[$2, $3, nv[$2, $3]] = vc[1] + 0
		}
	}
	next
}
$1 == "max" { line = $0; sub(/^max [^ ]+ [^ ]+ /, "", line); maxline[$2, $3] = line; next }
$1 == "status" { line = $0; sub(/^status [^ ]+ /, "", line); status_over[$2] = line; next }
$1 == "enable" { enabled[$2] = $3; next }
$1 == "pid" { pid[$2] = $3; next }
$1 == "nosummary" { summary = 0; next }
$1 == "rows" { rows = 1; next }
$1 == "lines" { line = $0; sub(/^lines [^ ]+ /, "", line); lines[$2] = lines[$2] line "\n"; next }
$1 == "tasks" { line = $0; sub(/^tasks [^ ]+ /, "", line); vtasks[$2] = vtasks[$2] line "\n"; next }
$1 == "cgroups" { line = $0; sub(/^cgroups [^ ]+ /, "", line); vcgroups[$2] = vcgroups[$2] line "\n"; next }
{ print "fixture.awk: bad spec line: " $0 > "/dev/stderr"; exit 1 }

# sort_values - sort v[1..n] ascending
function sort_values(v, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = v[i]
		for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
		v[j + 1] = t
	}
}

# stats - n, min, max, sum, below, above and percentiles of (t, c); c may be
# "all" (every CPU merged)
function stats(t, c,    k, i, v, nvals, cc, r, cum, q, sv) {
	delete sv
	nvals = 0
	st_n = st_sum = st_below = st_above = 0
	for (cc = 0; cc < ncpus; cc++) {
		if (c != "all" && cc != c) continue
		for (i = 1; i <= nv[t, cc]; i++) {
			v = vals[t, cc, i]
			if (!(v in sv)) { sv[v] = 0; order[++nvals] = v }
			sv[v] += cnt[t, cc, v]
		}
	}
	sort_values(order, nvals)
	for (i = 1; i <= nvals; i++) {
		v = order[i]
		if (!sv[v]) continue
		if (!st_n) st_min = v
		st_max = v
		st_n += sv[v]
		st_sum += v * sv[v]
		if (v < 0) st_below += sv[v]
		if (v >= 10240) st_above += sv[v]
	}
	for (k = 1; k <= nq; k++) {
		r = int((st_n * qnum[k] + 9999) / 10000)
		st_p[k] = ">=10240"
		cum = 0
		for (i = 1; i <= nvals; i++) {
			v = order[i]
			cum += sv[v]
			if (cum >= r) {
				st_p[k] = v < 0 ? "<0" : v >= 10240 ? ">=10240" : v
				break
			}
		}
	}
}

# cpu_file - write TYPE/CPUc exactly as the module prints it
function cpu_file(t, c, f,    b) {
	stats(t, c)
	if (st_n) {
		printf "#Minimum latency: %d microseconds\n", st_min > f
		printf "#Average latency: %d microseconds\n", int(st_sum / st_n) > f
		printf "#Maximum latency: %d microseconds\n", st_max > f
	} else {
		print "#Minimum latency: <undef> microseconds" > f
		print "#Average latency: <undef> microseconds" > f
		print "#Maximum latency: <undef> microseconds" > f
	}
	printf "#Total samples: %d\n", st_n > f
	printf "#There are %d samples lower than 0 microseconds.\n", st_below > f
	printf "#There are %d samples greater or equal than 10240 microseconds.\n", st_above > f
	printf "#usecs\t%16s\n", "samples" > f
	for (b = 0; b < 10240; b++)
		printf "%6d\t%16d\n", b, ((t, c, b) in cnt) ? cnt[t, c, b] : 0 > f
	close(f)
}

# rows_file - write TYPE/rows exactly as the module prints it
function rows_file(t, f,    c, b) {
	print "#latency_hist rows 1" > f
	print "#CPU total below above min mean max sum" > f
	for (c = 0; c < ncpus; c++) {
		stats(t, c)
		if (st_n)
			printf "CPU%d %d %d %d %d %d %d %.0f\n", c, st_n, st_below, st_above, st_min, int(st_sum / st_n),
			    st_max, st_sum > f
		else
			printf "CPU%d 0 0 0 - - - 0\n", c > f
		for (b = 0; b < 10240; b++)
			if (((t, c, b) in cnt) && cnt[t, c, b]) printf "%d %d\n", b, cnt[t, c, b] > f
	}
	close(f)
}

# summary_line - one line of a summary file
function summary_line(t, c) {
	stats(t, c)
	if (!st_n)
		return c " 0 - - - - - - - - 0 0"
	return c " " st_n " " st_min " " sprintf("%.2f", st_sum / st_n) " " st_p[1] " " st_p[2] " " \
	    st_p[3] " " st_p[4] " " st_p[5] " " st_max " " st_below " " st_above
}

function switch_of(t) {
	if (t == "irqsoff" || t == "preemptoff") return "preemptirqsoff"
	if (t == "wakeup/sharedprio") return "wakeup"
	return t
}

# outlier_rec - the record line and detail lines of spec line s, as
# module/outlier_print.c prints them
function outlier_rec(s,    f, n, win, cat, i, line, kind) {
	n = split(s, f, " ")
	win = f[6] * 1000 + 500
	for (i = split("hardirq softirq nmi thread other", cats, " "); i > 0; i--) cat[cats[i]] = 0
	if (f[7] == "other" || f[7] == "unexplained") cat["other"] = win
	else { cat[f[7]] = win - 500; cat["other"] = 500 }
	kind = n >= 8 ? f[8] : "-"
	line = sprintf("outlier seq=%s time_ns=%s latency_us=%s cause=%s cause_kind=%s cause_id=%s cause_name=%s window_ns=%d",
	    f[4], f[5], f[6], f[7], kind, n >= 9 ? f[9] : -1, n >= 10 ? f[10] : "-", win)
	line = line sprintf(" hardirq=%d softirq=%d nmi=%d thread=%d other=%d", cat["hardirq"], cat["softirq"], cat["nmi"],
	    cat["thread"], cat["other"])
	line = line sprintf(" victim_pid=%d victim_prio=80 victim_comm=rt_sleeper culprit_pid=%d culprit_prio=-21 culprit_comm=%s",
	    400 + f[4], kind == "thread" ? f[9] : 0, kind == "thread" ? f[10] : "swapper/" f[3])
	if (kind == "irq" || kind == "vector" || kind == "softirq")
		line = line "\n  " kind " " f[9] " " f[10] " 1 " (win - 500)
	else if (kind == "thread")
		line = line "\n  thread " f[9] " 1 " f[10] " " (win - 500)
	if (f[7] != "other" && f[7] != "unexplained")
		line = line "\n  idle 500"
	return line
}

# outlier_file - write TYPE/outliers-CPUc
function outlier_file(t, c, f,    k, n, first, next_seq, dropped, unexpl, last, a) {
	n = onr[t, c] + 0
	dropped = ((t, c, "dropped") in ohdr) ? ohdr[t, c, "dropped"] : 0
	unexpl = 0
	for (k = 1; k <= n; k++) {
		split(orec[t, c, k], a, " ")
		if (k == 1) first = a[4]
		last = a[4]
		if (a[7] == "unexplained") unexpl++
	}
	next_seq = n ? last + 1 : (((t, c, "next_seq") in ohdr) ? ohdr[t, c, "next_seq"] : 1)
	if (!n) first = next_seq
	if ((t, c, "first_seq") in ohdr) first = ohdr[t, c, "first_seq"]
	if ((t, c, "next_seq") in ohdr) next_seq = ohdr[t, c, "next_seq"]
	printf "#outliers budget_us=%d filed=%d kept=%d dropped=%d unexplained=%d first_seq=%d next_seq=%d realtime_offset_ns=%s\n",
	    budget[t], n + dropped, n, dropped, unexpl, first, next_seq,
	    ((t, c, "realtime_offset_ns") in ohdr) ? ohdr[t, c, "realtime_offset_ns"] : "1765000000000000000" > f
	for (k = 1; k <= n; k++) print outlier_rec(orec[t, c, k]) > f
	close(f)
}

# row_fields - the status fields of t's row in the module's type list
function row_fields(t,    sw, needs) {
	sw = switch_of(t)
	needs = sw == "timerandwakeup" ? "wakeup,missed_timer_offsets" : sw == "switchtime" ? "wakeup" : \
	    sw == "timerwakeupswitch" ? "timerandwakeup,switchtime" : "-"
	return sprintf(" switch=%s needs=%s pid=%d max=%d counters=%d syscall_slow_path=%d", sw, needs,
	    t == "wakeup" || t == "missed_timer_offsets", index(maxrec_types, " " t " ") > 0,
	    t !~ /^(timerandwakeup|switchtime|timerwakeupswitch|irq)$/, t == "switchtime")
}

# status_line - t's status line; an override without the row fields gets
# them before its reason (the module prints them there)
function status_line(t,    line, r) {
	if (!(t in status_over))
		return sprintf("%s available=1 enabled=%d bytes=%d%s", t, enabled[switch_of(t)] + 0,
		    enabled[switch_of(t)] ? 81920 * ncpus : 0, row_fields(t))
	line = t " " status_over[t]
	if (index(line, " switch=")) return line
	r = index(line, " reason=")
	if (!r) return line row_fields(t)
	return substr(line, 1, r - 1) row_fields(t) substr(line, r)
}

END {
	if (out == "") { print "fixture.awk: -v out=DIR missing" > "/dev/stderr"; exit 1 }
	system("mkdir -p '" out "/enable' '" out "/wakeup/sharedprio'")
	for (i = 1; i <= nhists; i++) {
		t = hists[i]
		if (!present[t]) continue
		d = out "/" t
		system("mkdir -p '" d "'")
		for (c = 0; c < ncpus; c++) {
			cpu_file(t, c, d "/CPU" c)
			if (index(maxrec_types, " " t " ")) {
				print ((t, c) in maxline) ? maxline[t, c] : "(none)" > (d "/max_latency-CPU" c)
				close(d "/max_latency-CPU" c)
			}
		}
		if (rows) rows_file(t, d "/rows")
		if (t in budget) {
			print budget[t] > (d "/outlier_us"); close(d "/outlier_us")
			for (c = 0; c < ncpus; c++) outlier_file(t, c, d "/outliers-CPU" c)
		}
		if (t in lines) { printf "%s", lines[t] > (d "/lines"); close(d "/lines") }
		if (t in vtasks) { printf "%s", vtasks[t] > (d "/tasks"); close(d "/tasks") }
		if (t in vcgroups) { printf "%s", vcgroups[t] > (d "/cgroups"); close(d "/cgroups") }
		printf "" > (d "/reset"); close(d "/reset")
		if (t == "wakeup" || t == "missed_timer_offsets") {
			print (t in pid) ? pid[t] : 0 > (d "/pid"); close(d "/pid")
		}
		if (summary) {
			print "#CPU samples min mean p50 p90 p99 p99.9 p99.99 max below above" > (d "/summary")
			for (c = 0; c < ncpus; c++) print summary_line(t, c) > (d "/summary")
			print summary_line(t, "all") > (d "/summary")
			close(d "/summary")
		}
	}
	if (!present["wakeup/sharedprio"] && !present["wakeup"]) system("rmdir '" out "/wakeup/sharedprio' '" out "/wakeup'")
	else if (!present["wakeup/sharedprio"]) system("rmdir '" out "/wakeup/sharedprio'")
	for (i = 1; i <= nsw; i++) {
		if (switches[i] == "irq" && !present["irq"]) continue
		print (switches[i] in enabled) ? enabled[switches[i]] : 0 > (out "/enable/" switches[i])
		close(out "/enable/" switches[i])
	}
	for (i = 1; i <= nhists; i++) {
		t = hists[i]
		if (!present[t]) continue
		print status_line(t) > (out "/status")
	}
	close(out "/status")
}
