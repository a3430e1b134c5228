# SPDX-License-Identifier: GPL-2.0
#
# views.awk - the per-task and per-cgroup views (TYPE/tasks, TYPE/cgroups;
# module/task_views_print.c) as lh shows them: text and JSON for
# lh summary --by, and the Prometheus series of the N tasks and cgroups
# with the most samples. lines_line() of hist.awk reads them, as type
# "TYPE/tasks" or "TYPE/cgroups" (label tid or cgroup, ln_why "tasks 256"
# or "tasks off"). 20-read.sh includes it after hist.awk into a
# single-quoted shell word: no single quote below this header. A part of
# scripts/lh: see assemble.sh.

# views_on - 1 if the view vk ("TYPE/tasks") was read with its views on
function views_on(vk) { return (vk in ln_why) && ln_why[vk] !~ / off$/ }
# views_rank - the lines of view vk in ord[1..n], most samples first (then
# the larger max, then the order of the file); only the first lim of them
# where lim > 0 (a bounded insertion: n * lim steps), else all (a heap
# sort: n log n steps, as a table may have 65536 lines); returns how many
function views_rank(vk, ord, lim,    n, i, j, f, k, x) {
	n = ln_n[vk]
	for (i = 1; i <= n; i++) {
		split(ln_st[vk, i], f, " ")
		vr_s[i] = f[1] + 0; vr_m[i] = f[6] + 0
	}
	if (lim > 0) {
		k = 0
		for (i = 1; i <= n; i++) {
			if (k == lim && !views_before(i, ord[k])) continue
			if (k < lim) k++
			for (j = k - 1; j >= 1 && views_before(i, ord[j]); j--) ord[j + 1] = ord[j]
			ord[j + 1] = i
		}
		return k
	}
	for (i = 1; i <= n; i++) ord[i] = i
	for (i = int(n / 2); i >= 1; i--) views_sift(ord, i, n)
	for (i = n; i > 1; i--) {
		x = ord[1]; ord[1] = ord[i]; ord[i] = x
		views_sift(ord, 1, i - 1)
	}
	return n
}
# views_before - 1 if line a of the view being ranked goes before line b
function views_before(a, b) {
	return vr_s[a] > vr_s[b] || (vr_s[a] == vr_s[b] && (vr_m[a] > vr_m[b] || (vr_m[a] == vr_m[b] && a < b)))
}
# views_sift - sift ord[i] down the heap ord[1..n] whose root is the line
# that goes last
function views_sift(ord, i, n,    c, x) {
	while ((c = 2 * i) <= n) {
		if (c < n && views_before(ord[c], ord[c + 1])) c++
		if (!views_before(ord[i], ord[c])) return
		x = ord[i]; ord[i] = ord[c]; ord[c] = x
		i = c
	}
}
# views_text - print view vk of type t (what: task or cgroup) as a table,
# most samples first
function views_text(t, vk, what,    n, ord, k, i, f) {
	if (!views_on(vk)) {
		printf "\n%s per %s: views off (echo 1 > %s/%s/views)\n", t, what, root, t
		return
	}
	printf "\n%s per %s (%s entries, other %s):\n", t, what, substr(ln_why[vk], index(ln_why[vk], " ") + 1), ln_other[vk]
	printf "%-8s %-20s %12s %7s %9s %7s %7s %7s %4s %s\n", what == "task" ? "TID" : "CGROUP", what == "task" ? "comm" : "path",
	    "samples", "min", "mean", "p99", "p99.9", "max", "CPU", "culprit"
	n = views_rank(vk, ord, 0)
	for (k = 1; k <= n; k++) {
		i = ord[k]
		split(ln_st[vk, i], f, " ")
		printf "%-8s %-20s %12s %7s %9s %7s %7s %7s %4s %s %s\n", ln_id[vk, i], ln_name[vk, i], f[1], f[2], f[3],
		    f[4], f[5], f[6], f[7], f[8], ln_comm[vk, i]
	}
}
# views_json - view vk (what: task or cgroup) as JSON: {"views": true,
# "entries", "other", "tasks"|"cgroups": [{"tid", "comm"|"id", "path",
# "samples", "min", "mean", "p99", "p99.9", "max", "max_cpu", "culprit":
# {"pid", "comm"}}]}, most samples first; {"views": false} while off
function views_json(vk, what,    n, ord, k, i, f, out) {
	if (!views_on(vk)) return "{\"views\": false}"
	out = "{\"views\": true, \"entries\": " substr(ln_why[vk], index(ln_why[vk], " ") + 1) ", \"other\": " ln_other[vk] \
	    ", \"" what "s\": ["
	n = views_rank(vk, ord, 0)
	for (k = 1; k <= n; k++) {
		i = ord[k]
		split(ln_st[vk, i], f, " ")
		out = out (k > 1 ? ", " : "") (what == "task" ? "{\"tid\": " ln_id[vk, i] ", \"comm\": " : "{\"id\": " ln_id[vk, i] ", \"path\": ") \
		    jstr(ln_name[vk, i]) ", \"samples\": " f[1] ", \"min\": " f[2] ", \"mean\": " f[3] ", \"p99\": " f[4] \
		    ", \"p99.9\": " f[5] ", \"max\": " f[6] ", \"max_cpu\": " f[7] ", \"culprit\": {\"pid\": " f[8] \
		    ", \"comm\": " jstr(ln_comm[vk, i]) "}}"
	}
	return out "]}"
}
# views_prom - the series of the views read of the types tl[1..nt] to out,
# while top (the --top of lh prom and lh monitor) is above 0: per type
# latency_hist_views_enabled; per task (labels task = its comm, tid) and per
# cgroup (labels cgroup = its path, cgroup_id) among the top with the most
# samples (views_rank) a samples counter and a gauge per stat (min, mean,
# p99, p99.9, max); and per type the samples of the rest (#other and the
# lines below the top), so that the series plus the rest are the total.
function views_prom(nt, tl, out,    i, t, any, w, what) {
	if (top + 0 <= 0) return
	for (i = 1; i <= nt; i++)
		if (can_record(tl[i]) && ((tl[i] "/tasks") in ln_other || (tl[i] "/cgroups") in ln_other)) any = 1
	if (!any) return
	pout(out, "# HELP latency_hist_views_enabled whether the per-task and per-cgroup views of the type are on (1) or off (0)")
	pout(out, "# TYPE latency_hist_views_enabled gauge")
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		if (!can_record(t)) continue
		if ((t "/tasks") in ln_other) pout(out, "latency_hist_views_enabled{" plabels(t, "") "} " views_on(t "/tasks"))
		else if ((t "/cgroups") in ln_other) pout(out, "latency_hist_views_enabled{" plabels(t, "") "} " views_on(t "/cgroups"))
	}
	split("task cgroup", what, " ")
	for (w = 1; w <= 2; w++) views_prom_what(nt, tl, out, what[w])
}
# views_prom_what - the series of the views of one kind (task or cgroup)
function views_prom_what(nt, tl, out, what,    i, t, vk, ord, k, f, j, key, seen, lbl, stat, rest, m) {
	split("min mean p99 p99.9 max", stat, " ")
	pout(out, "# HELP latency_hist_" what "_samples_total samples of each of the --top " what "s with the most samples since the reset of its type")
	pout(out, "# TYPE latency_hist_" what "_samples_total counter")
	for (i = 1; i <= nt; i++) {
		t = tl[i]; vk = t "/" what "s"
		if (!can_record(t) || !views_on(vk)) continue
		m = views_rank(vk, ord, top + 0)
		vw_n[vk] = m
		rest[vk] = ln_other[vk]
		for (k = 1; k <= ln_n[vk]; k++) rest[vk] += vr_s[k]
		for (k = 1; k <= m; k++) {
			split(ln_st[vk, ord[k]], f, " ")
			rest[vk] -= f[1]
			key = t SUBSEP ln_id[vk, ord[k]] SUBSEP ln_name[vk, ord[k]]
			lbl = plabels(t, "") "," (what == "task" ? "task=\"" : "cgroup=\"") esc(ln_name[vk, ord[k]]) \
			    (++seen[key] > 1 ? "#" seen[key] : "") (what == "task" ? "\",tid=\"" : "\",cgroup_id=\"") ln_id[vk, ord[k]] "\""
			vw_lbl[vk, k] = lbl; vw_st[vk, k] = ln_st[vk, ord[k]]
			pout(out, "latency_hist_" what "_samples_total{" lbl "} " f[1])
		}
	}
	pout(out, "# HELP latency_hist_" what "_latency_seconds min, mean, p99, p99.9 and max of each of the --top " what "s since the reset of its type (label stat)")
	pout(out, "# TYPE latency_hist_" what "_latency_seconds gauge")
	for (i = 1; i <= nt; i++) {
		t = tl[i]; vk = t "/" what "s"
		if (!can_record(t) || !views_on(vk)) continue
		for (k = 1; k <= vw_n[vk]; k++) {
			split(vw_st[vk, k], f, " ")
			for (j = 1; j <= 5; j++)
				pout(out, "latency_hist_" what "_latency_seconds{" vw_lbl[vk, k] ",stat=\"" stat[j] "\"} " \
				    (j == 2 ? sprintf("%.8f", f[3] / 1000000) : secs(f[j + 1])))
		}
	}
	pout(out, "# HELP latency_hist_" what "_rest_samples samples of the " what "s without series: the table had no room for them (#other) or they are not in the --top")
	pout(out, "# TYPE latency_hist_" what "_rest_samples gauge")
	for (i = 1; i <= nt; i++) {
		t = tl[i]; vk = t "/" what "s"
		if (can_record(t) && views_on(vk)) pout(out, "latency_hist_" what "_rest_samples{" plabels(t, "") "} " rest[vk])
	}
}
