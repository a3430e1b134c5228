# SPDX-License-Identifier: GPL-2.0
#
# 90-report.sh - lh report and lh plot --over-time: the series of lh monitor
# read back (its reader is series.awk). A part of scripts/lh: see
# assemble.sh.

# ------------------------------------------------------------------ over time: report and plot

# The series reader of lh report and lh plot --over-time, over the pieces
# of the series in order (series_cat). It takes any JSON layout of the
# records: one a line as lh monitor writes them (the fast path), compact
# (jq -c) or spread over lines (jq .); series_take re-lays any other out as
# lh does (", " and ": " between tokens, no other blanks), so that the
# programs see lh's layout in $0. Every top-level key comes before
# "histogram" and "max_latency" or does not occur in them, so the first
# match of "key": is the top-level one (an escaped string cannot hold the
# sequence quote, colon, space). A record cut short (a full disk, a crash)
# is skipped with a warning: the next record starts a line.
# shellcheck disable=SC2016 # awk code, not shell
LH_SERIES_AWK='
#lh-include series.awk
'

# series_pieces DIR - print the pieces of DIR's series, oldest first, one a
# line: logrotate's (series.jsonl.N[.gz], the highest N first), lh
# monitor --rotate's (series-STAMP.jsonl.gz, or .jsonl where gzip failed;
# STAMP, when each was closed, sorts as time does), then series.jsonl; dies
# unless DIR is a monitor's directory
series_pieces()
{
	[ -d "$1" ] || die "$1 is not a directory (lh monitor --out DIR writes DIR/series.jsonl)"
	SP_N=0
	for SP_F in "$1"/series.jsonl.[0-9]* "$1"/series-*.jsonl.gz "$1"/series-*.jsonl "$1/series.jsonl"; do
		[ -e "$SP_F" ] || continue
		[ -r "$SP_F" ] || die "cannot read $SP_F"
		SP_N=$((SP_N + 1))
	done
	[ "$SP_N" -gt 0 ] || die "$1/series.jsonl does not exist or cannot be read: not an lh monitor directory"
	for SP_F in "$1"/series.jsonl.[0-9]*; do
		SP_I=${SP_F##*/series.jsonl.}
		SP_I=${SP_I%.gz}
		case $SP_I in
		"" | *[!0-9]*) ;;
		*) [ -e "$SP_F" ] && printf '%s %s\n' "$SP_I" "$SP_F" ;;
		esac
	done | sort -rn | cut -d ' ' -f 2-
	# one sorted list: a .gz and a .jsonl of the same STAMP never both exist
	for SP_F in "$1"/series-*.jsonl*; do
		case $SP_F in
		*.jsonl | *.jsonl.gz) [ -e "$SP_F" ] && printf '%s\n' "$SP_F" ;;
		esac
	done
	[ ! -e "$1/series.jsonl" ] || printf '%s\n' "$1/series.jsonl"
}

# series_cat DIR - the pieces of DIR's series in order, each after a line
# "#lh-piece PATH" (the series reader's); a piece that cannot be
# decompressed becomes a line "#lh-bad WHY", which fails the reader
series_cat()
{
	SC_LIST=$(series_pieces "$1") || exit 2
	printf '%s\n' "$SC_LIST" | while IFS= read -r SC_F; do
		printf '#lh-piece %s\n' "$SC_F"
		case $SC_F in
		*.gz) gzip -dc "$SC_F" || printf '\n#lh-bad %s: gzip -dc failed\n' "$SC_F" ;;
		*) cat "$SC_F" || printf '\n#lh-bad %s: cannot read it\n' "$SC_F" ;;
		esac
	done
}

# series_name DIR - how lh report names DIR's series: the live piece, and
# how many closed ones come before it
series_name()
{
	SN_N=$(series_pieces "$1" | grep -vc '/series\.jsonl$') || true
	if [ "$SN_N" -gt 0 ]; then
		echo "$1/series.jsonl and $SN_N closed pieces"
	else
		echo "$1/series.jsonl"
	fi
}

# help_report - the usage of lh report
help_report()
{
	cat <<'EOF'
  report DIR [--top N]            worst intervals and per-day p99/p99.9/max
  report [DIR] --html OUT.html [--top N]
                                  one self-contained HTML page (plots, tables,
                                  outliers, explain) of a monitor's DIR, a
                                  snapshot, or without DIR the live tree
EOF
}

