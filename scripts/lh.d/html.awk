# SPDX-License-Identifier: GPL-2.0
#
# html.awk - LH_HTML_AWK, the page of lh report --html: the JSON strings of
# lh explain --json, lh outliers --json and the series taken apart into the
# lines of the report model (hm_* functions, used by the programs that read
# the tree and the series), and the model drawn as one self-contained HTML
# page with inline SVG (html_line for each model line, html_page at the end).
# Needs base.awk, and outlier.awk for ol_civil. 92-html.sh includes it into
# a single-quoted shell word: no single quote below this header. A part of
# scripts/lh: see assemble.sh.
#
# The model, one line per fact, fields separated by a tab (hm_clean takes
# tabs and newlines out of strings):
#   meta KEY VALUE                  host, kernel, cmdline, module, lh, clock,
#                                   source, kind (series|snapshot|live), from,
#                                   to, span, interval
#   type T                          a type with data, in status order
#   unavail T REASON                a type this kernel cannot measure
#   idle T                          a type without samples
#   note T TEXT                     a remark on type T ("" for the page)
#   cpu T C SAMPLES P50 P99 P99.9 MAX     a table row (C a number or all)
#   hist T C BUCKET COUNT           a histogram row, ascending per (T, C)
#   maxpt T C EPOCH MAX             the maximum of an interval (series)
#   outlier T C TIME LAT CAUSE WINDOW_NS HARDIRQ SOFTIRQ NMI THREAD OTHER DETAIL VICTIM CULPRIT
#   explain T C WINDOW_NS HARDIRQ SOFTIRQ NMI THREAD OTHER TEXT
#   missed N                        outlier records dropped before they were read

# ---------------------------------------------------------------- the model

# hm_clean - s without tabs and newlines (model fields are tab separated)
function hm_clean(s) {
	gsub(/[\t\n\r]/, " ", s)
	return s
}
# hm_hexval - the value of the hex digits h
function hm_hexval(h,    i, v) {
	v = 0
	for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
	return v
}
# hm_str - the JSON value of key in s, a string unescaped (the first match
# of "key": in s; callers pass the object that holds it), a number or
# null as written; "" if s has no such key
function hm_str(s, key,    i, out, c, n, v) {
	i = index(s, "\"" key "\": ")
	if (!i) return ""
	s = substr(s, i + length(key) + 4)
	if (substr(s, 1, 1) != "\"") {
		i = match(s, /[],}]/)
		return i ? substr(s, 1, i - 1) : s
	}
	out = ""
	n = length(s)
	for (i = 2; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "\"") break
		if (c != "\\") { out = out c; continue }
		c = substr(s, ++i, 1)
		if (c == "u") {
			v = hm_hexval(substr(s, i + 1, 4)); i += 4
			out = out (v >= 1 && v < 256 ? sprintf("%c", v) : "?")
		} else if (c == "n" || c == "t" || c == "r") out = out " "
		else out = out c
	}
	return out
}
# hm_sub - the text of s after "key": , or "" if there is none
function hm_sub(s, key,    i) {
	i = index(s, "\"" key "\": ")
	return i ? substr(s, i + length(key) + 4) : ""
}
# hm_task - "comm/pid" of the victim or culprit object of an outlier
function hm_task(o, role,    s) {
	s = hm_sub(o, role)
	return hm_str(s, "comm") "/" hm_str(s, "pid")
}
# hm_outlier - the model line of an outlier object o (lh outliers --json,
# the "outlier" of a series event)
function hm_outlier(o,    d, k) {
	d = hm_sub(o, "cause_detail")
	if (substr(d, 1, 4) == "null") d = "-"
	else {
		k = hm_str(d, "kind")
		d = k == "thread" ? "thread " hm_str(d, "name") "/" hm_str(d, "id") : \
		    k == "idle" || k == "uncovered" ? k : k == "thread-rest" ? "thread-rest " hm_str(d, "id") " tasks" : \
		    k " " hm_str(d, "id") " " hm_str(d, "name")
	}
	printf "outlier\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", hm_clean(hm_str(o, "type")), hm_str(o, "cpu"),
	    hm_str(o, "time"), hm_str(o, "latency_us"), hm_str(o, "cause"), hm_str(o, "window_ns"), hm_str(o, "hardirq"),
	    hm_str(o, "softirq"), hm_str(o, "nmi"), hm_str(o, "thread"), hm_str(o, "other"), hm_clean(d),
	    hm_clean(hm_task(o, "victim")), hm_clean(hm_task(o, "culprit"))
}
# hm_outliers - the model lines of a document of lh outliers --json: its
# records, and the records its logs dropped
function hm_outliers(doc,    logs, p, n, i, miss) {
	logs = substr(doc, 1, index(doc, "\"outliers\": [") - 1)
	n = split(logs, p, "\"dropped\": ")
	miss = 0
	for (i = 2; i <= n; i++) miss += p[i] + 0
	if (miss) printf "missed\t%d\n", miss
	n = split(substr(doc, index(doc, "\"outliers\": [")), p, "[{]\"type\": ")
	for (i = 2; i <= n; i++) hm_outlier("{\"type\": " p[i])
}
# hm_cat - the ns of category cat of an explain object e
function hm_cat(e, cat) {
	return hm_str(hm_sub(e, cat), "ns") + 0
}
# hm_explain - the model lines of a document of lh explain TYPE --json
function hm_explain(doc,    p, n, i, c, t, e) {
	t = substr(doc, index(doc, "\"types\": {") + 11)
	t = substr(t, 1, index(t, "\"") - 1)
	n = split(doc, p, "[{]\"window_ns\": ")
	for (i = 2; i <= n; i++) {
		if (!match(p[i - 1], /"[0-9]+": $/)) continue
		c = substr(p[i - 1], RSTART + 1, RLENGTH - 4)
		e = "{\"window_ns\": " p[i]
		printf "explain\t%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%s\n", hm_clean(t), c, hm_str(e, "window_ns"), hm_cat(e, "hardirq"),
		    hm_cat(e, "softirq"), hm_cat(e, "nmi"), hm_cat(e, "thread"), hm_cat(e, "other"), hm_clean(hm_str(e, "text"))
	}
}

