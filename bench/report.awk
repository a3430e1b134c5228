#!/usr/bin/gawk -f
# SPDX-License-Identifier: GPL-2.0
#
# report.awk - turn the lines of bench/guest-bench.sh (one .out file per guest boot) into the
# markdown report of scripts/bench.sh: medians and spread per configuration and workload, the
# ratios of the issue-8 budget, the probe microbenchmark, memory and read cost, and, where one
# kernel was booted with several vCPU counts (scripts/bench.sh --smp "2 16 64"), the scale table.
#
#   gawk -f bench/report.awk build/bench/*.out > report.md
#
# "added" is a configuration's median minus the unloaded median, the same boot; a ratio of
# added costs is printed only where the denominator is positive.

# kv - the value of key K in the current line's key=value fields
function kv(k,    i, n, a) {
	for (i = 1; i <= NF; i++) {
		n = index($i, "=")
		if (n && substr($i, 1, n - 1) == k)
			return substr($i, n + 1)
	}
	return ""
}

# median - median of the space-separated numbers in s; sets MIN and MAX
function median(s,    a, n) {
	n = split(s, a, " ")
	asort(a, a, "@val_num_asc")
	MIN = a[1]; MAX = a[n]
	if (n % 2)
		return a[(n + 1) / 2]
	return (a[n / 2] + a[n / 2 + 1]) / 2
}

# pct - x as a percentage of y, or "n/a"
function pct(x, y) {
	return y > 0 ? sprintf("%.1f %%", 100 * x / y) : "n/a"
}

# verdict - "met" or "MISSED" for value v against limit lim (both percent), n/a if no ratio
function verdict(x, y, lim) {
	if (y <= 0)
		return "n/a"
	return (100 * x / y <= lim) ? "met" : "**MISSED**"
}

/^INFO kernel=/ {
	k = kv("kernel"); cpus = kv("cpus")
	# a benchmark boot with other than 2 vCPUs is a kernel of its own here (the scale table
	# compares them); a memory-only boot (no mode=: older files) adds to the kernel's section
	if (kv("mode") != "" && kv("mode") != "mem" && cpus != 2) {
		if (!((kv("kernel"), cpus) in scale_seen)) {
			scale_seen[kv("kernel"), cpus] = 1
			scale_cpus[kv("kernel")] = scale_cpus[kv("kernel")] " " cpus
		}
		k = k " (" cpus " vCPUs)"
	} else if (cpus == 2 && !((kv("kernel"), 2) in scale_seen)) {
		scale_seen[kv("kernel"), 2] = 1
		scale_cpus[kv("kernel")] = scale_cpus[kv("kernel")] " 2"
	}
	kname[kv("kernel"), cpus] = k
	if (!(k in seen_k)) { seen_k[k] = 1; kernels[++nk] = k }
	kcpus[k] = kcpus[k] ? kcpus[k] : cpus
	if (cpus > kcpus[k]) bigcpus[k] = cpus
	info[k] = info[k] $0 "\n"
}
/^INFO configs=/ { configs[k] = substr($0, 14) }
/^INFO clock / { info[k] = info[k] $0 "\n" }
/^SKIP/ { skips[k] = skips[k] "- " substr($0, 6) "\n" }
/^RESULT/ {
	if (kv("round") == 0) next		# warm-up
	c = kv("config"); w = kv("workload"); v = kv("value")
	if (v == "NA") { na[k, c, w]++; next }
	vals[k, c, w] = vals[k, c, w] " " v
	wseen[k, w] = 1
	unit[w] = kv("unit")
}
/^MICRO / {
	c = kv("config"); s = kv("scenario")
	micro[k, c, s] = kv("ns_per_round")
	microcall[k, c, s] = kv("ns_per_call")
	if (!((k, s) in mscen)) { mscen[k, s] = 1; mscen_list[k] = mscen_list[k] " " s }
}
/^MICRO_WAKERS/ { wakers[k, kv("config"), kv("scenario")] = kv("wakers") }
/^MICRO_FAIR/ {
	fair[k, kv("config"), kv("scenario")] = kv("fair_path")
	fairw[k, kv("config"), kv("scenario")] = kv("wakings")
}
/^MEM/ {
	mem[k, kv("cpus"), kv("type")] = kv("status_bytes"); memcpus[k, kv("cpus")] = 1
	if (!((k, kv("type")) in memtype)) { memtype[k, kv("type")] = 1; memtypes[k] = memtypes[k] " " kv("type") }
	sw = kv("switch") != "" ? kv("switch") : kv("type")
	if (!((k, kv("cpus"), kv("type")) in memsw)) { memsw[k, kv("cpus"), kv("type")] = sw; nhist[k, kv("cpus"), sw]++ }
	if (!((k, sw) in swseen)) { swseen[k, sw] = 1; switches[k] = switches[k] " " sw }
}
/^INFO switch=/ {
	memfree[k, cpus, kv("switch")] = kv("memfree_drop_bytes")
	vmrise[k, cpus, kv("switch")] = kv("vmalloc_rise_bytes")
	slabrise[k, cpus, kv("switch")] = kv("slab_rise_bytes")
}
/^READROWS/ {
	rr[k, kv("cpus"), kv("type")] = kv("ns") " " kv("bytes")
	next
}
/^READ/ {
	rd[k, kv("cpus"), kv("type")] = kv("ns") " " kv("files") " " kv("bytes"); rdcpus[k, kv("cpus")] = 1
	if (!((k, kv("type")) in rdtype)) { rdtype[k, kv("type")] = 1; rdtypes[k] = rdtypes[k] " " kv("type") }
}