# cmd_report - a long run at a glance: span, events, the worst intervals and
# per-day percentiles and maxima (from the records of DIR/series.jsonl)
cmd_report()
{
	RE_TOP=10
	RE_DIR=
	RE_HTML=
	while [ $# -gt 0 ]; do
		case $1 in
		--top | --top=*) opt_arg report "a number" "$@"; RE_TOP=$OPT_VAL; shift "$OPT_SHIFT" ;;
		--html | --html=*) opt_arg report "an output file OUT.html" "$@"; RE_HTML=$OPT_VAL; shift "$OPT_SHIFT" ;;
		-*) die "report: unknown option $1" ;;
		*) [ -z "$RE_DIR" ] || die "usage: lh report DIR [--top N]"; RE_DIR=$1; shift ;;
		esac
	done
	uint_arg report --top "$RE_TOP" 1 999999 "a number of intervals"
	if [ -n "$RE_HTML" ]; then
		report_html "$RE_DIR" "$RE_HTML" "$RE_TOP"
		return
	fi
	[ -n "$RE_DIR" ] || die "usage: lh report DIR [--top N]"
	series_pieces "$RE_DIR" >/dev/null || exit 2
	RE_FILE=$(series_name "$RE_DIR")
	# shellcheck disable=SC2016 # awk code
	series_cat "$RE_DIR" | awk "$LH_AWK_LIB$LH_SERIES_AWK"'