# ---------------------------------------------------------------- the page

# h - s escaped for HTML text and attribute values; control characters as \xNN
function h(s,    out, i, c, n) {
	if (!h_ready) {
		for (i = 1; i < 32; i++) h_ctl[sprintf("%c", i)] = sprintf("\\x%02x", i)
		h_ctl[sprintf("%c", 127)] = "\\x7f"
		# (the regular expression built as a string: octal escapes in a
		# regular expression differ between the awks)
		h_re = "[&<>\"" sprintf("%c", 39) sprintf("%c", 1) "-" sprintf("%c", 31) sprintf("%c", 127) "]"
		h_ready = 1
	}
	if (s !~ h_re) return s
	out = ""
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (c == "&") out = out "&amp;"
		else if (c == "<") out = out "&lt;"
		else if (c == ">") out = out "&gt;"
		else if (c == "\"") out = out "&quot;"
		else if (c == "\047") out = out "&#39;"
		else if (c in h_ctl) out = out h_ctl[c]
		else out = out c
	}
	return out
}
# html_line - take the model line $0 (FS is a tab)
function html_line(    t, k) {
	t = $2
	if ($1 == "meta") { meta[$2] = $3; return }
	if ($1 == "note") { notes[t] = notes[t] "<p class=\"note\">" h($3) "</p>\n"; return }
	if ($1 == "unavail") { unav[++nunav] = t; unavwhy[t] = $3; return }
	if ($1 == "idle") { idle[++nidle] = t; return }
	if ($1 == "type") { if (!(t in tseen)) { tseen[t] = 1; tord[++nt] = t }; return }
	if ($1 == "missed") { missed += $2; return }
	if ($1 == "cpu") {
		k = ++ncrow[t]; crow[t, k] = $3
		for (k = 4; k <= 8; k++) cval[t, $3, k - 3] = $k
		return
	}
	if ($1 == "hist") {
		if (!((t, $3) in hdata)) { hcpu[t, ++nhc[t]] = $3; hdata[t, $3] = "" }
		hdata[t, $3] = hdata[t, $3] " " $4 ":" $5
		if ($4 + 0 > hmaxb[t] + 0) hmaxb[t] = $4 + 0
		if ($5 + 0 > hmaxn[t] + 0) hmaxn[t] = $5 + 0
		return
	}
	if ($1 == "maxpt") {
		if (!((t, $3) in mdata)) { mcpu[t, ++nmc[t]] = $3; mdata[t, $3] = "" }
		mdata[t, $3] = mdata[t, $3] " " $4 ":" $5
		if (!(t in mt0) || $4 + 0 < mt0[t]) mt0[t] = $4 + 0
		if (!(t in mt1) || $4 + 0 > mt1[t]) mt1[t] = $4 + 0
		if ($5 + 0 > mmax[t] + 0) mmax[t] = $5 + 0
		return
	}
	if ($1 == "outlier") {
		k = ++no
		for (t = 2; t <= 15; t++) of[k, t] = $t
		return
	}
	if ($1 == "explain") {
		k = ++nex[t]
		for (t = 3; t <= 10; t++) ef[$2, k, t] = $t
		return
	}
}
# num - a number for a label: thousands apart by thin spaces
function num(v,    s, r) {
	s = sprintf("%.0f", v)
	r = ""
	while (length(s) > 3) { r = "\342\200\211" substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
	return s r
}
# us1 - nanoseconds as microseconds with one decimal
function us1(ns) { return sprintf("%.1f", ns / 1000) }
# pow10 - 10 to the whole power e (busybox awk may be built without ^ and log)
function pow10(e,    r) {
	r = 1
	for (; e > 0; e--) r *= 10
	for (; e < 0; e++) r /= 10
	return r
}
# lg10 - the decimal logarithm of v > 0: its exponent, then the bits of
# the rest by squaring (to 2^-20, a thousandth of a pixel here)
function lg10(v,    e, f, b, i) {
	e = 0
	while (v >= 10) { v /= 10; e++ }
	while (v < 1) { v *= 10; e-- }
	f = 0; b = 0.5
	for (i = 0; i < 20; i++) {
		v = v * v
		if (v >= 10) { v /= 10; f += b }
		b /= 2
	}
	return e + f
}
# cntlbl - a count for a log axis: 1, 10, 100, 1k .. 1G
function cntlbl(e) {
	return e < 3 ? sprintf("%d", pow10(e)) : e < 6 ? sprintf("%dk", pow10(e - 3)) : e < 9 ? sprintf("%dM", pow10(e - 6)) : sprintf("%dG", pow10(e - 9))
}
# nice - the smallest of 1, 2, 5 times a power of ten that is >= v
function nice(v,    p) {
	if (v <= 1) return 1
	p = 1
	while (p * 10 < v) p *= 10
	return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p
}
# svg_open - an svg element of w x h pixels with its title and the fill
# patterns of the causes (ids unique to this svg)
function svg_open(w, hgt, title, cls) {
	nsvg++
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n",
	    cls, w, hgt, w, hgt, h(title)
	printf "<defs>"
	printf "<pattern id=\"p%d-softirq\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f3d9a4\"/><rect width=\"3\" height=\"6\" fill=\"#8a4b08\"/></pattern>", nsvg
	printf "<pattern id=\"p%d-nmi\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/><path d=\"M0 0L6 6M6 0L0 6\" stroke=\"#6a1b5a\" stroke-width=\"1.4\"/></pattern>", nsvg
	printf "<pattern id=\"p%d-other\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\"><rect width=\"5\" height=\"5\" fill=\"#e8f0e0\"/><circle cx=\"2.5\" cy=\"2.5\" r=\"1.1\" fill=\"#2f5d1e\"/></pattern>", nsvg
	printf "</defs>\n"
}
# fill - the fill of cause k in the current svg: dark, hatched, crossed,
# light, dotted, white; different in lightness and texture, not hue alone
function fill(k) {
	return k == "hardirq" ? "#1d2f5e" : k == "softirq" ? "url(#p" nsvg "-softirq)" : k == "nmi" ? "url(#p" nsvg "-nmi)" : \
	    k == "thread" ? "#9db7e0" : k == "other" ? "url(#p" nsvg "-other)" : "#ffffff"
}
# cpu_style - the stroke of the i-th curve: lightness, dashes and width
# differ, so that curves stay apart in grey
function cpu_style(i,    n, col, dash) {
	n = split("#000000 #1f5fbf #b2182b #5a5a5a #2e7d32 #8e44ad #d4860b #4d9de0", col, " ")
	split("none|8 3|2 2|10 3 2 3|4 4|1 3|12 4 4 4|6 2 1 2", dash, "|")
	i = (i - 1) % n + 1
	return "stroke=\"" col[i] "\" stroke-width=\"" (i <= 2 ? 2 : 1.6) "\"" (dash[i] == "none" ? "" : " stroke-dasharray=\"" dash[i] "\"")
}
# marker - a point marker of shape i at (x, y)
function marker(i, x, y,    s) {
	s = (i - 1) % 4
	if (s == 0) return sprintf("<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", x, y)
	if (s == 1) return sprintf("<rect x=\"%.1f\" y=\"%.1f\" width=\"6\" height=\"6\"/>", x - 3, y - 3)
	if (s == 2) return sprintf("<path d=\"M%.1f %.1fl3.5 6h-7z\"/>", x, y - 3.5)
	return sprintf("<path d=\"M%.1f %.1fl3.5 3.5l-3.5 3.5l-3.5 -3.5z\"/>", x, y - 3.5)
}
# ylog - the y of value v on a log axis from 10^lo (bottom, y1) to 10^hi (top, y0)
function ylog(v, lo, hi, y0, y1,    l) {
	l = v > 0 ? lg10(v) : lo
	if (l < lo) l = lo
	return y1 - (l - lo) / (hi - lo) * (y1 - y0)
}
# legend - the legend row i of a curve at the right of a plot
function legend(i, x, y, label, with_marker) {
	printf "<g><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" %s/>", x, y, x + 34, y, cpu_style(i)
	if (with_marker) printf "<g fill=\"%s\">%s</g>", substr(cpu_style(i), 9, 7), marker(i, x + 17, y)
	printf "<text x=\"%d\" y=\"%d\" class=\"lg\">%s</text></g>\n", x + 42, y + 4, h(label)
}
# plot_hist - the OSADL plot of type t: samples (log) against latency, a
# step curve per CPU
# (up to xlim us when xlim > 0: the body of the distribution, which the full
# range squeezes against the axis when there is a long tail)
function plot_hist(t, xlim,    W, H, x0, x1, y0, y1, xmax, hi, lo, k, c, n, p, i, kv, b, prev, d, step, v, lx, ly, nl) {
	W = 1160; H = 440; x0 = 80; x1 = 880; y0 = 20; y1 = 380
	xmax = xlim > 0 ? xlim : nice(hmaxb[t] + 2)
	hi = 1; while (pow10(hi) < hmaxn[t]) hi++
	lo = -0.3
	svg_open(W, H, t ": samples per microsecond, log scale, one curve per CPU" (xlim > 0 ? ", up to " xlim " us" : ""), "plot")
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", x0, y0, x1 - x0, y1 - y0
	for (k = 0; k <= hi; k++) {
		v = ylog(pow10(k), lo, hi, y0, y1)
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/><text x=\"%d\" y=\"%.1f\" class=\"tk\" text-anchor=\"end\">%s</text>\n",
		    x0, v, x1, v, x0 - 6, v + 4, cntlbl(k)
	}
	step = nice(xmax / 10)
	for (v = 0; v <= xmax; v += step) {
		lx = x0 + v / xmax * (x1 - x0)
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/><text x=\"%.1f\" y=\"%d\" class=\"tk\" text-anchor=\"middle\">%s</text>\n",
		    lx, y0, lx, y1, lx, y1 + 18, num(v)
	}
	printf "<text x=\"%d\" y=\"%d\" class=\"ax\" text-anchor=\"middle\">Latency (\302\265s)</text>\n", (x0 + x1) / 2, y1 + 44
	printf "<text x=\"18\" y=\"%d\" class=\"ax\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">Number of samples (log scale)</text>\n", (y0 + y1) / 2, (y0 + y1) / 2
	nl = 0
	for (i = 1; i <= nhc[t]; i++) {
		c = hcpu[t, i]
		n = split(hdata[t, c], p, " ")
		d = sprintf("M%d %d", x0, y1)
		prev = -1
		for (k = 1; k <= n; k++) {
			split(p[k], kv, ":")
			b = kv[1] + 0
			if (b < 0 || b >= xmax) continue
			if (b > prev + 1) d = d sprintf("L%.1f %d", x0 + (prev + 1) / xmax * (x1 - x0), y1) sprintf("L%.1f %d", x0 + b / xmax * (x1 - x0), y1)
			v = ylog(kv[2] + 0, lo, hi, y0, y1)
			d = d sprintf("L%.1f %.1fL%.1f %.1f", x0 + b / xmax * (x1 - x0), v, x0 + (b + 1) / xmax * (x1 - x0), v)
			prev = b
		}
		d = d sprintf("L%.1f %d", x0 + (prev + 1) / xmax * (x1 - x0), y1)
		printf "<path d=\"%s\" fill=\"none\" %s data-cpu=\"%s\"/>\n", d, cpu_style(i), h(c)
		ly = y0 + 10 + nl * 20
		if (ly < y1 - 10) { legend(i, x1 + 24, ly, (c == "all" ? "all CPUs" : "CPU " c) ((t, c, 5) in cval ? "  max " cval[t, c, 5] " \302\265s" : ""), 0); nl++ }
		else if (ly < y1 + 10) { printf "<text x=\"%d\" y=\"%d\" class=\"lg\">(%d more CPUs)</text>\n", x1 + 24, ly + 4, nhc[t] - i + 1; nl++ }
	}
	printf "</svg>\n"
}
# zoom - the latency range of the close-up plot of type t: twice the
# largest p99.9 of its rows, rounded up; 0 when the full plot shows the body
# well enough (its range is less than four times that)
function zoom(t,    k, v, z) {
	v = -1
	for (k = 1; k <= ncrow[t]; k++)
		if (cval[t, crow[t, k], 4] ~ /^[0-9]+$/ && cval[t, crow[t, k], 4] + 0 > v) v = cval[t, crow[t, k], 4] + 0
	if (v < 0) return 0
	z = nice(2 * v + 2)
	if (z < 10) z = 10
	return nice(hmaxb[t] + 2) >= 4 * z ? z : 0
}
# tick_time - the label of epoch s on a time axis of step st seconds
function tick_time(s, st,    c) {
	c = ol_civil(s)
	return st >= 86400 ? substr(c, 1, 10) : substr(c, 6, 11)
}
# plot_time - the maximum per interval of type t over time, per CPU
function plot_time(t,    W, H, x0, x1, y0, y1, hi, lo, span, st, i, k, n, p, kv, c, d, v, x, s, pts, ly, nl, steps, ns, first) {
	W = 1160; H = 420; x0 = 80; x1 = 880; y0 = 20; y1 = 360
	hi = 1; while (pow10(hi) < mmax[t]) hi++
	lo = 0
	span = mt1[t] - mt0[t]
	if (span <= 0) span = 1
	ns = split("60 300 600 900 1800 3600 7200 10800 21600 43200 86400 172800 604800 1209600 2592000", steps, " ")
	for (k = 1; k < ns && span / steps[k] > 8; k++) ;
	st = steps[k]
	svg_open(W, H, t ": maximum latency per interval over time, log scale, one series per CPU", "plot")
	printf "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>\n", x0, y0, x1 - x0, y1 - y0
	for (k = 0; k <= hi; k++) {
		v = ylog(pow10(k), lo, hi, y0, y1)
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/><text x=\"%d\" y=\"%.1f\" class=\"tk\" text-anchor=\"end\">%s</text>\n",
		    x0, v, x1, v, x0 - 6, v + 4, num(pow10(k))
	}
	first = mt0[t] - mt0[t] % st
	if (first < mt0[t]) first += st
	for (s = first; s <= mt1[t]; s += st) {
		x = x0 + (s - mt0[t]) / span * (x1 - x0)
		printf "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/><text x=\"%.1f\" y=\"%d\" class=\"tk\" text-anchor=\"middle\">%s</text>\n",
		    x, y0, x, y1, x, y1 + 18, tick_time(s, st)
	}
	printf "<text x=\"%d\" y=\"%d\" class=\"ax\" text-anchor=\"middle\">Time (UTC), end of each interval</text>\n", (x0 + x1) / 2, y1 + 44
	printf "<text x=\"18\" y=\"%d\" class=\"ax\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">Maximum latency (\302\265s, log scale)</text>\n", (y0 + y1) / 2, (y0 + y1) / 2
	nl = 0
	for (i = 1; i <= nmc[t]; i++) {
		c = mcpu[t, i]
		n = split(mdata[t, c], p, " ")
		d = ""; pts = ""
		for (k = 1; k <= n; k++) {
			split(p[k], kv, ":")
			x = x0 + (kv[1] - mt0[t]) / span * (x1 - x0)
			v = ylog(kv[2] + 0, lo, hi, y0, y1)
			d = d sprintf("%s%.1f %.1f", k == 1 ? "M" : "L", x, v)
			if (n <= 400) pts = pts marker(i, x, v)
		}
		printf "<g data-cpu=\"%s\"><path d=\"%s\" fill=\"none\" %s/><g fill=\"%s\">%s</g></g>\n", h(c), d, cpu_style(i), substr(cpu_style(i), 9, 7), pts
		ly = y0 + 10 + nl * 20
		if (ly < y1 - 10) { legend(i, x1 + 24, ly, "CPU " c, 1); nl++ }
		else if (ly < y1 + 10) { printf "<text x=\"%d\" y=\"%d\" class=\"lg\">(%d more CPUs)</text>\n", x1 + 24, ly + 4, nmc[t] - i + 1; nl++ }
	}
	printf "</svg>\n"
}
# cause_legend - the legend of the causes at (x, y), in a row; with
# windows, the five parts of a window only (no unexplained: a cause of an
# outlier, not a part of its window)
function cause_legend(x, y, windows,    k, n, cs) {
	n = split("hardirq softirq nmi thread other" (windows ? "" : " unexplained"), cs, " ")
	for (k = 1; k <= n; k++)
		printf "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"12\" fill=\"%s\" class=\"seg\"/><text x=\"%d\" y=\"%d\" class=\"lg\">%s</text>\n",
		    x + (k - 1) * 118, y - 10, fill(cs[k]), x + (k - 1) * 118 + 22, y + 1, cs[k]
}
# hbar - a horizontal bar at (x, y), w pixels for total, made of the
# parts v[1..5] (hardirq softirq nmi thread other)
function hbar(x, y, w, hgt, total, v, title,    k, cs, xx, ww) {
	split("hardirq softirq nmi thread other", cs, " ")
	xx = x
	for (k = 1; k <= 5; k++) {
		if (v[k] <= 0) continue
		ww = total > 0 ? v[k] / total * w : 0
		printf "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" class=\"seg\"><title>%s: %s %s \302\265s</title></rect>\n",
		    xx, y, ww, hgt, fill(cs[k]), h(title), cs[k], us1(v[k])
		xx += ww
	}
}
# short - s cut to n characters
function short(s, n) { return length(s) > n ? substr(s, 1, n - 1) "\342\200\246" : s }
# explain_section - the breakdown of each explained worst window of type t
function explain_section(t,    k, W, H, wmax, v, y, lab) {
	if (!nex[t]) return
	printf "<h3>Where the time of each CPU&#39;s worst window went (lh explain)</h3>\n"
	W = 1160; H = 60 + nex[t] * 34
	wmax = 0
	for (k = 1; k <= nex[t]; k++) if (ef[t, k, 4] + 0 > wmax) wmax = ef[t, k, 4] + 0
	svg_open(W, H, t ": the worst window of each CPU by cause", "bars")
	cause_legend(200, 22, 1)
	for (k = 1; k <= nex[t]; k++) {
		y = 40 + (k - 1) * 34
		lab = "CPU " ef[t, k, 3] ": " us1(ef[t, k, 4]) " \302\265s"
		printf "<text x=\"190\" y=\"%d\" class=\"lg\" text-anchor=\"end\">%s</text>\n", y + 16, h(lab)
		v[1] = ef[t, k, 5]; v[2] = ef[t, k, 6]; v[3] = ef[t, k, 7]; v[4] = ef[t, k, 8]; v[5] = ef[t, k, 9]
		hbar(200, y, 900, 22, wmax, v, t " CPU " ef[t, k, 3])
	}
	printf "</svg>\n<ul class=\"story\">\n"
	for (k = 1; k <= nex[t]; k++) printf "<li>%s</li>\n", h(ef[t, k, 10])
	printf "</ul>\n"
}
# table - samples and percentiles per CPU of type t
function table(t,    k, c, j, names) {
	split("samples p50 p99 p99.9 max", names, " ")
	printf "<table class=\"num\"><thead><tr><th>CPU</th><th>samples</th><th>p50 (\302\265s)</th><th>p99 (\302\265s)</th><th>p99.9 (\302\265s)</th><th>max (\302\265s)</th></tr></thead><tbody>\n"
	for (k = 1; k <= ncrow[t]; k++) {
		c = crow[t, k]
		printf "<tr data-type=\"%s\" data-cpu=\"%s\"%s><td>%s</td>", h(t), h(c), c == "all" ? " class=\"all\"" : "", c == "all" ? "all" : h(c)
		for (j = 1; j <= 5; j++) printf "<td data-k=\"%s\">%s</td>", names[j], h(cval[t, c, j])
		printf "</tr>\n"
	}
	printf "</tbody></table>\n"
}
# outlier_section - outliers per day and cause, and the worst ones
function outlier_section(    k, d, cs, nc, ndays, days, seen, cnt, top, W, H, x0, y0, y1, bw, x, y, j, hh, ymax, step, v, sel, n, i, wmax, lab, tot, vv) {
	printf "<section><h2>Outliers</h2>\n"
	if (!no) {
		printf "<p class=\"note\">No outlier records%s.</p>\n", meta["outliers"] == "" ? "" : ": " h(meta["outliers"])
		if (missed) printf "<p class=\"note\">%d records were dropped by the full logs before lh read them.</p>\n", missed
		printf "</section>\n"
		return
	}
	nc = split("hardirq softirq nmi thread other unexplained", cs, " ")
	ndays = 0
	for (k = 1; k <= no; k++) {
		d = substr(of[k, 4], 1, 10)
		if (!(d in seen)) { seen[d] = 1; days[++ndays] = d }
		cnt[d, of[k, 6]]++
		tot[d]++
	}
	# (days in order: the records come oldest first, but sort anyway)
	for (i = 2; i <= ndays; i++) {
		d = days[i]
		for (j = i - 1; j >= 1 && days[j] > d; j--) days[j + 1] = days[j]
		days[j + 1] = d
	}
	ymax = 0
	for (i = 1; i <= ndays; i++) if (tot[days[i]] > ymax) ymax = tot[days[i]]
	ymax = nice(ymax)
	printf "<p>%d outlier records%s. Per UTC day, by cause:</p>\n", no, missed ? sprintf(", and %d dropped by the full logs before lh read them", missed) : ""
	W = 1160; H = 360; x0 = 80; y0 = 50; y1 = 300
	svg_open(W, H, "outliers per day by cause", "bars")
	cause_legend(x0, 24, 0)
	step = nice(ymax / 5)
	for (v = 0; v <= ymax; v += step) {
		y = y1 - v / ymax * (y1 - y0)
		printf "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/><text x=\"%d\" y=\"%.1f\" class=\"tk\" text-anchor=\"end\">%s</text>\n",
		    x0, y, W - 40, y, x0 - 6, y + 4, num(v)
	}
	printf "<text x=\"18\" y=\"%d\" class=\"ax\" text-anchor=\"middle\" transform=\"rotate(-90 18 %d)\">Outliers per day</text>\n", (y0 + y1) / 2, (y0 + y1) / 2
	bw = (W - 40 - x0) / ndays
	if (bw > 120) bw = 120
	for (i = 1; i <= ndays; i++) {
		x = x0 + (i - 1) * bw + bw * 0.15
		y = y1
		for (j = 1; j <= nc; j++) {
			if (!cnt[days[i], cs[j]]) continue
			hh = cnt[days[i], cs[j]] / ymax * (y1 - y0)
			y -= hh
			printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" class=\"seg\" data-day=\"%s\" data-cause=\"%s\" data-n=\"%d\"><title>%s %s: %d</title></rect>\n",
			    x, y, bw * 0.7, hh, fill(cs[j]), days[i], cs[j], cnt[days[i], cs[j]], days[i], cs[j], cnt[days[i], cs[j]]
		}
		printf "<text x=\"%.1f\" y=\"%.1f\" class=\"tk\" text-anchor=\"middle\">%d</text>\n", x + bw * 0.35, y - 5, tot[days[i]]
		if (ndays <= 16 || i % int(ndays / 16 + 1) == 1)
			printf "<text x=\"%.1f\" y=\"%d\" class=\"tk\" text-anchor=\"middle\">%s</text>\n", x + bw * 0.35, y1 + 18, substr(days[i], 6)
	}
	printf "<text x=\"%d\" y=\"%d\" class=\"ax\" text-anchor=\"middle\">Day (UTC, month-day)</text>\n", (x0 + W - 40) / 2, y1 + 44
	printf "</svg>\n"
	# the worst top (default 10), largest first (an equal latency keeps the older)
	if (top + 0 < 1) top = 10
	n = 0
	for (k = 1; k <= no; k++) {
		for (i = n; i >= 1 && of[k, 5] + 0 > of[sel[i], 5] + 0; i--) if (i < top) sel[i + 1] = sel[i]
		if (i < top) { sel[i + 1] = k; if (n < top) n++ }
	}
	wmax = 0
	for (i = 1; i <= n; i++) if (of[sel[i], 7] + 0 > wmax) wmax = of[sel[i], 7] + 0
	printf "<h3>The %d worst outliers, and where their window went</h3>\n", n
	H = 50 + n * 34
	svg_open(W, H, "the worst outliers by cause", "bars")
	cause_legend(400, 22, 1)
	for (i = 1; i <= n; i++) {
		k = sel[i]
		y = 40 + (i - 1) * 34
		lab = num(of[k, 5]) " \302\265s  " of[k, 2] " CPU" of[k, 3] "  " substr(of[k, 4], 6, 5) " " substr(of[k, 4], 12, 8)
		printf "<text x=\"390\" y=\"%d\" class=\"lg\" text-anchor=\"end\">%s</text>\n", y + 16, h(short(lab, 56))
		vv[1] = of[k, 8]; vv[2] = of[k, 9]; vv[3] = of[k, 10]; vv[4] = of[k, 11]; vv[5] = of[k, 12]
		hbar(400, y, 480, 22, wmax, vv, of[k, 2] " CPU" of[k, 3])
		printf "<text x=\"%d\" y=\"%d\" class=\"lg\">%s</text>\n", 890, y + 16, h(short(of[k, 13] == "-" ? of[k, 6] : of[k, 13], 36))
	}
	printf "</svg>\n"
	printf "<table class=\"num\"><thead><tr><th>time (UTC)</th><th>type</th><th>CPU</th><th>latency (\302\265s)</th><th>cause</th><th>detail</th><th>victim &lt;- culprit</th></tr></thead><tbody>\n"
	for (i = 1; i <= n; i++) {
		k = sel[i]
		printf "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%s</td><td data-k=\"latency\">%s</td><td class=\"l\">%s</td><td class=\"l\">%s</td><td class=\"l\">%s &lt;- %s</td></tr>\n",
		    h(of[k, 4]), h(of[k, 2]), h(of[k, 3]), h(of[k, 5]), h(of[k, 6]), h(of[k, 13]), h(of[k, 14]), h(of[k, 15])
	}
	printf "</tbody></table></section>\n"
}
# html_page - the whole page
function html_page(    i, t, k, title, kind, z) {
	kind = meta["kind"]
	title = "latency_hist report: " meta["host"] " " meta["kernel"]
	printf "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	printf "<meta name=\"generator\" content=\"lh %s\">\n<title>%s</title>\n", h(meta["lh"]), h(title)
	printf "<style>\n"
	printf "body{font:15px/1.45 \"DejaVu Sans\",Arial,Helvetica,sans-serif;color:#111;background:#fff;margin:0}\n"
	printf "main{max-width:1180px;margin:0 auto;padding:16px 20px 40px}\n"
	printf "h1{font-size:24px;margin:8px 0 12px}h2{font-size:20px;margin:28px 0 8px;border-bottom:2px solid #333;padding-bottom:3px}h3{font-size:16px;margin:18px 0 6px}\n"
	printf "table{border-collapse:collapse;margin:8px 0 12px}th,td{border:1px solid #999;padding:3px 10px}th{background:#e6e6e6;text-align:left}\n"
	printf "table.num td{text-align:right;font-variant-numeric:tabular-nums}table.num td.l{text-align:left}tr.all td{font-weight:bold;background:#f2f2f2}\n"
	printf "table.meta th{width:190px}table.meta td{font-family:\"DejaVu Sans Mono\",monospace;font-size:13px;word-break:break-all}\n"
	printf "svg{display:block;max-width:100%%;height:auto;margin:6px 0}svg .frame{fill:none;stroke:#333}svg .grid{stroke:#d0d0d0;stroke-width:1}\n"
	printf "svg text{font-family:\"DejaVu Sans\",Arial,sans-serif}svg .tk{font-size:13px;fill:#222}svg .ax{font-size:14px;fill:#111;font-weight:bold}svg .lg{font-size:13px;fill:#111}\n"
	printf "svg .seg{stroke:#111;stroke-width:0.8}.note{color:#444;font-style:italic}ul.story li{margin:4px 0}\n"
	printf "@media print{main{max-width:none}h2{break-before:auto}svg{break-inside:avoid}}\n"
	printf "</style></head>\n<body>\n<main>\n"
	printf "<h1>%s</h1>\n", h(title)
	printf "<table class=\"meta\">\n"
	printf "<tr><th>data</th><td data-k=\"source\">%s (%s)</td></tr>\n", h(meta["source"]), kind == "series" ? "lh monitor series" : kind == "snapshot" ? "lh snapshot" : "live tree"
	printf "<tr><th>host</th><td data-k=\"host\">%s</td></tr>\n", h(meta["host"])
	printf "<tr><th>kernel</th><td>%s</td></tr>\n", h(meta["kernel"])
	printf "<tr><th>kernel command line</th><td>%s</td></tr>\n", h(meta["cmdline"])
	printf "<tr><th>module version</th><td>%s</td></tr>\n", h(meta["module"])
	printf "<tr><th>lh version</th><td>%s</td></tr>\n", h(meta["lh"])
	printf "<tr><th>clock</th><td>%s</td></tr>\n", h(meta["clock"])
	printf "<tr><th>span of the data</th><td data-k=\"span\">%s</td></tr>\n", h(meta["span"])
	printf "</table>\n%s", notes[""]
	for (i = 1; i <= nt; i++) {
		t = tord[i]
		printf "<section data-type=\"%s\"><h2>%s</h2>\n", h(t), h(t)
		printf "%s", notes[t]
		printf "<h3>Latency histogram (samples per \302\265s, log scale)</h3>\n"
		if (nhc[t]) {
			plot_hist(t, 0)
			if ((z = zoom(t)) > 0) {
				printf "<h3>The same, up to %s \302\265s (twice the largest p99.9, rounded up)</h3>\n", z
				plot_hist(t, z)
			}
		} else printf "<p class=\"note\">No histogram rows.</p>\n"
		printf "<h3>Maximum per interval over time</h3>\n"
		if (nmc[t]) plot_time(t)
		else if (kind == "series") printf "<p class=\"note\">No interval of this type had a sample in range.</p>\n"
		else printf "<p class=\"note\">Not available for a %s: the maximum over time comes from the series of lh monitor (lh report DIR --html on its directory).</p>\n", kind == "snapshot" ? "snapshot" : "live tree"
		printf "<h3>Per CPU</h3>\n"
		table(t)
		explain_section(t)
		printf "</section>\n"
	}
	if (!nt) printf "<p class=\"note\">No type has samples.</p>\n"
	outlier_section()
	printf "<section><h2>Not measured</h2>\n"
	if (nunav) {
		printf "<p>What this kernel cannot measure, and why (from the status file):</p><ul>\n"
		for (k = 1; k <= nunav; k++) printf "<li data-type=\"%s\"><b>%s</b>: %s</li>\n", h(unav[k]), h(unav[k]), h(unavwhy[unav[k]] == "" ? "not available on this kernel" : unavwhy[unav[k]])
		printf "</ul>\n"
	} else if (kind == "series")
		printf "<p class=\"note\">The series does not record what the kernel could not measure; lh report --html on a snapshot or on the live tree does.</p>\n"
	else
		printf "<p>Every type is available on this kernel.</p>\n"
	if (nidle) {
		printf "<p>Without samples:"
		for (k = 1; k <= nidle; k++) printf "%s %s", (k > 1 ? "," : ""), h(idle[k])
		printf " (not enabled, or nothing happened).</p>\n"
	}
	printf "</section>\n"
	printf "<footer><p class=\"note\">Made by lh %s (lh report --html). One self-contained file: no network, no external resources.</p></footer>\n", h(meta["lh"])
	printf "</main>\n"
	# the page checks itself where a browser runs it: how many svg elements
	# it has and how many rendered with no size (selftests/lh_host/test_report_html.sh)
	printf "<script>\n(function () {\n\tvar s = document.getElementsByTagName(\"svg\"), z = 0, i, r;\n"
	printf "\tfor (i = 0; i < s.length; i++) { r = s[i].getBoundingClientRect(); if (!(r.width > 0 && r.height > 0)) z++; }\n"
	printf "\tdocument.body.setAttribute(\"data-svgs\", s.length);\n\tdocument.body.setAttribute(\"data-svgs-empty\", z);\n})();\n</script>\n"
	printf "</body></html>\n"
}