END {
	nw = split("pingpong perfpipe hackbench syscall", wl, " ")
	print "# latency_hist benchmark report"
	print ""
	print "Guest time under `qemu -icount shift=0,sleep=off`: 1 ns = 1 guest instruction. Figures are"
	print "instruction counts, deterministic for a given kernel and binary; they do not model cache misses or"
	print "the price of atomic instructions. Medians of the measured rounds (a warm-up round is dropped), with"
	print "the spread (max-min)/median; \"added\" = median - unloaded median of the same boot."
	for (ki = 1; ki <= nk; ki++) {
		k = kernels[ki]
		if (!(k in configs))
			continue
		nc = split(configs[k], cl, " ")
		print ""
		print "## " k
		print ""
		printf "%s", info[k]
		if (skips[k] != "") { print ""; printf "%s", skips[k] }
		for (wi = 1; wi <= nw; wi++) {
			w = wl[wi]
			if (!((k, w) in wseen) && !((k, "unloaded", w) in na))
				continue		# not run (WORKLOADS)
			print ""
			print "### " w " (" unit[w] ")"
			print ""
			print "| configuration | median | spread | added | added % |"
			print "|---|---:|---:|---:|---:|"
			base = ((k, "unloaded", w) in vals) ? median(vals[k, "unloaded", w]) : 0
			for (ci = 1; ci <= nc; ci++) {
				c = cl[ci]
				if (!((k, c, w) in vals)) { printf "| %s | no result | | | |\n", c; continue }
				m = median(vals[k, c, w])
				med[k, c, w] = m
				spread[k, c, w] = m > 0 ? 100 * (MAX - MIN) / m : 0
				add[k, c, w] = m - base
				printf "| %s | %.1f | %.2f %% | %+.1f | %+.2f %% |\n", c, m,
				       (m > 0 ? 100 * (MAX - MIN) / m : 0), m - base, (base > 0 ? 100 * (m - base) / base : 0)
			}
		}
		print ""
		print "### Budget (issue 19), " k
		print ""
		print "| budget line | workload | ratio | limit | verdict |"
		print "|---|---|---:|---:|---|"
		for (wi = 1; wi <= nw; wi++) {
			w = wl[wi]
			a = add[k, "taw", w]
			if ((k, "histtrig", w) in add)
				printf "| wakeup+mto+timerandwakeup added / hist-trigger recipe added | %s | %s | 4 %% | %s |\n",
				       w, pct(a, add[k, "histtrig", w]), wi == 1 ? verdict(a, add[k, "histtrig", w], 4) : "(info)"
			if ((k, "events", w) in add)
				printf "| wakeup+mto+timerandwakeup added / sched trace events added | %s | %s | 8 %% | %s |\n",
				       w, pct(a, add[k, "events", w]), wi == 1 ? verdict(a, add[k, "events", w], 8) : "(info)"
			if ((k, "bpf", w) in add)
				printf "| wakeup+mto+timerandwakeup added / bpftrace peer added | %s | %s | < 100 %% | %s |\n",
				       w, pct(a, add[k, "bpf", w]), wi == 1 ? verdict(a, add[k, "bpf", w], 99.99) : "(info)"
			# the same with the kernel's clocks (clock=kernel): what the cycle counter saves
			if (((k, "taw_k", w) in add) && ((k, "histtrig", w) in add))
				printf "| the same, clock=kernel, / hist-trigger recipe added | %s | %s | 4 %% | (info) |\n",
				       w, pct(add[k, "taw_k", w], add[k, "histtrig", w])
			if (((k, "taw_k", w) in add) && ((k, "events", w) in add))
				printf "| the same, clock=kernel, / sched trace events added | %s | %s | 8 %% | (info) |\n",
				       w, pct(add[k, "taw_k", w], add[k, "events", w])
			if ((k, "events_pirq", w) in add)
				printf "| preemptirqsoff added / preemptirq trace events added | %s | %s | 10 %% | %s |\n",
				       w, pct(add[k, "pirq", w], add[k, "events_pirq", w]),
				       verdict(add[k, "pirq", w], add[k, "events_pirq", w], 10)
			if ((k, "loaded", w) in med)
				printf "| loaded, nothing enabled, vs unloaded | %s | %+.2f %% | unloaded spread %.2f %% | (see below) |\n", w,
				       100 * add[k, "loaded", w] / med[k, "unloaded", w], spread[k, "unloaded", w]
		}
		# No probe attached: the microbenchmark, which runs every attached probe, must see
		# exactly the loop cost of the unloaded kernel.
		same = 0; nsc = 0
		ns = split(mscen_list[k], sl, " ")
		for (si = 1; si <= ns; si++) {
			if (sl[si] ~ /^c_/) continue
			if (!((k, "loaded", sl[si]) in micro)) continue
			nsc++
			if (micro[k, "loaded", sl[si]] - micro[k, "unloaded", sl[si]] < 1)
				same++
		}
		if (nsc)
			printf "| loaded, nothing enabled: no probe attached | microbenchmark | %d of %d scenarios cost the same as unloaded (< 1 ns) | all | %s |\n",
			       same, nsc, same == nsc ? "met" : "**MISSED**"
		if (mscen_list[k] != "") {
			print ""
			print "### Probe microbenchmark, " k
			print ""
			print "ns (= instructions) per round with the probes of each configuration attached, minus the"
			print "same loop with nothing attached (`unloaded`); a round is one event as the scenario describes"
			print "(bench/lh_probe_bench.c). Per call in brackets."
			print ""
			ns = split(mscen_list[k], sl, " ")
			hdr = "| configuration |"; sep = "|---|"
			for (si = 1; si <= ns; si++) { hdr = hdr " " sl[si] " |"; sep = sep "---:|" }
			print hdr; print sep
			for (ci = 1; ci <= nc; ci++) {
				c = cl[ci]
				if (!((k, c, sl[1]) in micro)) continue
				line = "| " c " |"
				for (si = 1; si <= ns; si++) {
					s = sl[si]
					if (c == "unloaded")
						line = line sprintf(" %.1f (loop) |", micro[k, c, s])
					else
						line = line sprintf(" %+.1f (%+.1f) |", micro[k, c, s] - micro[k, "unloaded", s],
								    microcall[k, c, s] - microcall[k, "unloaded", s])
				}
				print line
			}
		}
		for (key in memcpus) {
			split(key, kk, SUBSEP)
			if (kk[1] != k) continue
			n = kk[2]
			print ""
			print "### Memory, " k ", " n " vCPUs"
			print ""
			print "| histogram | status bytes | per CPU | per CPU KiB | budget 82 KiB |"
			print "|---|---:|---:|---:|---|"
			ntl = split(memtypes[k], tl, " ")
			for (ti = 1; ti <= ntl; ti++) {
				t = tl[ti]
				if (!((k, n, t) in mem)) continue
				b = mem[k, n, t]
				printf "| %s | %d | %d | %.1f | %s |\n", t, b, b / n, b / n / 1024,
				       b == 0 ? "0 (never enabled)" : (b / n <= 82 * 1024 ? "met" : "**MISSED**")
			}
			print ""
			print "What the kernel's counters say each switch took when first enabled. MemFree misses"
			print "pages served from the per-CPU free lists (order-0 vmalloc pages usually are); an"
			print "order-5 kmalloc, as before the fix, showed here as 128 KiB per CPU per histogram."
			print ""
			print "| switch | histograms | MemFree drop | VmallocUsed rise | Slab rise | vmalloc KiB per CPU per histogram |"
			print "|---|---:|---:|---:|---:|---:|"
			nsw = split(switches[k], swl, " ")
			for (ti = 1; ti <= nsw; ti++) {
				t = swl[ti]
				if (!((k, n, t) in memfree)) continue
				nh = nhist[k, n, t] + 0
				printf "| %s | %d | %d | %s | %s | %s |\n", t, nh, memfree[k, n, t],
				       vmrise[k, n, t] == "" ? "n/a" : vmrise[k, n, t],
				       slabrise[k, n, t] == "" ? "n/a" : slabrise[k, n, t],
				       vmrise[k, n, t] == "" || !nh ? "n/a" : sprintf("%.1f", vmrise[k, n, t] / n / nh / 1024)
			}
		}
		for (key in rdcpus) {
			split(key, kk, SUBSEP)
			if (kk[1] != k) continue
			n = kk[2]
			print ""
			print "### Read cost, " k ", " n " vCPUs"
			print ""
			print "Reading every CPUx and max_latency-CPUx file of a type once (bench/lh_readall.c: open,"
			print "read to the end, close; timed inside the program, after one warm-up pass); then its rows"
			print "file alone, which holds the same histograms (n/a: a module without it)."
			print ""
			print "| type | files | bytes | ns total | ns per CPU | rows bytes | rows ns | rows ns per CPU |"
			print "|---|---:|---:|---:|---:|---:|---:|---:|"
			ntl = split(rdtypes[k], tl, " ")
			for (ti = 1; ti <= ntl; ti++) {
				t = tl[ti]
				if (!((k, n, t) in rd)) continue
				split(rd[k, n, t], r, " ")
				printf "| %s | %d | %d | %d | %d |", t, r[2], r[3], r[1], r[1] / n
				if ((k, n, t) in rr) {
					split(rr[k, n, t], q, " ")
					printf " %d | %d | %d |\n", q[2], q[1], q[1] / n
				} else
					print " n/a | n/a | n/a |"
			}
		}
	}
	scale_report()
}