# day_pcts - p99 and p99.9 of day key dk into dp[1..2]
function day_pcts(dk,    b, nb, rb, rn, q) {
	nb = 0
	for (b = dmin[dk]; b <= dmax[dk]; b++)
		if ((dk, b) in dh) { rb[++nb] = b; rn[nb] = dh[dk, b] }
	split("9900 9990", q, " ")
	percentiles(nb, rb, rn, dbelow[dk], dsamples[dk], 2, q, dp)
}
# who - victim <- culprit of a max_latency object, or ""
function who(line,    m) {
	m = index(line, "\"max_latency\": {")
	if (!m) return ""
	m = substr(line, m + 15)
	return sfield(substr(m, index(m, "\"victim\"")), "comm") "/" sfield(substr(m, index(m, "\"victim\"")), "pid") \
	    " <- " sfield(substr(m, index(m, "\"culprit\"")), "comm") "/" sfield(substr(m, index(m, "\"culprit\"")), "pid")
}
/^\{/ {
	ev = sfield($0, "event")
	if (ev == "outlier") {
		o = substr($0, index($0, "\"outlier\": {") + 11)
		ot = sfield(o, "time"); ok = substr(ot, 1, 10) SUBSEP sfield(o, "type") SUBSEP sfield(o, "cause")
		if (!(ok in ocount)) oorder[++nok] = ok
		ocount[ok]++
		lat = sfield(o, "latency_us") + 0
		if (ocount[ok] == 1 || lat > oworst[ok]) {
			oworst[ok] = lat; oworstc[ok] = sfield(o, "cpu"); oworstt[ok] = substr(ot, 12, 12)
			oworstd[ok] = sfield(o, "kind") == "" ? "-" : sfield(o, "kind") " " sfield(o, "name")
		}
		next
	}
	if (ev == "outliers_missed") { omissed += sfield($0, "missed"); next }
	if (ev != "") {
		nev++
		if (ev == "start") {
			starts++
			if (sfield($0, "continues") == "true") restarts++
			host = sfield($0, "host"); krel = sfield($0, "kernel_release"); lhv = sfield($0, "lh_version")
			iv = sfield($0, "interval_s")
			if (ivs == "") ivs = iv
			else if (index(" " ivs " ", " " iv " ") == 0) ivs = ivs " " iv
		} else if (ev == "baseline") baselines++
		else if (ev == "error") errors++
		if (ev != "start" && ev != "stop") {
			nlist++
			evline[nlist] = sprintf("  %s  %-8s %s%s", sfield($0, "time"), ev,
			    sfield($0, "type") == "" ? "" : sfield($0, "type") ": ", sfield($0, "reason"))
		}
		next
	}
	t = sfield($0, "type"); c = sfield($0, "cpu")
	if (t == "" || c == "") next
	tm = sfield($0, "time")
	if (first == "") first = tm
	last = tm
	if (!(t in tseen)) { tseen[t] = 1; torder[++ntypes] = t }
	day = substr(tm, 1, 10)
	dk = day SUBSEP t
	if (!(dk in dseen)) { dseen[dk] = 1; dorder[++ndk] = dk; dmin[dk] = 10240; dmax[dk] = -1 }
	mx = sfield($0, "max_us")
	if (c == "all") {
		nint[t]++
		dsamples[dk] += sfield($0, "samples"); dbelow[dk] += sfield($0, "below")
		h = $0
		sub(/^.*"histogram": \{/, "", h); sub(/\}.*$/, "", h)
		n = split(h, hp, ", ")
		for (i = 1; i <= n; i++) {
			split(hp[i], kv, "\": ")
			b = substr(kv[1], 2) + 0
			dh[dk, b] += kv[2]
			if (b < dmin[dk]) dmin[dk] = b
			if (b > dmax[dk]) dmax[dk] = b
		}
		next
	}
	if (mx == "null") next
	v = snum(mx)
	if (!(dk in dworst) || v > dworst[dk]) { dworst[dk] = v; dworstv[dk] = mx; dworstc[dk] = c; dworstt[dk] = substr(tm, 12, 8) }
	# the top list, largest first; an equal value keeps the earlier interval
	for (i = nw; i >= 1 && v > wv[i]; i--) if (i < top) { wv[i + 1] = wv[i]; wl[i + 1] = wl[i] }
	if (i < top) {
		wv[i + 1] = v
		wl[i + 1] = sprintf("  %8s  %-20s %4s  %s %7s %10s  %s", mx, t, c, tm, sfield($0, "interval_s"),
		    sfield($0, "samples"), who($0))
		if (nw < top) nw++
	}
}
END {
	printf "lh report: %s\n", file
	printf "host %s, kernel %s, lh %s\n", host == "" ? "?" : host, krel == "" ? "?" : krel, lhv == "" ? "?" : lhv
	if (first == "") { print "no records yet"; exit 0 }
	printf "%s .. %s:", first, last
	for (i = 1; i <= ntypes; i++) printf " %s %d intervals%s", torder[i], nint[torder[i]], i < ntypes ? "," : ""
	printf " (interval %s s)\n", ivs
	printf "events: %d starts (%d continuing a series), %d baselines (reset, reload, new boot), %d read errors\n",
	    starts, restarts, baselines, errors
	for (i = (nlist > 20 ? nlist - 19 : 1); i <= nlist; i++) print evline[i]
	if (nlist > 20) printf "  (%d earlier events not shown)\n", nlist - 20
	printf "\nWorst intervals (per CPU, largest maximum first):\n"
	printf "  %8s  %-20s %4s  %-20s %7s %10s  %s\n", "max(us)", "type", "CPU", "interval end (UTC)", "len(s)", "samples",
	    "victim/pid <- culprit/pid"
	for (i = 1; i <= nw; i++) print wl[i]
	if (!nw) print "  (no interval had a sample)"
	printf "\nPer day (UTC), all CPUs:\n"
	printf "  %-10s  %-20s %12s %8s %8s %8s %4s  %s\n", "day", "type", "samples", "p99", "p99.9", "max", "CPU", "at"
	for (i = 1; i <= ndk; i++) {
		dk = dorder[i]
		split(dk, a, SUBSEP)
		if (!dsamples[dk]) {
			printf "  %-10s  %-20s %12s %8s %8s %8s %4s  %s\n", a[1], a[2], 0, "-", "-", "-", "-", "-"
			continue
		}
		day_pcts(dk)
		printf "  %-10s  %-20s %12.0f %8s %8s %8s %4s  %s\n", a[1], a[2], dsamples[dk], dp[1], dp[2],
		    dworstv[dk], dworstc[dk], dworstt[dk]
	}
	if (!nok && !omissed) exit 0
	printf "\nOutliers per day (UTC), by type and cause, and the worst of each (%d missed: dropped before lh read them):\n", omissed
	printf "  %-10s  %-20s %-11s %7s %9s %4s  %-12s  %s\n", "day", "type", "cause", "count", "worst(us)", "CPU", "at", "detail"
	for (i = 1; i <= nok; i++) {
		split(oorder[i], a, SUBSEP)
		printf "  %-10s  %-20s %-11s %7d %9s %4s  %-12s  %s\n", a[1], a[2], a[3], ocount[oorder[i]], oworst[oorder[i]],
		    oworstc[oorder[i]], oworstt[oorder[i]], oworstd[oorder[i]]
	}
}' top="$RE_TOP" file="$RE_FILE"
}

