# SPDX-License-Identifier: GPL-2.0
#
# outlier.awk - LH_AWK_OUTLIER, the one reader of the outlier logs,
# <type>/outliers-CPUx (Documentation/latency_hist.rst, "Outliers"), and
# the wall clock of their records, their JSON and Prometheus counters.
# Needs base.awk and hist.awk (LH_AWK_LIB). 20-read.sh includes it
# into a single-quoted shell word: no single quote below this header. A
# part of scripts/lh: see assemble.sh.

# outlier_file - the file FILENAME (root/TYPE/outliers-CPUc) starts: ends
# the one before it (outlier_done) and begins this one (outlier_begin)
function outlier_file(root,    t, c) {
	if (ol_nlogs) outlier_done()
	rd_file = FILENAME; ol_seen[FILENAME] = 1
	t = FILENAME; sub(/\/outliers-CPU[0-9]+$/, "", t); t = substr(t, length(root) + 2)
	c = FILENAME; sub(/^.*\/outliers-CPU/, "", c)
	outlier_begin(t, c)
}
# outlier_end - after the last file: fail on a file of ARGV that was empty
function outlier_end(    i) {
	if (ol_nlogs) outlier_done()
	for (i = 1; i < ARGC; i++)
		if (ARGV[i] !~ /^[A-Za-z_][A-Za-z0-9_]*=/ && !(ARGV[i] in ol_seen)) fail(ARGV[i] ": empty file")
}
# outlier_begin - the file rd_file of (t, c) starts: its header comes next
function outlier_begin(t, c) {
	ol_key = t SUBSEP c; ol_t = t; ol_c = c; ol_hdr = 0; ol_last = -1; ol_rec = 0
	ol_order[++ol_nlogs] = ol_key
}
# outlier_line - check the line $0 of the log begun last. The header goes
# to oh_budget, oh_filed, oh_kept, oh_dropped, oh_unexpl, oh_first, oh_next
# and oh_off (realtime_offset_ns, a string: it needs more than 53 bits), per
# key (t SUBSEP c); record i (1..o_n, in file order) to o_key[i], o_t[i],
# o_c[i], o_f[i, FIELD] for each key=value field, and its detail lines
# (without their two blanks) to o_d[i, 1..o_nd[i]]
function outlier_line(    i, k, kv, want) {
	if (!ol_hdr) {
		if ($0 !~ /^#outliers budget_us=[0-9]+ filed=[0-9]+ kept=[0-9]+ dropped=[0-9]+ unexplained=[0-9]+ first_seq=[0-9]+ next_seq=[0-9]+ realtime_offset_ns=-?[0-9]+$/)
			bad("expected \"#outliers budget_us=<n> filed=<n> kept=<n> dropped=<n> unexplained=<n> first_seq=<n> next_seq=<n> realtime_offset_ns=<n>\"")
		for (k = 2; k <= NF; k++) { split($k, kv, "="); oh_hdr[kv[1]] = kv[2] }
		oh_budget[ol_key] = oh_hdr["budget_us"]; oh_filed[ol_key] = oh_hdr["filed"]
		oh_kept[ol_key] = oh_hdr["kept"]; oh_dropped[ol_key] = oh_hdr["dropped"]
		oh_unexpl[ol_key] = oh_hdr["unexplained"]; oh_first[ol_key] = oh_hdr["first_seq"]
		oh_next[ol_key] = oh_hdr["next_seq"]; oh_off[ol_key] = oh_hdr["realtime_offset_ns"]
		if (oh_kept[ol_key] + oh_dropped[ol_key] != oh_filed[ol_key]) bad("kept + dropped is not filed")
		if (oh_kept[ol_key] > 0 && oh_first[ol_key] + oh_kept[ol_key] != oh_next[ol_key]) bad("first_seq + kept is not next_seq")
		ol_hdr = 1
		return
	}
	if ($1 == "outlier") {
		if (!ol_fields_n)
			ol_fields_n = split("seq time_ns latency_us cause cause_kind cause_id cause_name window_ns hardirq softirq nmi thread other victim_pid victim_prio victim_comm culprit_pid culprit_prio culprit_comm", ol_fields, " ")
		i = ++o_n
		o_key[i] = ol_key; o_t[i] = ol_t; o_c[i] = ol_c; o_nd[i] = 0
		for (k = 2; k <= NF; k++) {
			want = ol_fields[k - 1]
			if (!index($k, "=") || (k <= ol_fields_n + 1 && substr($k, 1, length(want) + 1) != want "="))
				bad("expected the fields " (want == "" ? "key=value" : want "=") " (outlier seq= time_ns= latency_us= cause= ... culprit_comm=)")
			o_f[i, substr($k, 1, index($k, "=") - 1)] = substr($k, index($k, "=") + 1)
		}
		if (NF <= ol_fields_n) bad("a record line without culprit_comm=")
		if (!is_uint(o_f[i, "seq"]) || !is_uint(o_f[i, "time_ns"]) || !is_int(o_f[i, "latency_us"]) || !is_uint(o_f[i, "window_ns"]))
			bad("seq, time_ns, window_ns and latency_us are numbers")
		if (o_f[i, "cause"] !~ /^(hardirq|softirq|nmi|thread|other|unexplained)$/) bad("cause is hardirq, softirq, nmi, thread, other or unexplained")
		if (o_f[i, "seq"] + 0 <= ol_last || o_f[i, "seq"] + 0 < oh_first[ol_key] || o_f[i, "seq"] + 0 >= oh_next[ol_key])
			bad("seq out of order or outside first_seq..next_seq")
		if (++ol_rec > oh_kept[ol_key]) bad("more records than kept")
		ol_last = o_f[i, "seq"] + 0
		if (o_f[i, "hardirq"] + o_f[i, "softirq"] + o_f[i, "nmi"] + o_f[i, "thread"] + o_f[i, "other"] != o_f[i, "window_ns"])
			bad("the categories do not add up to window_ns")
		return
	}
	if (!o_n || o_key[o_n] != ol_key) bad("a detail line before any record")
	if ($0 !~ /^  (irq|vector|softirq|thread|thread-rest|idle|uncovered|more) /) bad("not a detail line of explain-CPUx")
	o_d[o_n, ++o_nd[o_n]] = substr($0, 3)
}
# outlier_done - the log begun last is complete
function outlier_done() {
	if (!ol_hdr) fail(rd_file ": empty file")
}
# ol_wall - the wall clock of record i as "S N" (epoch seconds, ns), the sum
# of time_ns and the header realtime_offset_ns in two parts: each needs
# more than the 53 bits of an awk number
function ol_wall(i,    off, ns, s, sec) {
	off = oh_off[o_key[i]]; ns = o_f[i, "time_ns"]
	if (off ~ /^-/) {
		s = ns + off
		return int(s / 1e9) " " (s % 1e9)
	}
	sec = ol_dec(length(off) > 9 ? substr(off, 1, length(off) - 9) : 0) + ol_dec(length(ns) > 9 ? substr(ns, 1, length(ns) - 9) : 0)
	s = ol_dec(substr(off, length(off) > 9 ? length(off) - 8 : 1)) + ol_dec(substr(ns, length(ns) > 9 ? length(ns) - 8 : 1))
	if (s >= 1e9) { sec++; s -= 1e9 }
	return sec " " s
}
# ol_dec - the decimal digits d as a number (busybox awk reads a leading 0
# as octal)
function ol_dec(d) {
	sub(/^0+/, "", d)
	return d + 0
}
# ol_civil - epoch seconds s as "YYYY-MM-DD HH:MM:SS" UTC (the days from
# 1970 to a civil date: H. Hinnant, chrono-Compatible Low-Level Date
# Algorithms; awk has no portable strftime)
function ol_civil(s,    z, era, doe, yoe, y, doy, mp, d, m, r) {
	r = s % 86400; z = (s - r) / 86400 + 719468
	era = int(z / 146097); doe = z - era * 146097
	yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
	y = yoe + era * 400; doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
	mp = int((5 * doy + 2) / 153); d = doy - int((153 * mp + 2) / 5) + 1
	m = mp < 10 ? mp + 3 : mp - 9
	if (m <= 2) y++
	return sprintf("%04d-%02d-%02d %02d:%02d:%02d", y, m, d, int(r / 3600), int(r % 3600 / 60), r % 60)
}
# outlier_prom - the outlier counters to out ("" is stdout; needs hist.awk)
# for the logs keys[1..n] (t SUBSEP c): latency_hist_outliers_total from
# cnt[key, cause] for every cause, latency_hist_outliers_dropped_total from
# drop[key]
function outlier_prom(out, n, keys, cnt, drop,    k, j, tc, nc, causes) {
	nc = split("hardirq softirq nmi thread other unexplained", causes, " ")
	pout(out, "# HELP latency_hist_outliers_total samples at or over the type budget (outlier_us), by cause")
	pout(out, "# TYPE latency_hist_outliers_total counter")
	for (k = 1; k <= n; k++) {
		split(keys[k], tc, SUBSEP)
		for (j = 1; j <= nc; j++)
			pout(out, sprintf("latency_hist_outliers_total{%s,cause=\"%s\"} %.0f", plabels(tc[1], tc[2]), causes[j], cnt[keys[k], causes[j]]))
	}
	pout(out, "# HELP latency_hist_outliers_dropped_total outlier records the full log dropped, oldest first")
	pout(out, "# TYPE latency_hist_outliers_dropped_total counter")
	for (k = 1; k <= n; k++) {
		split(keys[k], tc, SUBSEP)
		pout(out, sprintf("latency_hist_outliers_dropped_total{%s} %.0f", plabels(tc[1], tc[2]), drop[keys[k]]))
	}
}
# outlier_json - record i as JSON (Documentation/lh.rst, "outliers")
function outlier_json(i,    w, s, d) {
	split(ol_wall(i), w, " ")
	s = "{\"type\": " jstr(o_t[i]) ", \"cpu\": " o_c[i] ", \"seq\": " o_f[i, "seq"] ", \"time_ns\": " o_f[i, "time_ns"] \
	    ", \"time\": " jstr(sprintf("%sT%s.%06dZ", substr(ol_civil(w[1]), 1, 10), substr(ol_civil(w[1]), 12), int(w[2] / 1000))) \
	    ", \"latency_us\": " o_f[i, "latency_us"] ", \"cause\": " jstr(o_f[i, "cause"]) ", \"cause_detail\": " \
	    (o_f[i, "cause_kind"] == "-" ? "null" : "{\"kind\": " jstr(o_f[i, "cause_kind"]) ", \"id\": " o_f[i, "cause_id"] \
	    ", \"name\": " jstr(o_f[i, "cause_name"]) "}") ", \"window_ns\": " o_f[i, "window_ns"] \
	    ", \"hardirq\": " o_f[i, "hardirq"] ", \"softirq\": " o_f[i, "softirq"] ", \"nmi\": " o_f[i, "nmi"] \
	    ", \"thread\": " o_f[i, "thread"] ", \"other\": " o_f[i, "other"] \
	    ", \"victim\": " ol_task_json(i, "victim") ", \"culprit\": " ol_task_json(i, "culprit") ", \"details\": ["
	for (d = 1; d <= o_nd[i]; d++) s = s (d > 1 ? ", " : "") jstr(o_d[i, d])
	return s "]}"
}
# ol_task_json - the JSON of role (victim, culprit) of record i
function ol_task_json(i, role) {
	return "{\"pid\": " o_f[i, role "_pid"] ", \"prio\": " o_f[i, role "_prio"] ", \"comm\": " jstr(o_f[i, role "_comm"]) "}"
}
