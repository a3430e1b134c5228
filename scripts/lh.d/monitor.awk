# SPDX-License-Identifier: GPL-2.0
#
# monitor.awk - LH_MON_AWK, the awk program of one lh monitor read: the
# state and rows of the last read, the diff, the series record, the
# Prometheus file. 80-monitor.sh includes it into a single-quoted shell
# word: no single quote below this header. A part of scripts/lh: see
# assemble.sh.

# jv - an interval value as JSON: "" is null, a number as it is, else a string
function jv(v) { return v == "" ? "null" : v ~ /^-?[0-9]+$/ ? v : "\"" v "\"" }
# read_state - the previous read (DIR/monitor.state); have_state = 1 if
# complete. A state of version 1 (lh before the rows file of the monitor)
# holds the rows of each CPU on its C line: prow[key] from there, rows_ok = 1.
function read_state(    line, f, k, v, key, v1) {
	if ((getline line < statef) <= 0) { close(statef); return }
	v1 = line == "lh_monitor_state 1"
	if (line != state_header && !v1) { state_err = "unknown format"; close(statef); return }
	rows_ok = v1
	while ((getline line < statef) > 0) {
		split(line, f, " ")
		k = f[1]
		v = line; sub(/^[^ ]+ ?/, "", v)
		key = f[2] SUBSEP f[3]
		if (k == "C") {
			ph_total[key] = f[4]; ph_below[key] = f[5]; ph_above[key] = f[6]
			in_state[key] = 1; s_nc++
			if (v1) { prow[key] = line; sub(/^C [^ ]+ [^ ]+ [^ ]+ [^ ]+ [^ ]+/, "", prow[key]) }
		} else if (k == "rows") { s_rows = f[2]; s_rows_id = f[3] }
		else if (k == "M") {
			sub(/^[^ ]+ [^ ]+ /, "", v); pmax[key] = v; s_nm++
		} else if (k == "T") { s_type[f[2]] = 1; pen[f[2]] = f[3] + 0; s_nt++ }
		else if (k == "host") s_host = v
		else if (k == "root") s_root = v
		else if (k == "boot") s_boot = v
		else if (k == "inode") s_inode = v
		else if (k == "time_epoch_s") s_time = v
		else if (k == "end") s_end = 1
	}
	close(statef)
	if (!s_end || s_time !~ /^[0-9]+$/) { state_err = "truncated"; return }
	have_state = 1
}
# read_rows - the rows of the previous read (prow[key], as hrows), from the
# rows file the state names; rows_ok = 1 if it is the one the state wrote
# with (its id) and complete. The next diff needs nothing else of the last
# read than the state and these rows.
function read_rows(    line, f, n) {
	if (rows_ok || s_rows != rowsf || (getline line < rowsf) <= 0) { close(rowsf); return }
	if (line != "lh_monitor_rows 1 " s_rows_id) { close(rowsf); return }
	while ((getline line < rowsf) > 0) {
		if (line == "end") { rows_ok = 1; break }
		n = split(line, f, " ")
		prow[f[1], f[2]] = line; sub(/^[^ ]+ [^ ]+/, "", prow[f[1], f[2]])
	}
	close(rowsf)
}
# read_max - the max record of key: cmax (the line), cmax_json, cmax_lat
function read_max(f, key,    line, j) {
	if ((getline line < f) <= 0) { close(f); fail(f ": cannot read it (module unloaded?)") }
	close(f)
	cmax[key] = line
	if (line == "(none)") return
	j = maxrec_json(line)
	if (j == "") fail(f ": not a max_latency line: \"" line "\"")
	cmax_json[key] = j
	cmax_lat[key] = mr_lat + 0
}
# diff_cpu - what key gained since the previous read: db[1..nd], dn[] (rows,
# ascending), dsum (their sum), dbelow, dabove; mchg = 1 if its max record
# changed. A count that went down (a reset, a reload) makes the whole
# histogram new: every sample in it came after the previous read.
function diff_cpu(t, key,    i, j, n, b, p, dec, a, nc, cf, pf, cn, pb) {
	nd = 0; dsum = 0; dbelow = 0; dabove = 0; mchg = 0
	# a CPU the previous read did not have: its counts have no start
	if (zero_all == "" && (!(key in in_state) || !changed[key])) return 0
	dec = zero_all != ""
	nc = row_fields(key, cf)
	if (!dec) {
		dec = hdr_below[key] + 0 < ph_below[key] + 0 || hdr_above[key] + 0 < ph_above[key] + 0
		# both row lists ascend: walk them side by side (each element read
		# once into a scalar: this loop runs for every row of every CPU)
		n = split(prow[key], pf, " ")
		j = 1
		for (i = 1; i < nc && !dec; i += 2) {
			b = cf[i] + 0; cn = cf[i + 1] + 0
			p = 0
			if (j < n) {
				pb = pf[j] + 0
				if (pb < b) dec = 1
				else if (pb == b) { p = pf[j + 1] + 0; j += 2 }
			}
			if (cn < p) dec = 1
			else if (cn > p) { db[++nd] = b; dn[nd] = cn - p; dsum += cn - p }
		}
		if (j < n) dec = 1
		if (!dec && (key in pmax) && pmax[key] != "(none)") {
			split(pmax[key], a, " ")
			if (!(key in cmax) || cmax[key] == "(none)" || cmax_lat[key] < a[3] + 0) dec = 1
		}
		if (dec) reset_cpus[t] = reset_cpus[t] (reset_cpus[t] == "" ? "" : " ") key_cpu[key]
		if (!dec) {
			dbelow = hdr_below[key] - ph_below[key]; dabove = hdr_above[key] - ph_above[key]
			mchg = (key in cmax) && (!(key in pmax) || cmax[key] != pmax[key])
			return 1
		}
	}
	nd = 0; dsum = 0
	for (i = 1; i < nc; i += 2) { cn = cf[i + 1] + 0; db[++nd] = cf[i] + 0; dn[nd] = cn; dsum += cn }
	dbelow = hdr_below[key] + 0; dabove = hdr_above[key] + 0
	mchg = (key in cmax) && cmax[key] != "(none)"
	return 1
}
# xstats - samples, min, max and percentiles of db/dn/dbelow/dabove, with
# dsum the sum of dn[] (which their producer adds up as it goes; the
# rank helper of the selftests is hl_kth_largest in selftests/hist_lib.sh;
# lh is installed alone on rigs, so it keeps its awk percentiles)
function xstats(    i, k) {
	x_samples = dbelow + dabove + dsum
	x_below = dbelow; x_above = dabove
	if (!x_samples) {
		for (k = 1; k <= nq; k++) x_p[k] = ""
		x_min = x_max = ""
		return
	}
	x_min = dbelow ? "<0" : nd ? db[1] : ">=10240"
	x_max = dabove ? ">=10240" : nd ? db[nd] : "<0"
	percentiles(nd, db, dn, dbelow, x_samples, nq, qnum, x_p)
}
# rec_head - a record of the series up to its "above" field
function rec_head(jt, c) {
	return "{\"time\": " jnow ", \"time_epoch_s\": " now_s ", \"interval_s\": " ivl ", \"type\": " jt \
	    ", \"cpu\": \"" c "\", \"samples\": " sprintf("%.0f", x_samples) ", \"min_us\": " jv(x_min) \
	    ", \"max_us\": " jv(x_max) ", \"p50_us\": " jv(x_p[1]) ", \"p90_us\": " jv(x_p[2]) \
	    ", \"p99_us\": " jv(x_p[3]) ", \"p99.9_us\": " jv(x_p[4]) ", \"p99.99_us\": " jv(x_p[5]) \
	    ", \"below\": " sprintf("%.0f", x_below) ", \"above\": " sprintf("%.0f", x_above)
}
# event_head - an event line of the series up to its "event" field
function event_head(name) {
	return "{\"time\": " jnow ", \"time_epoch_s\": " now_s ", \"event\": \"" name "\""
}
# cpu_list - the CPUs of key list s ("0 1 5") as a JSON array
function cpu_list(s,    a, n, i, out) {
	n = split(s, a, " ")
	out = "["
	for (i = 1; i <= n; i++) out = out (i > 1 ? ", " : "") "\"" a[i] "\""
	return out "]"
}
# type_diffs - diff every CPU of type t: the CPU records into tbuf[1..ntb],
# the rows gained on all CPUs into merged[] (mmin..mmax), mbelow, mabove;
# returns the samples gained
function type_diffs(t,    k, c, key, jt, mx, mj, gained, i) {
	jt = jstr(t)
	ntb = 0; gained = 0; unres = 0; resmax = ""
	mmin = 10240; mmax = -1; mbelow = 0; mabove = 0
	delete merged
	for (k = 1; k <= ncl[t]; k++) {
		c = cl[t, k]; key = t SUBSEP c
		diff_cpu(t, key)
		xstats()
		mx = x_max; mj = "null"
		if (mchg) {
			if (mx == ">=10240" && cmax_lat[key] >= 10240) mx = cmax_lat[key]
			if (mx == cmax_lat[key] "") mj = cmax_json[key]
		}
		if (mx == ">=10240") unres++
		else if (dabove && (resmax == "" || mx + 0 > resmax + 0)) resmax = mx
		imax[key] = mx
		x_max = mx
		tbuf[++ntb] = rec_head(jt, c) ", \"max_latency\": " mj "}"
		gained += x_samples
		# (db ascends)
		if (nd && db[1] < mmin) mmin = db[1]
		if (nd && db[nd] > mmax) mmax = db[nd]
		for (i = 1; i <= nd; i++) merged[db[i]] += dn[i]
		mbelow += dbelow; mabove += dabove
	}
	return gained
}
# type_records - append the records of type_diffs to the series, and the
# all-CPU record with its histogram (printed in pieces: a string built row by
# row would cost the square of the rows)
function type_records(t,    k, b, sep) {
	for (k = 1; k <= ntb; k++) print tbuf[k] >> series
	nd = 0; dsum = 0
	for (b = mmin; b <= mmax; b++)
		if (b in merged) { db[++nd] = b; dn[nd] = merged[b]; dsum += merged[b] }
	dbelow = mbelow; dabove = mabove
	xstats()
	if (mabove && !unres && resmax != "") x_max = resmax
	printf "%s, \"histogram\": {", rec_head(jstr(t), "all") >> series
	sep = ""
	for (k = 1; k <= nd; k++) {
		printf "%s\"%d\": %.0f", sep, db[k], dn[k] >> series
		sep = ", "
	}
	print "}, \"max_latency\": null}" >> series
}
# prom_write - the Prometheus textfile: what `lh prom` prints for the
# monitored histograms, and the maximum of the interval just read
function prom_write(    i, k, key, v) {
	prom_text(nt, tl, ncl, cl, promtmp)
	print "# HELP latency_hist_interval_max_latency_seconds largest latency of the last lh monitor interval (NaN: no sample, +Inf: >= 10240 us without a max record, -Inf: only samples below 0)" > promtmp
	print "# TYPE latency_hist_interval_max_latency_seconds gauge" > promtmp
	for (i = 1; i <= nt; i++)
		for (k = 1; k <= ncl[tl[i]] && can_record(tl[i]); k++) {
			key = tl[i] SUBSEP cl[tl[i], k]
			v = (key in imax) ? imax[key] : ""
			v = v == "" ? "NaN" : v == ">=10240" ? "+Inf" : v == "<0" ? "-Inf" : secs(v)
			printf "latency_hist_interval_max_latency_seconds{%s} %s\n", plabels(tl[i], cl[tl[i], k]), v > promtmp
		}
	print "# HELP latency_hist_monitor_read_timestamp_seconds when lh monitor last read the histograms" > promtmp
	print "# TYPE latency_hist_monitor_read_timestamp_seconds gauge" > promtmp
	printf "latency_hist_monitor_read_timestamp_seconds%s %s\n",
	    host_label == "" ? "" : "{host=\"" esc(host_label) "\"}", now_s > promtmp
	close(promtmp)
}
$1 == "C" { p = $0; sub(/^C [^ ]+ [^ ]+ /, "", p); cfile[$2, $3] = p; if ($3 + 0 > maxcpu[$2] + 0) maxcpu[$2] = $3 + 0; next }
$1 == "M" { p = $0; sub(/^M [^ ]+ [^ ]+ /, "", p); mfile[$2, $3] = p; next }
$1 == "R" { p = $0; sub(/^R [^ ]+ /, "", p); rfile[$2] = p; next }
$1 == "L" { p = $0; sub(/^L [^ ]+ /, "", p); lfile[$2] = p; next }
$1 == "V" { p = $0; sub(/^V [^ ]+ [^ ]+ /, "", p); vfile[$2 "/" $3] = p; next }
{ fail("bad file list line: " $0) }
END {
	if (lh_failed) exit 2
	nq = split("5000 9000 9900 9990 9999", qnum, " ")
	nt = split(types, tl, " ")
	jnow = jstr(now_iso)
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		ncl[t] = 0
		for (c = 0; c <= maxcpu[t]; c++)
			if ((t, c) in cfile) { cl[t, ++ncl[t]] = c; key_cpu[t, c] = c }
	}
	status_read(root "/status")
	read_state()
	cont = have_state && s_host == host && s_root == root
	zero_all = ""
	if (cont && s_boot != bootid) zero_all = "new boot"
	else if (cont && s_inode != inode) zero_all = "module reloaded"
	# (a new boot or load needs no rows of the read before: every sample
	# came after it; so the rows file may live where a reboot clears it)
	rows_gone = ""
	if (cont && zero_all == "") {
		read_rows()
		if (!rows_ok) { cont = 0; rows_gone = "the rows of the previous read are gone (" s_rows ")" }
	}
	rows_dirty = !rows_ok || s_rows != rowsf
	ivl = cont ? now_s - (prev_s + 0 > s_time + 0 ? prev_s : s_time) : 0
	# max records first: a record seen here has its sample in the rows read next
	for (i = 1; i <= nt; i++)
		for (k = 1; k <= ncl[tl[i]]; k++) {
			key = tl[i] SUBSEP cl[tl[i], k]
			if (key in mfile) read_max(mfile[key], key)
		}
	# every CPU of a type with a rows file, else the headers of its CPUx files
	nfull = 0
	for (i = 1; i <= nt; i++) {
		if (tl[i] in rfile) rows_read(rfile[tl[i]], tl[i])
		for (k = 1; k <= ncl[tl[i]]; k++) {
			key = tl[i] SUBSEP cl[tl[i], k]
			if (!(tl[i] in rfile)) cpux_peek(cfile[key], key)
			else if (!(key in hdr_total)) fail(rfile[tl[i]] ": no CPU" cl[tl[i], k])
			changed[key] = !cont || zero_all != "" || !(key in in_state) || hdr_total[key] != ph_total[key] ||
			    hdr_below[key] != ph_below[key] || hdr_above[key] != ph_above[key] ||
			    (key in cmax) != (key in pmax) || ((key in cmax) && cmax[key] != pmax[key])
			if (changed[key]) rows_dirty = 1
			if (changed[key] && !(tl[i] in rfile)) {
				fpath[++nfull] = cfile[key]; fkey[nfull] = key
			}
		}
	}
	cpux_read_nonzero(nfull, fpath, fkey, grepsh)
	for (i = 1; i <= nt && promtmp != ""; i++) if (tl[i] in lfile) lines_read(lfile[tl[i]], tl[i])
	for (k in vfile) lines_read(vfile[k], k)
	for (i = 1; i <= nt; i++)
		for (k = 1; k <= ncl[tl[i]]; k++) {
			key = tl[i] SUBSEP cl[tl[i], k]
			# an unchanged CPUx file: its rows are those of the last read
			if (changed[key] || (tl[i] in rfile)) continue
			hrows[key] = prow[key]
			if (promtmp != "") hdr_sum[key] = cpux_sum(key)
		}
	# Everything is read and checked: from here on the read is written.
	if (start) {
		line = event_head("start") ", \"host\": " jstr(host) ", \"kernel_release\": " jstr(krel) \
		    ", \"lh_version\": " jstr(lhver) ", \"interval_s\": " cfg_interval ", \"pid\": " pid ", \"root\": " jstr(root) \
		    ", \"types\": ["
		for (i = 1; i <= nt; i++) line = line (i > 1 ? ", " : "") jstr(tl[i])
		line = line "], \"continues\": " (cont ? "true" : "false")
		if (cont) line = line ", \"gap_s\": " ivl
		else line = line ", \"reason\": " jstr(rows_gone != "" ? rows_gone : \
		    have_state ? "the previous state is of another host or tree" : \
		    state_err != "" ? "the previous state is " state_err : "no previous state")
		print line "}" >> series
	} else if (rows_gone != "") {
		line = event_head("baseline") ", \"reason\": " jstr(rows_gone) ", \"types\": ["
		for (i = 1; i <= nt; i++) line = line (i > 1 ? ", " : "") jstr(tl[i])
		print line "]}" >> series
	}
	if (zero_all != "") {
		line = event_head("baseline") ", \"reason\": " jstr(zero_all) ", \"types\": ["
		for (i = 1; i <= nt; i++) line = line (i > 1 ? ", " : "") jstr(tl[i])
		print line "]}" >> series
	}
	for (i = 1; cont && i <= nt; i++) {
		t = tl[i]
		if (!(t in s_type)) {
			print event_head("baseline") ", \"reason\": \"not monitored before\", \"type\": " jstr(t) "}" >> series
			continue
		}
		gained = type_diffs(t)
		if (reset_cpus[t] != "")
			print event_head("baseline") ", \"reason\": \"counts went down: reset or module reload\", \"type\": " \
			    jstr(t) ", \"cpus\": " cpu_list(reset_cpus[t]) "}" >> series
		if (!st_en[t] && !pen[t] && !gained && reset_cpus[t] == "") {
			for (k = 1; k <= ncl[t]; k++) delete imax[t, cl[t, k]]
			continue
		}
		type_records(t)
	}
	if (stop != "") print event_head("stop") ", \"reason\": " jstr(stop) "}" >> series
	close(series)
	if (rows_dirty) write_rows()
	if (state_changed()) write_state()
	if (promtmp != "") prom_write()
}
# state_changed - 1 if the state of this read differs from the one read
# (its time aside): another load, type, enable, max record or count
function state_changed(    i, t, k, key, n, nm) {
	if (!cont || zero_all != "" || s_nt != nt || rows_dirty) return 1
	n = 0; nm = 0
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		if (!(t in s_type) || pen[t] != st_en[t] + 0) return 1
		for (k = 1; k <= ncl[t]; k++) {
			key = t SUBSEP cl[t, k]
			if (changed[key]) return 1
			n++; nm += key in cmax
		}
	}
	return n != s_nc || nm != s_nm
}
# write_rows - the rows of this read into rowsf: "lh_monitor_rows 1 ID",
# then "TYPE CPU" and its hrows per CPU, then "end". The rows as they were
# read (strings, not numbers: %d is not exact beyond 2^31 in every awk), one
# line per CPU. In place, not written aside and renamed (a fork and an exec
# at every read): the state written after it names its ID, so a rows file
# cut short or newer than the state is never taken (read_rows) and the
# next read starts anew.
function write_rows(    i, t, k, key) {
	rows_id = now_s "-" pid
	print "lh_monitor_rows 1 " rows_id > rowsf
	for (i = 1; i <= nt; i++)
		for (k = 1; k <= ncl[tl[i]]; k++) {
			key = tl[i] SUBSEP cl[tl[i], k]
			print tl[i] " " cl[tl[i], k] hrows[key] > rowsf
		}
	print "end" > rowsf
	close(rowsf)
}
# write_state - the state of this read into newstatef: what the next read
# diffs against, but the rows: the load, the time, the rows file (and the id
# it holds), the switch of each type, and per CPU the max record and the counts of
# the header. A few lines per CPU, whatever its rows.
function write_state(    i, t, k, c, key) {
	print state_header > newstatef
	print "host " host > newstatef
	print "root " root > newstatef
	print "boot " bootid > newstatef
	print "inode " inode > newstatef
	print "time_epoch_s " now_s > newstatef
	print "time " now_iso > newstatef
	print "rows " rowsf " " (rows_dirty ? rows_id : s_rows_id) > newstatef
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		print "T " t " " st_en[t] + 0 > newstatef
		for (k = 1; k <= ncl[t]; k++) {
			c = cl[t, k]; key = t SUBSEP c
			if (key in cmax) print "M " t " " c " " cmax[key] > newstatef
			print "C " t " " c " " hdr_total[key] " " hdr_below[key] " " hdr_above[key] > newstatef
		}
	}
	print "end" > newstatef
	close(newstatef)
}
