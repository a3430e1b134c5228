# SPDX-License-Identifier: GPL-2.0
#
# hist.awk - LH_AWK_HIST, the readers of the files of the histograms and
# what prints them: the Prometheus text, percentiles, the CPUx and rows
# readers, summary, max_latency and lines. 20-read.sh includes it into a
# single-quoted shell word: no single quote below this header. A part of
# scripts/lh: see assemble.sh.

# esc - a Prometheus label value
function esc(s,    n, part, i, r) {
	# each backslash doubled by splitting at it: in a gsub replacement mawk
	# reads "\\\\" as one backslash, gawk and busybox as two
	n = split(s, part, "\\")
	r = part[1]
	for (i = 2; i <= n; i++) r = r "\\\\" part[i]
	gsub(/"/, "\\\"", r)
	return r
}
# secs - microseconds as seconds, as the Prometheus text has them
function secs(us) { return sprintf("%.6f", us / 1000000) }
# pout - print the line s to out ("" is stdout)
function pout(out, s) {
	if (out == "") print s
	else print s > out
}
# plabels - the labels of a series of type t (and CPU c unless ""): the
# host label only where host_label is set (Prometheus names the target in
# its own label, instance)
function plabels(t, c) {
	return "type=\"" esc(t) "\"" (c == "" ? "" : ",cpu=\"" c "\"") \
	    (host_label == "" ? "" : ",host=\"" esc(host_label) "\"")
}
# can_record - 0 if the status file says this kernel cannot record type t
function can_record(t) { return !(t in st_avail) || st_avail[t] }
# prom_text - the Prometheus text exposition to out ("" is stdout): for each
# type tl[1..nt] this kernel can record and each of its CPUs cl[t,
# 1..ncl[t]] that was read, the histogram (buckets at the le bounds in
# microseconds of bounds, _sum from hdr_sum, _count) and the max_latency
# gauge; then the enabled gauge of every such type of the status file, and
# the series of the per-line views read (lines_prom). Row
# N holds the samples of [N, N+1) us and the ones below 0 are below every
# bound (0 to 10240, buckets_arg), so le=B counts below + rows 0..B-1:
# exactly the samples <= B us; the ones >= 10240 are in +Inf only.
function prom_text(nt, tl, ncl, cl, out,    i, k, t, c, key, lbl, nb, bound, j, r, cum, nf, f) {
	nb = split(bounds, bound, " ")
	pout(out, "# HELP latency_hist_latency_seconds latency_hist per-CPU latency (1 us buckets, truncated), by type")
	pout(out, "# TYPE latency_hist_latency_seconds histogram")
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		for (k = 1; k <= ncl[t] && can_record(t); k++) {
			c = cl[t, k]; key = t SUBSEP c
			if (!(key in hdr_total)) continue
			lbl = plabels(t, c)
			cum = hdr_below[key]; j = 0
			nf = row_fields(key, f)
			for (r = 1; r < nf; r += 2) {
				while (j < nb && f[r] + 0 >= bound[j + 1] + 0) {
					j++
					pout(out, sprintf("latency_hist_latency_seconds_bucket{%s,le=\"%s\"} %.0f", lbl, secs(bound[j]), cum))
				}
				cum += f[r + 1]
			}
			while (j < nb) {
				j++
				pout(out, sprintf("latency_hist_latency_seconds_bucket{%s,le=\"%s\"} %.0f", lbl, secs(bound[j]), cum))
			}
			pout(out, sprintf("latency_hist_latency_seconds_bucket{%s,le=\"+Inf\"} %s", lbl, hdr_total[key]))
			pout(out, sprintf("latency_hist_latency_seconds_sum{%s} %s", lbl, secs(hdr_sum[key])))
			pout(out, sprintf("latency_hist_latency_seconds_count{%s} %s", lbl, hdr_total[key]))
		}
	}
	pout(out, "# HELP latency_hist_max_latency_seconds largest latency recorded since the last reset (NaN: none)")
	pout(out, "# TYPE latency_hist_max_latency_seconds gauge")
	for (i = 1; i <= nt; i++)
		for (k = 1; k <= ncl[tl[i]] && can_record(tl[i]); k++) {
			key = tl[i] SUBSEP cl[tl[i], k]
			if (!(key in hdr_total)) continue
			pout(out, sprintf("latency_hist_max_latency_seconds{%s} %s", plabels(tl[i], cl[tl[i], k]),
			    hdr_max[key] == "-" ? "NaN" : secs(hdr_max[key])))
		}
	pout(out, "# HELP latency_hist_enabled whether the histogram is recording (1) or not (0)")
	pout(out, "# TYPE latency_hist_enabled gauge")
	for (i = 1; i <= st_n; i++)
		if (can_record(st_order[i]))
			pout(out, sprintf("latency_hist_enabled{%s} %d", plabels(st_order[i], ""), st_en[st_order[i]]))
	lines_prom(nt, tl, out)
	views_prom(nt, tl, out)
}
# percentiles - the percentiles qnum[1..nq] / 10000 of total samples: below
# ones, then the ascending rows b[1..nb] (usecs) with counts n[], then the
# ones above the range; into p[1..nq] as the summary file defines them: the
# bucket where the cumulative count reaches rank ceil(q * total), "<0" or
# ">=10240" when that rank falls among the out-of-range samples
function percentiles(nb, b, n, below, total, nq, qnum, p,    i, k, r, cum, rk) {
	for (k = 1; k <= nq; k++) { p[k] = ">=10240"; r[k] = int((total * qnum[k] + 9999) / 10000) }
	k = 1
	cum = below
	while (k <= nq && cum >= r[k]) p[k++] = "<0"
	if (k > nq) return
	# (the next rank in a scalar: an element access per row costs more)
	rk = r[k]
	for (i = 1; i <= nb; i++) {
		cum += n[i]
		if (cum < rk) continue
		while (k <= nq && cum >= r[k]) p[k++] = b[i]
		if (k > nq) return
		rk = r[k]
	}
}
# jval - a file value as JSON: numbers as they are, "-" as null, else a string
function jval(s) {
	if (s == "-") return "null"
	if (s ~ /^-?[0-9]+(\.[0-9]+)?$/) return s
	return jstr(s)
}
# sort_num - sort the n values a[1..n] numerically ("all" last)
function sort_num(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) {
		t = a[i]
		for (j = i - 1; j >= 1 && numkey(a[j]) > numkey(t); j--) a[j + 1] = a[j]
		a[j + 1] = t
	}
}
function numkey(s) { return s == "all" ? 1e18 : s + 0 }
# path_type - the histogram a file belongs to, from its path under root
function path_type(f,    p) {
	p = substr(f, length(root) + 2)
	sub(/\/[^\/]*$/, "", p)
	return p
}
function add_cpu(t, c) {
	if (!((t, c) in have_cpu)) {
		have_cpu[t, c] = 1
		ncpu[t]++
		cpus[t, ncpu[t]] = c
	}
}
# row_begin - start the rows of a CPU: both readers append " USECS COUNT"
# to row_chunk, and every 64 rows the chunk to row_str (inline: it runs per
# row), so that a CPU with thousands of rows is not copied at every row
function row_begin() { row_str = ""; row_chunk = ""; row_nchunk = 0 }
# row_end - the rows appended since row_begin are those of key
function row_end(key) { hrows[key] = row_str row_chunk; row_str = ""; row_chunk = "" }
# row_fields - the rows of key into f[]: f[2i - 1] the usecs and f[2i] the
# count of its ith non-zero row, ascending; returns twice the number of rows
function row_fields(key, f) { return split(hrows[key], f, " ") }
# The CPUx reader, the only code that knows that format: 7 header lines,
# then the 10240 rows "%6d\t%16d" (usecs, count). cpux_begin(key, mode, f)
# starts the file f of key = TYPE SUBSEP CPU, cpux_line() takes its lines
# ($0, line number rd_ln) and cpux_end() checks what was read. The mode says
# how much of the file the caller reads:
#   "all"      every line (the reading commands): 10240 rows;
#   "nonzero"  the rows of 0 may be left out (lh monitor reads the files
#              through grep -vn, which drops them faster than awk);
#   "header"   the 7 header lines only (cpux_peek).
# What it keeps, per key: hdr_min, hdr_avg, hdr_max ("-" for <undef>),
# hdr_total, hdr_below, hdr_above, hdr_sum (the sum of the samples in us,
# see cpux_sum), and the non-zero rows in ascending order as one string,
# hrows[key] = " USECS COUNT USECS COUNT ..." (row_fields splits it). One
# string per CPU, not an array element per row: the rows are most of what a
# read takes, and an element per row costs several times a string append in
# every awk; a command that only passes rows on (lh monitor) copies
# the string whole.
#
# A module with the rows file (below) fills the same arrays from it, so no
# command after the reader knows which file they came from.
function cpux_begin(key, mode, f) {
	cx_key = key; cx_mode = mode; cx_file = f; cx_open = 1
	cx_hdr = 0; cx_rows = 0; cx_sum = 0
	row_begin()
}
function cpux_line(    key, v) {
	if (rd_ln > 7) {
		if (NF != 2 || $1 != rd_ln - 8 || $2 !~ /^[0-9]+$/ || rd_ln > 10247 ||
		    $0 != sprintf("%6d\t%16s", rd_ln - 8, $2)) bad("not a histogram row")
		cx_rows++
		if ($2 != "0") {
			row_chunk = row_chunk " " ($1 + 0) " " $2; cx_sum += $2
			if (++row_nchunk == 64) { row_str = row_str row_chunk; row_chunk = ""; row_nchunk = 0 }
		}
		return
	}
	key = cx_key
	if (rd_ln <= 3) {
		if ($0 !~ /^#(Minimum|Average|Maximum) latency: (<undef>|-?[0-9]+) microseconds$/) bad("not a CPUx header line")
		v = $3 == "<undef>" ? "-" : $3
		if (rd_ln == 1) hdr_min[key] = v
		else if (rd_ln == 2) hdr_avg[key] = v
		else hdr_max[key] = v
	} else if (rd_ln == 4) {
		if ($0 !~ /^#Total samples: [0-9]+$/) bad("not a #Total samples line")
		hdr_total[key] = $3
	} else if (rd_ln == 5) {
		if ($0 !~ /^#There are [0-9]+ samples lower than 0 microseconds\.$/) bad("not a lower-than line")
		hdr_below[key] = $3
	} else if (rd_ln == 6) {
		if ($0 !~ /^#There are [0-9]+ samples greater or equal than 10240 microseconds\.$/) bad("not a greater-or-equal line")
		hdr_above[key] = $3
	} else if ($0 != "#usecs\t         samples") bad("not the #usecs header")
	cx_hdr++
}
function cpux_end(    key) {
	key = cx_key
	cx_open = 0
	row_end(key)
	if (cx_mode == "all" && cx_rows != 10240) fail(cx_file ": " cx_rows " histogram rows, expected 10240")
	if (cx_hdr < 7) fail(cx_file ": cannot read it (module unloaded?)")
	if (cx_mode == "header") return
	if (cx_sum + hdr_below[key] + hdr_above[key] != hdr_total[key])
		fail(cx_file ": rows + lower + greater != #Total samples")
	hdr_sum[key] = cpux_sum(key)
}
# cpux_sum - the sum of the samples of key in us, from what CPUx files hold:
# exact for the rows. Of the samples out of range they have only the count,
# and min and max: one sample above is the max, n of them at least the max
# plus 10240 for each other; one sample below is the min, n of them at most
# the min minus 1 for each other. So the sum is exact while at most one
# sample is out of range on each side, and never decreases when samples of
# 0 us or more are added (a sum with samples below 0 is not a counter
# anyway). The rows file has the exact sum.
function cpux_sum(key,    r, sum, nf, f) {
	sum = 0
	nf = row_fields(key, f)
	for (r = 1; r < nf; r += 2) sum += f[r] * f[r + 1]
	if (hdr_above[key] > 0) sum += hdr_max[key] + (hdr_above[key] - 1) * 10240
	if (hdr_below[key] > 0) sum += hdr_min[key] - (hdr_below[key] - 1)
	return sum
}
# The rows file of a type, its CPUx files in short (module/hist_print.c):
#   #latency_hist rows 1
#   #CPU total below above min mean max sum
#   CPU<n> <total> <below> <above> <min> <mean> <max> <sum>   (each possible CPU)
#   <usecs> <count>                                           (its non-zero rows)
# min, mean and max as in the CPUx header ("-" without samples), sum exact.
# rows_begin(t, f) starts the file f of type t, rows_line() takes its lines
# ($0, rd_ln) and rows_end() checks what was read; they fill the arrays of
# the CPUx reader, for every CPU.
function rows_begin(t, f) {
	rw_type = t; rw_file = f; rw_open = 1; rw_key = ""
}
function rows_line(    c) {
	if (NF == 2 && rd_ln > 2) {
		# (the line as the module prints it: the regular expression checks
		# every character, and the line goes into hrows as it is)
		if (rw_key == "" || $0 !~ /^(0|[1-9][0-9]*) [1-9][0-9]*$/ || $1 + 0 >= 10240 || $1 + 0 <= rw_last)
			bad("not a row of the rows file")
		row_chunk = row_chunk " " $0; rw_sum += $2; rw_last = $1 + 0
		if (++row_nchunk == 64) { row_str = row_str row_chunk; row_chunk = ""; row_nchunk = 0 }
		return
	}
	if (rd_ln == 1) {
		if ($0 != "#latency_hist rows 1") bad("not a rows file of version 1")
		return
	}
	if (rd_ln == 2) {
		if ($0 != "#CPU total below above min mean max sum") bad("not the rows header")
		return
	}
	if (rw_key != "") rows_cpu_end()
	if (NF != 8 || $1 !~ /^CPU[0-9]+$/ || !is_uint($2) || !is_uint($3) || !is_uint($4) || !is_int($8) ||
	    $0 != $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $7 " " $8) bad("not a CPU line of the rows file")
	if ($2 == "0" ? $5 != "-" || $6 != "-" || $7 != "-" : !is_int($5) || !is_int($6) || !is_int($7))
		bad("min, mean and max are integers, or - without samples")
	c = substr($1, 4)
	if ((rw_file, c) in rw_seen) bad("CPU " c " twice")
	rw_seen[rw_file, c] = 1
	add_cpu(rw_type, c)
	rw_key = rw_type SUBSEP c; rw_sum = 0; rw_last = -1
	row_begin()
	hdr_total[rw_key] = $2; hdr_below[rw_key] = $3; hdr_above[rw_key] = $4
	hdr_min[rw_key] = $5; hdr_avg[rw_key] = $6; hdr_max[rw_key] = $7; hdr_sum[rw_key] = $8
}
function rows_cpu_end() {
	row_end(rw_key)
	if (rw_sum + hdr_below[rw_key] + hdr_above[rw_key] != hdr_total[rw_key])
		fail(rw_file ": CPU" substr(rw_key, length(rw_type) + 2) ": rows + below + above != total")
}
function rows_end() {
	rw_open = 0
	# (rd_ln: the last line read of the file)
	if (rd_ln < 2) fail(rw_file ": cannot read it (module unloaded?)")
	if (rw_key != "") rows_cpu_end()
}
# rows_read - the rows file f of type t (a program whose input is not the
# tree: lh monitor, hist_headers)
function rows_read(f, t,    n) {
	rows_begin(t, f)
	rd_file = f; rd_ln = 0
	while ((n = (getline < f)) > 0) { rd_ln++; rows_line() }
	close(f)
	if (n < 0) fail(f ": cannot read it (module unloaded?)")
	rows_end()
}
# shq - s as one single-quoted shell word
function shq(s,    out, i) {
	out = ""
	while ((i = index(s, "\047")) > 0) {
		out = out substr(s, 1, i - 1) "\047\\\047\047"
		s = substr(s, i + 1)
	}
	return "\047" out s "\047"
}
# cpux_read_nonzero - the header and non-zero rows of the CPUx files
# path[1..n] of the keys key[1..n], through one grep for all that drops the
# rows of 0 (mode nonzero); scratch is a file it may write
function cpux_read_nonzero(n, path, key, scratch,    cmd, k, rel, pre, line, s, i) {
	if (!n) return
	# The file names go into a script: awk compares the command string at
	# every getline, and a command naming 448 files costs more than grep.
	# Paths relative to the tree: grep puts one before every line.
	cmd = "cd " shq(root) " && exec grep -vnHF " shq("\t               0")
	for (k = 1; k <= n; k++) {
		rel[k] = substr(path[k], 1, length(root) + 1) == root "/" ? substr(path[k], length(root) + 2) : path[k]
		cmd = cmd " " shq(rel[k])
	}
	print cmd > scratch
	close(scratch)
	cmd = "sh " shq(scratch)
	k = 0
	while ((cmd | getline line) > 0) {
		if (k == 0 || substr(line, 1, length(pre)) != pre) {
			if (k) cpux_end()
			if (++k > n) fail("grep printed an unexpected line: \"" line "\"")
			pre = rel[k] ":"
			cpux_begin(key[k], "nonzero", path[k])
			rd_file = path[k]
			if (substr(line, 1, length(pre)) != pre) cpux_end()
		}
		s = substr(line, length(pre) + 1)
		i = index(s, ":")
		rd_ln = substr(s, 1, i - 1) + 0
		$0 = substr(s, i + 1)
		cpux_line()
	}
	close(cmd)
	if (k) cpux_end()
	if (k < n) { cpux_begin(key[k + 1], "nonzero", path[k + 1]); cpux_end() }
}
# cpux_peek - the header of the CPUx file f of key, without its rows (the
# module prints a row only when it is read)
function cpux_peek(f, key) {
	cpux_begin(key, "header", f)
	rd_file = f
	for (rd_ln = 1; rd_ln <= 7; rd_ln++) {
		if ((getline < f) <= 0) break
		cpux_line()
	}
	close(f)
	cpux_end()
}
# summary_line - check the line $0 (line rd_ln) of the summary file of type
# t; keep it in sum_line[t, c]; summary_done checks the whole file
function summary_line(t,    i, c) {
	if (rd_ln == 1) {
		if ($0 != "#CPU samples min mean p50 p90 p99 p99.9 p99.99 max below above") bad("not the summary header")
		have_summary[t] = 1
		return
	}
	if (NF != 12 || $0 != $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $7 " " $8 " " $9 " " $10 " " $11 " " $12)
		bad("a summary line has 12 fields separated by one space")
	c = $1
	if (!is_uint(c) && c != "all") bad("the first field is a CPU number or all")
	if (!is_uint($2) || !is_uint($11) || !is_uint($12)) bad("samples, below and above are counts")
	if ($2 == "0") {
		for (i = 3; i <= 10; i++) if ($i != "-") bad("without samples min..max are -")
	} else {
		if (!is_int($3) || !is_int($10)) bad("min and max are integers")
		if ($4 !~ /^-?[0-9]+\.[0-9][0-9]$/) bad("mean has two decimals")
		for (i = 5; i <= 9; i++)
			if (!is_uint($i) && $i != "<0" && $i != ">=10240") bad("a percentile is a bucket, <0 or >=10240")
	}
	if ($11 + $12 > $2 + 0) bad("below + above > samples")
	if ((t, c) in sum_line) bad("CPU " c " twice")
	sum_line[t, c] = $0
	if (c != "all") add_cpu(t, c)
	else have_all[t] = 1
}
function summary_done(t) {
	if ((t in have_summary) && !(t in have_all)) fail(root "/" t "/summary: no \"all\" line")
}
# summary_read - the summary file f of type t through summary_line (a
# program whose input is not the tree: lh monitor)
function summary_read(f, t,    n) {
	rd_file = f; rd_ln = 0
	while ((n = (getline < f)) > 0) { rd_ln++; summary_line(t) }
	close(f)
	if (n < 0 || !rd_ln) fail(f ": cannot read it (module unloaded?)")
	summary_done(t)
}
# summary_json - one summary line as a JSON object
function summary_json(line,    f) {
	split(line, f, " ")
	return "{\"samples\": " f[2] ", \"min\": " jval(f[3]) ", \"mean\": " jval(f[4]) \
	    ", \"p50\": " jval(f[5]) ", \"p90\": " jval(f[6]) ", \"p99\": " jval(f[7]) \
	    ", \"p99.9\": " jval(f[8]) ", \"p99.99\": " jval(f[9]) ", \"max\": " jval(f[10]) \
	    ", \"below\": " f[11] ", \"above\": " f[12] "}"
}
# maxrec_parse - check one max_latency-CPUx line other than "(none)",
# "VPID VPRIO LAT (TIMEROFFSET) VCOMM <- CPID CPRIO CCOMM TIMESTAMP"; keep its
# fields in mr_vpid, mr_vprio, mr_lat, mr_toff, mr_vcomm, mr_cpid, mr_cprio,
# mr_ccomm, mr_ts (valid until the next call); returns 0 if it is not one
function maxrec_parse(line,    v, cu, a) {
	if (!index(line, " <- ")) return 0
	v = substr(line, 1, index(line, " <- ") - 1)
	cu = substr(line, index(line, " <- ") + 4)
	if (split(v, a, " ") < 5 || !is_int(a[1]) || !is_int(a[2]) || !is_int(a[3]) || a[4] !~ /^\(-?[0-9]+\)$/) return 0
	mr_toff = substr(a[4], 2, length(a[4]) - 2)
	mr_vcomm = v; sub(/^[^ ]+ [^ ]+ [^ ]+ [^ ]+ /, "", mr_vcomm)
	mr_vpid = a[1]; mr_vprio = a[2]; mr_lat = a[3]
	if (split(cu, a, " ") < 4 || !is_int(a[1]) || !is_int(a[2])) return 0
	mr_cpid = a[1]; mr_cprio = a[2]
	mr_ts = cu; sub(/^.* /, "", mr_ts)
	if (mr_ts !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/) return 0
	mr_ccomm = cu; sub(/^[^ ]+ [^ ]+ /, "", mr_ccomm); sub(/ [^ ]+$/, "", mr_ccomm)
	return 1
}
# maxrec_json - one max_latency-CPUx line as JSON (null for "(none)"; "" if
# it is not a max_latency line)
function maxrec_json(line) {
	if (line == "(none)") return "null"
	if (!maxrec_parse(line)) return ""
	return "{\"latency\": " mr_lat ", \"timeroffset\": " mr_toff \
	    ", \"victim\": {\"pid\": " mr_vpid ", \"prio\": " mr_vprio ", \"comm\": " jstr(mr_vcomm) "}" \
	    ", \"culprit\": {\"pid\": " mr_cpid ", \"prio\": " mr_cprio ", \"comm\": " jstr(mr_ccomm) "}" \
	    ", \"timestamp\": " mr_ts "}"
}
# The lines file of a type with a per-line view (irq/lines, softirq/lines;
# module/irq_lines.c), one reader for every such type and for the per-task
# and per-cgroup views (TYPE/tasks, TYPE/cgroups, read as type
# "TYPE/tasks": views.awk), which have its shape:
#   #WHY VALUE           why there are lines ("#threaded PREEMPT_RT")
#   #LABEL name samples min mean p99 p99.9 max max_cpu culprit_pid culprit
#   ID NAME SAMPLES MIN MEAN P99 P99.9 MAX CPU PID COMM   (one per line)
#   #other N             the wakeups the table of the module had no room for
# LABEL names what a line is (irq, vector) and becomes the label of its
# series in Prometheus; COMM is last and may hold spaces. lines_line(t)
# takes the lines ($0, rd_ln) of the file of t; lines_done(t) checks it was
# whole. Per type: ln_why[t], ln_label[t], ln_n[t], ln_other[t]; per line
# i: ln_id[t, i], ln_name, ln_st[t, i] (SAMPLES..PID as read, one string)
# and ln_comm.
function lines_line(t,    i) {
	if (rd_ln == 1) {
		if ($0 !~ /^#[a-z_]+ [^ ]+$/) bad("not the first line of a lines file")
		ln_why[t] = substr($1, 2) " " $2; ln_n[t] = 0
		return
	}
	if (rd_ln == 2) {
		if ($0 !~ /^#[a-z_]+ name samples min mean p99 p99\.9 max max_cpu culprit_pid culprit$/)
			bad("not the header of a lines file")
		ln_label[t] = substr($1, 2)
		# (the label of its series: not one lh gives them already)
		if (ln_label[t] ~ /^(type|cpu|host|name|stat|le|quantile|__.*)$/) bad("a label lh cannot use")
		return
	}
	if (t in ln_other) bad("a line after #other")
	if ($1 == "#other") {
		if (NF != 2 || !is_uint($2)) bad("not an #other line")
		ln_other[t] = $2
		return
	}
	if (NF < 11 || !is_uint($1) || !is_uint($3) || !is_int($4) || $5 !~ /^-?[0-9]+\.[0-9][0-9]$/ ||
	    !is_int($6) || !is_int($7) || !is_int($8) || !is_uint($9) || !is_int($10) ||
	    $0 != $1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $7 " " $8 " " $9 " " $10 " " substr($0, length($1 " " $2 " " $3 " " $4 " " $5 " " $6 " " $7 " " $8 " " $9 " " $10) + 2))
		bad("not a line of a lines file")
	if ($3 == "0" || $4 + 0 > $8 + 0 || $6 + 0 > $7 + 0 || $7 + 0 > $8 + 0) bad("min <= p99 <= p99.9 <= max, with samples")
	i = ++ln_n[t]
	ln_id[t, i] = $1; ln_name[t, i] = $2
	ln_st[t, i] = $3 " " $4 " " $5 " " $6 " " $7 " " $8 " " $9 " " $10
	ln_comm[t, i] = substr($0, length($1 " " $2 " " ln_st[t, i]) + 2)
}
function lines_done(t) {
	# (a per-task or per-cgroup view is read as type "TYPE/tasks", views.awk)
	if (!(t in ln_label) || !(t in ln_other))
		fail(root "/" t (t ~ /\/(tasks|cgroups)$/ ? "" : "/lines") ": no header or no #other line (cut short?)")
}
# lines_read - the lines file f of type t (a program whose input is not the
# tree: lh monitor)
function lines_read(f, t,    n) {
	rd_file = f; rd_ln = 0
	while ((n = (getline < f)) > 0) { rd_ln++; lines_line(t) }
	close(f)
	if (n < 0 || rd_ln < 2) fail(f ": cannot read it (module unloaded?)")
	lines_done(t)
}
# lines_json - the lines of type t as JSON: {"why", "label", "other",
# "lines": [{"id", "name", "samples", "min", "mean", "p99", "p99.9", "max",
# "max_cpu", "culprit": {"pid", "comm"}}]}; null without a lines file
function lines_json(t,    i, f, out) {
	if (!(t in ln_other)) return "null"
	out = "{\"why\": " jstr(ln_why[t]) ", \"label\": " jstr(ln_label[t]) ", \"other\": " ln_other[t] ", \"lines\": ["
	for (i = 1; i <= ln_n[t]; i++) {
		split(ln_st[t, i], f, " ")
		out = out (i > 1 ? ", " : "") "{\"id\": " ln_id[t, i] ", \"name\": " jstr(ln_name[t, i]) ", \"samples\": " f[1] \
		    ", \"min\": " f[2] ", \"mean\": " f[3] ", \"p99\": " f[4] ", \"p99.9\": " f[5] ", \"max\": " f[6] \
		    ", \"max_cpu\": " f[7] ", \"culprit\": {\"pid\": " f[8] ", \"comm\": " jstr(ln_comm[t, i]) "}}"
	}
	return out "]}"
}
# lines_prom - the series of the per-line views of the types tl[1..nt] to
# out: samples (a counter: a reset starts it again) and min, mean, p99,
# p99.9, max (one gauge, label stat) per line, labelled LABEL=ID and name;
# two lines of one ID and name (two devices of one name sharing a line)
# get "name#2" and so on, as a scrape must not see a series twice
function lines_prom(nt, tl, out,    i, k, t, f, lbl, key, seen, stat, j, any) {
	for (i = 1; i <= nt; i++) if ((tl[i] in ln_other) && can_record(tl[i])) any = 1
	if (!any) return
	split("min mean p99 p99.9 max", stat, " ")
	pout(out, "# HELP latency_hist_line_samples_total samples of each line of a per-line view (irq/lines, softirq/lines) since its reset")
	pout(out, "# TYPE latency_hist_line_samples_total counter")
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		if (!(t in ln_other) || !can_record(t)) continue
		for (k = 1; k <= ln_n[t]; k++) {
			key = t SUBSEP ln_id[t, k] SUBSEP ln_name[t, k]
			lbl = plabels(t, "") "," ln_label[t] "=\"" ln_id[t, k] "\",name=\"" esc(ln_name[t, k]) \
			    (++seen[key] > 1 ? "#" seen[key] : "") "\""
			ln_lbl[t, k] = lbl
			split(ln_st[t, k], f, " ")
			pout(out, "latency_hist_line_samples_total{" lbl "} " f[1])
		}
	}
	pout(out, "# HELP latency_hist_line_latency_seconds min, mean, p99, p99.9 and max of each line of a per-line view since its reset (label stat)")
	pout(out, "# TYPE latency_hist_line_latency_seconds gauge")
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		if (!(t in ln_other) || !can_record(t)) continue
		for (k = 1; k <= ln_n[t]; k++) {
			split(ln_st[t, k], f, " ")
			for (j = 1; j <= 5; j++)
				pout(out, "latency_hist_line_latency_seconds{" ln_lbl[t, k] ",stat=\"" stat[j] "\"} " \
				    (j == 2 ? sprintf("%.8f", f[3] / 1000000) : secs(f[j + 1])))
		}
	}
	pout(out, "# HELP latency_hist_line_other_total wakeups of a per-line view that its table had no room for, since the type was enabled")
	pout(out, "# TYPE latency_hist_line_other_total counter")
	for (i = 1; i <= nt; i++)
		if ((tl[i] in ln_other) && can_record(tl[i]))
			pout(out, "latency_hist_line_other_total{" plabels(tl[i], "") "} " ln_other[tl[i]])
}