# over_time_data DIR [TYPE] - print the maximum of every interval of TYPE,
# one block per CPU ("# CPU n", then "<epoch s> <max us>" lines), blocks two
# blank lines apart (gnuplot's index); >=10240 counts as 10240, an interval
# without a sample or with only samples below 0 is left out. The first line
# says the type, interval and host; TYPE defaults to wakeup, else the first
# type with a sample.
over_time_data()
{
	series_pieces "$1" >/dev/null || exit 2
	OT_FILE=$(series_name "$1")
	# shellcheck disable=SC2016 # awk code
	series_cat "$1" | awk "$LH_AWK_LIB$LH_SERIES_AWK"'
/^\{/ {
	ev = sfield($0, "event")
	if (ev == "start") {
		host = sfield($0, "host"); iv = sfield($0, "interval_s")
		if (ivs == "") ivs = iv
		else if (ivs != iv) ivs = "mixed"
		next
	}
	if (ev != "") next
	t = sfield($0, "type"); c = sfield($0, "cpu")
	if (t == "" || c == "" || c == "all") next
	mx = sfield($0, "max_us")
	v = snum(mx)
	if (v < 0) next
	if (!(t in seen)) { seen[t] = 1; order[++nt] = t }
	k = t SUBSEP c
	if (!(k in has)) { has[k] = 1; if (c + 0 > maxc[t] + 0 || !(t in maxc)) maxc[t] = c + 0 }
	data[k] = data[k] sfield($0, "time_epoch_s") " " v "\n"
}
END {
	if (want == "") want = ("wakeup" in seen) ? "wakeup" : order[1]
	if (want == "" || !(want in seen)) {
		printf "lh: error: %s has no interval with a sample%s\n", file, want == "" ? "" : " of " want > "/dev/stderr"
		exit 2
	}
	printf "# latency_hist %s: maximum (us) per %s interval, host %s\n", want, ivs == "mixed" ? "" : ivs " s", host
	sep = ""
	for (c = 0; c <= maxc[want]; c++) {
		if (!((want, c) in has)) continue
		printf "%s# CPU %d\n%s", sep, c, data[want, c]
		sep = "\n\n"
	}
}' want="$2" file="$OT_FILE"
}

# plot_over_time DIR OUT.png|OUT.svg|--data [TYPE] - the OSADL long-term
# view: the maximum of every interval over time, one series per CPU, on a
# logarithmic latency axis (gnuplot)
plot_over_time()
{
	if [ $# -lt 2 ] || [ $# -gt 3 ]; then
		die "usage: lh plot --over-time DIR OUT.png|OUT.svg|--data [TYPE]"
	fi
	PO_DIR=$1
	PO_OUT=$2
	if [ "$PO_OUT" = --data ]; then
		over_time_data "$PO_DIR" "${3:-}"
		return
	fi
	case $PO_OUT in
	*.png) PO_TERM="pngcairo size 1200,700" ;;
	*.svg) PO_TERM="svg size 1200,700 dynamic" ;;
	*) die "plot: '$PO_OUT' must end in .png or .svg" ;;
	esac
	series_pieces "$PO_DIR" >/dev/null || exit 2
	command -v gnuplot >/dev/null 2>&1 ||
		die "plot: gnuplot is not installed (apt-get install gnuplot-nox); 'lh plot --over-time $PO_DIR --data' prints the data to plot elsewhere"
	PO_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lh-plot.XXXXXX") || die "plot: cannot create a temporary directory"
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$PO_TMP'" EXIT
	over_time_data "$PO_DIR" "${3:-}" >"$PO_TMP/data" || exit 2
	# shellcheck disable=SC2016 # awk code
	awk -v term="$PO_TERM" -v out="$PO_OUT" -v data="$PO_TMP/data" '
NR == 1 { title = $0; sub(/^# /, "", title); next }
/^# CPU / { cpu[++n] = $3 }
END {
	printf "set terminal %s\nset output \"%s\"\n", term, out
	printf "set title \"%s\" noenhanced\n", title
	print "set xdata time\nset timefmt \"%s\"\nset format x \"%m-%d\\n%H:%M\"\nset xlabel \"Time (UTC)\""
	print "set ylabel \"Maximum latency (us)\"\nset logscale y\nset grid\nset key outside right"
	printf "plot"
	for (i = 1; i <= n; i++)
		printf "%s \"%s\" index %d using 1:2 with linespoints pt 7 ps 0.5 title \"CPU%s\"", (i > 1 ? "," : ""),
		    data, i - 1, cpu[i]
	printf "\n"
}' "$PO_TMP/data" >"$PO_TMP/plot.gp"
	if ! PO_ERR=$(gnuplot "$PO_TMP/plot.gp" 2>&1); then
		die "plot: gnuplot failed: $PO_ERR"
	fi
	[ -s "$PO_OUT" ] || die "plot: gnuplot wrote nothing to $PO_OUT${PO_ERR:+: $PO_ERR}"
	echo "lh: maxima over time plotted to $PO_OUT" >&2
}