# ratio_cell - "v (r x)": a figure and its ratio to the first vCPU count's; sets WORST (max |r-1|)
function ratio_cell(v, v0) {
	if (v == "")
		return " n/a |"
	if (v0 == "" || v0 <= 0)
		return sprintf(" %.1f |", v)
	COMPARED++
	if (v / v0 - 1 > WORST || 1 - v / v0 > WORST)
		WORST = v / v0 > 1 ? v / v0 - 1 : 1 - v / v0
	return sprintf(" %.1f (%.3f) |", v, v / v0)
}

# pp_added - added pipe cost of config c, workload w, in the boot labelled kk ("" if not run)
function pp_added(kk, c, w,    b) {
	if (!((kk, c, w) in vals) || !((kk, "unloaded", w) in vals))
		return ""
	b = median(vals[kk, "unloaded", w])
	return median(vals[kk, c, w]) - b
}

# mi_added - microbenchmark round of config c, scenario s, minus the unloaded loop ("" if not run)
function mi_added(kk, c, s) {
	if (!((kk, c, s) in micro) || !((kk, "unloaded", s) in micro))
		return ""
	return micro[kk, c, s] - micro[kk, "unloaded", s]
}

# scale_report - the per-sample cost at each vCPU count of a kernel, and its budget line
function scale_report(    have_mi, have_pp, counts, any, sep, kb, n, cl, i, kk, row, rows, nr, r, v, v0, a, lim, worst_mi, worst_pp, fcell, c) {
	for (kb in scale_cpus) {
		n = split(scale_cpus[kb], cl, " ")
		if (n < 2)
			continue
		asort(cl, cl, "@val_num_asc")
		counts = cl[1]
		for (i = 2; i <= n; i++) counts = counts (i == n ? " and " : ", ") cl[i]
		print ""
		print "## Scale, " kb
		print ""
		print "The same kernel and binaries booted with " n " vCPU counts; each figure with its ratio to the"
		print cl[1] "-vCPU one in brackets. Under -icount the guest clock counts the instructions of every"
		print "vCPU, so whatever grows with the number of CPUs (IPIs, idle CPUs' work, the lock) shows here."
		print "`wakers_one`/`wakers_all`: sched_waking of the target CPU's RT task from 1 or from every other"
		print "CPU at once, instructions of the whole machine per waking (bench/lh_probe_bench.c)."
		print ""
		row = "| per sample (instructions) |"; sep = "|---|"
		for (i = 1; i <= n; i++) { row = row " " cl[i] " vCPUs |"; sep = sep "---:|" }
		print row; print sep
		nr = split("pp:unloaded:pingpong pp:empty:pingpong pp:taw:pingpong pp:taw:perfpipe " \
			   "mi:taw:wakeup mi:taw:timer mi:taw:timerwakeup mi:taw:wakers_one mi:taw:wakers_all " \
			   "mi:empty:wakers_one mi:empty:wakers_all raw:unloaded:c_arch_lock", rows, " ")
		worst_mi = 0; worst_pp = 0; have_mi = 0; have_pp = 0
		for (r = 1; r <= nr; r++) {
			split(rows[r], a, ":")
			row = "| " (a[1] == "pp" ? (a[2] == "unloaded" ? "pipe " a[3] ", unloaded" :
			       "pipe " a[3] ", " a[2] " added") :
			       a[1] == "mi" ? "micro " a[3] ", " a[2] " added" : "micro " a[3] " (loop included)") " |"
			WORST = 0; COMPARED = 0; v0 = ""; any = 0
			for (i = 1; i <= n; i++) {
				kk = kname[kb, cl[i]]
				if (a[1] == "pp")
					v = a[2] == "unloaded" ? (((kk, "unloaded", a[3]) in vals) ? median(vals[kk, "unloaded", a[3]]) : "") :
					    pp_added(kk, a[2], a[3])
				else if (a[1] == "mi")
					v = mi_added(kk, a[2], a[3])
				else
					v = ((kk, a[2], a[3]) in micro) ? micro[kk, a[2], a[3]] : ""
				if (v != "") any = 1
				if (i == 1) v0 = v
				row = row ratio_cell(v, v0)
			}
			if (!any)
				continue
			print row
			if (rows[r] == "pp:taw:pingpong" && WORST > worst_pp) worst_pp = WORST
			if (COMPARED < 2)	# the first count compared with itself only
				continue
			if (a[1] == "mi" && a[2] == "taw") { have_mi = 1; if (WORST > worst_mi) worst_mi = WORST }
			if (rows[r] == "pp:taw:pingpong") have_pp = 1
		}
		row = "| wakers_all: wakers; wakings that took the fair (queued) lock path |"
		for (i = 1; i <= n; i++) {
			kk = kname[kb, cl[i]]
			c = "taw"
			fcell = ((kk, c, "wakers_all") in wakers) ? wakers[kk, c, "wakers_all"] : "?"
			if ((kk, c, "wakers_all") in fair)
				fcell = fcell "; " fair[kk, c, "wakers_all"] " of " fairw[kk, c, "wakers_all"]
			row = row " " fcell " |"
		}
		print row
		print ""
		print "| budget line | measure | worst ratio to " cl[1] " vCPUs | limit | verdict |"
		print "|---|---|---:|---:|---|"
		if (have_mi)
			printf "| per-sample cost the same with %s vCPUs | microbenchmark (taw rows) | %.3f | within 5 %% | %s |\n",
			       counts, 1 + worst_mi, worst_mi <= 0.05 ? "met" : "**MISSED**"
		if (have_pp)
			printf "| per-sample cost the same with %s vCPUs | pipe ping-pong, taw added | %.3f | within 10 %% | %s |\n",
			       counts, 1 + worst_pp, worst_pp <= 0.10 ? "met" : "**MISSED**"
	}
}
