# SPDX-License-Identifier: GPL-2.0
#
# 92-html.sh - lh report --html: one self-contained HTML page (inline SVG,
# no network) of a monitor's series, a snapshot or the live tree. The data
# comes from lh's own readers (lh_awk and its library for a tree, with lh
# explain --json and lh outliers --json; the series reader for a series) as
# the lines of a small model, which html.awk draws. A part of scripts/lh:
# see assemble.sh.

# ------------------------------------------------------------------ report --html

# shellcheck disable=SC2016 # awk code, not shell
LH_HTML_AWK='
#lh-include html.awk
'

# html_tree_model KIND - the model of the tree LH_ROOT (KIND snapshot or
# live) on stdout; run in a subshell: it dies on a tree not in its format
html_tree_model()
{
	need_tree
	gather_meta
	HM_CMDLINE=
	HM_LHV=$LH_VERSION
	if [ "$1" = snapshot ]; then
		HM_CMDLINE=$(meta_value cmdline)
		HM_LHV=$(meta_value lh_version)
		HM_LHV="${HM_LHV:-?} (took the snapshot); $LH_VERSION (made this page)"
	elif [ -r /proc/cmdline ]; then
		IFS= read -r HM_CMDLINE </proc/cmdline
	fi
	HM_FILES=$(tree_files) || exit 2
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; lh_awk "$LH_AWK_OUTLIER$LH_HTML_AWK"'
function m(k, v) { printf "meta\t%s\t%s\n", k, hm_clean(v) }
function END_OUTPUT(    i, t, k, c, nc, f, nf, r, tot, above, mx, cl, l, sl, n, kv) {
	m("kind", kind); m("source", root); m("host", host); m("kernel", krel); m("cmdline", cmdline)
	m("module", modver == "" ? "unknown (no /sys/module/latency_hist/version)" : modver); m("lh", lhver)
	m("span", (kind == "snapshot" ? "taken " : "read ") tm (uptime == "" ? "" : ", " sprintf("%.0f", uptime) " s after boot") \
	    ": what the histograms gathered since the module was loaded or last reset")
	# the clock of the windows, from the status file (clock=, clock_why=)
	cl = ""
	while ((getline l < (root "/status")) > 0) {
		n = split(l, sl, " ")
		for (k = 2; k <= n && sl[k] !~ /^reason=/; k++) {
			split(sl[k], kv, "=")
			if ((kv[1] == "clock" || kv[1] == "clock_why") && index(cl, sl[k]) == 0) cl = cl (cl == "" ? "" : " ") sl[k]
		}
	}
	close(root "/status")
	m("clock", cl == "" ? "not in the status file (a latency_hist older than clock=)" : cl)
	for (i = 1; i <= st_n; i++) {
		t = st_order[i]
		summary_done(t)
		if (!st_avail[t]) { printf "unavail\t%s\t%s\n", t, hm_clean(st_reason[t]); continue }
		nc = 0
		for (k = 1; k <= ncpu[t]; k++) sorted[++nc] = cpus[t, k]
		sort_num(sorted, nc)
		tot = above = 0; mx = ""
		for (k = 1; k <= nc; k++) { tot += hdr_total[t, sorted[k]]; above += hdr_above[t, sorted[k]] }
		if (!tot) { printf "idle\t%s\n", t; continue }
		printf "type\t%s\n", t
		for (k = 1; k <= nc; k++) {
			c = sorted[k]
			if ((t, c) in sum_line) {
				split(sum_line[t, c], f, " ")
				printf "cpu\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, c, f[2], f[5], f[7], f[8], f[10]
			} else
				printf "cpu\t%s\t%s\t%s\t-\t-\t-\t%s\n", t, c, hdr_total[t, c], hdr_max[t, c]
			nf = row_fields(t SUBSEP c, f)
			for (r = 1; r < nf; r += 2) printf "hist\t%s\t%s\t%d\t%s\n", t, c, f[r], f[r + 1]
		}
		if ((t, "all") in sum_line) {
			split(sum_line[t, "all"], f, " ")
			printf "cpu\t%s\tall\t%s\t%s\t%s\t%s\t%s\n", t, f[2], f[5], f[7], f[8], f[10]
		} else {
			printf "note\t%s\tThis latency_hist has no summary file: no percentiles.\n", t
		}
		if (above) printf "note\t%s\t%d samples of 10240 \302\265s or more are counted, not drawn (the histogram ends there).\n", t, above
	}
}' kind="$1" host="$MT_HOST" krel="$MT_KREL" modver="$MT_MODVER" tm="$MT_TIME" uptime="$MT_UPTIME" lhver="$HM_LHV" \
	cmdline="$HM_CMDLINE" $HM_FILES) || exit 2
	# explain's breakdown of each CPU's worst window (lh explain --json)
	type_rows 7
	for HM_T in $TR_OUT; do
		[ -e "$LH_ROOT/$HM_T/explain-CPU0" ] || ls "$LH_ROOT/$HM_T"/explain-CPU[0-9]* >/dev/null 2>&1 || continue
		# shellcheck disable=SC2016 # awk code
		HM_J=$(cmd_explain "$HM_T" --json) || exit 2
		printf '%s\n' "$HM_J" | awk "$LH_AWK_LIB$LH_AWK_OUTLIER$LH_HTML_AWK"'{ hm_explain($0) }' || exit 2
	done
	[ ! -r "$LH_ROOT/explain/enable" ] || [ "$(read_value "$LH_ROOT/explain/enable")" != 0 ] ||
		printf 'note\t\texplain is off (%s/explain/enable is 0): no breakdown of the worst windows.\n' "$LH_ROOT"
	# the outlier logs (lh outliers --json)
	type_rows 8
	if [ -z "$TR_OUT" ]; then
		printf 'meta\toutliers\tno type has an outlier log in this latency_hist\n'
	elif HM_J=$( (cmd_outliers --json) 2>&1); then
		# shellcheck disable=SC2016 # awk code
		printf '%s\n' "$HM_J" | awk "$LH_AWK_LIB$LH_AWK_OUTLIER$LH_HTML_AWK"'{ hm_outliers($0) }' || exit 2
	else
		case $HM_J in
		*"no type has a budget"*) printf 'meta\toutliers\tno type has a budget (outlier_us)\n' ;;
		*) printf '%s\n' "$HM_J" >&2; exit 2 ;;
		esac
	fi
}

# html_series_model DIR - the model of the series of the monitor directory
# DIR on stdout (its pieces in order, through the series reader)
html_series_model()
{
	HS_FILE=$(series_name "$1")
	# shellcheck disable=SC2016 # awk code
	series_cat "$1" | awk "$LH_AWK_LIB$LH_AWK_OUTLIER$LH_SERIES_AWK$LH_HTML_AWK"'
function m(k, v) { printf "meta\t%s\t%s\n", k, hm_clean(v) }
/^\{/ {
	ev = sfield($0, "event")
	if (ev == "outlier") { hm_outlier(hm_sub($0, "outlier")); next }
	if (ev == "outliers_missed") { missed += sfield($0, "missed"); next }
	if (ev == "start") {
		host = hm_str($0, "host"); krel = hm_str($0, "kernel_release"); lhv = hm_str($0, "lh_version")
		iv = sfield($0, "interval_s")
		if (ivs == "") ivs = iv
		else if (index(" " ivs " ", " " iv " ") == 0) ivs = ivs " " iv
		next
	}
	if (ev != "") next
	t = sfield($0, "type"); c = sfield($0, "cpu")
	if (t == "" || c == "") next
	tm = sfield($0, "time")
	if (first == "") first = tm
	last = tm
	if (!(t in tseen)) { tseen[t] = 1; torder[++ntypes] = t }
	k = t SUBSEP c
	if (!(k in cseen)) { cseen[k] = 1; if (c != "all") ccpu[t, ++nc[t]] = c }
	samples[k] += sfield($0, "samples")
	mx = sfield($0, "max_us")
	if (mx != "null" && (!(k in maxv) || snum(mx) > maxv[k])) { maxv[k] = snum(mx); maxs[k] = mx }
	if (c == "all") {
		below[t] += sfield($0, "below")
		hs = $0
		sub(/^.*"histogram": \{/, "", hs); sub(/\}.*$/, "", hs)
		n = split(hs, hp, ", ")
		for (i = 1; i <= n; i++) {
			split(hp[i], kv, "\": ")
			b = substr(kv[1], 2) + 0
			if (!((t, b) in hist)) { hb[t, ++nb[t]] = b }
			hist[t, b] += kv[2]
		}
		next
	}
	if (mx != "null" && snum(mx) >= 0) printf "maxpt\t%s\t%s\t%s\t%s\n", t, c, sfield($0, "time_epoch_s"), snum(mx)
}
END {
	if (lh_failed) exit 2
	m("kind", "series"); m("source", file); m("host", host == "" ? "?" : host); m("kernel", krel == "" ? "?" : krel)
	m("cmdline", "not recorded in the series"); m("module", "not recorded in the series")
	m("lh", (lhv == "" ? "?" : lhv) " (wrote the series); " lhver " (made this page)")
	m("clock", "not recorded in the series")
	m("span", first == "" ? "no records yet" : first " .. " last " (intervals ending then; interval " ivs " s)")
	if (missed) printf "missed\t%d\n", missed
	printf "meta\toutliers\tnone in the series (lh monitor takes them from types with a budget, outlier_us)\n"
	for (j = 1; j <= ntypes; j++) {
		t = torder[j]
		if (!samples[t, "all"]) { printf "idle\t%s\n", t; continue }
		printf "type\t%s\n", t
		for (i = 1; i <= nc[t]; i++) {
			c = ccpu[t, i]
			printf "cpu\t%s\t%s\t%.0f\t-\t-\t-\t%s\n", t, c, samples[t, c], (t, c) in maxs ? maxs[t, c] : "-"
		}
		# the merged histogram of all CPUs, ascending, and its percentiles
		for (i = 2; i <= nb[t]; i++) {
			b = hb[t, i]
			for (k = i - 1; k >= 1 && hb[t, k] > b; k--) hb[t, k + 1] = hb[t, k]
			hb[t, k + 1] = b
		}
		for (i = 1; i <= nb[t]; i++) { rb[i] = hb[t, i]; rn[i] = hist[t, hb[t, i]]; printf "hist\t%s\tall\t%d\t%.0f\n", t, rb[i], rn[i] }
		split("5000 9900 9990", q, " ")
		percentiles(nb[t], rb, rn, below[t], samples[t, "all"], 3, q, p)
		printf "cpu\t%s\tall\t%.0f\t%s\t%s\t%s\t%s\n", t, samples[t, "all"], p[1], p[2], p[3], (t, "all") in maxs ? maxs[t, "all"] : "-"
	}
	if (ntypes) printf "note\t\tThe series keeps the histogram of all CPUs added up, per interval: the histograms below have one curve, and percentiles of all CPUs only; per CPU the samples and the largest maximum of an interval (the maximum over time, per CPU, is drawn below each histogram). A snapshot has the histogram of each CPU, and explain\047s breakdown of each CPU\047s worst window, which a series does not keep (the outliers below have the breakdown of their own windows).\n"
}' file="$HS_FILE" lhver="$LH_VERSION"
}

# report_html SRC OUT TOP - lh report --html: the page of SRC (a monitor
# directory, a snapshot, a latency_hist tree; "" the live tree LH_ROOT) to
# OUT, through a temporary file renamed into place; TOP worst outliers
report_html()
{
	RH_SRC=$1
	RH_OUT=$2
	case $RH_OUT in
	*.html | *.htm) ;;
	*) die "report: --html '$RH_OUT' must end in .html" ;;
	esac
	[ -d "$(dirname "$RH_OUT")" ] || die "report: directory $(dirname "$RH_OUT") does not exist"
	RH_MODEL=$RH_OUT.$$.model
	RH_TMP=$RH_OUT.$$.tmp
	if [ -n "$RH_SRC" ] && (series_pieces "$RH_SRC") >/dev/null 2>&1; then
		series_pieces "$RH_SRC" >/dev/null || exit 2
		(html_series_model "$RH_SRC") >"$RH_MODEL" || { rm -f "$RH_MODEL"; exit 2; }
	else
		RH_KIND=live
		if [ -n "$RH_SRC" ]; then
			LH_ROOT=$(snapshot_tree "$RH_SRC") || exit 2
			[ ! -f "$LH_ROOT/../snapshot.meta" ] || RH_KIND=snapshot
		fi
		# (its status: 3 when the live tree cannot be reached)
		(html_tree_model "$RH_KIND") >"$RH_MODEL" || { RH_RC=$?; rm -f "$RH_MODEL"; exit "$RH_RC"; }
	fi
	# shellcheck disable=SC2016 # awk code
	if ! awk "$LH_AWK_LIB$LH_AWK_OUTLIER$LH_HTML_AWK"'
BEGIN { FS = "\t" }
{ html_line() }
END { html_page() }' top="$3" "$RH_MODEL" >"$RH_TMP"; then
		rm -f "$RH_MODEL" "$RH_TMP"
		die "report: cannot write $RH_OUT"
	fi
	rm -f "$RH_MODEL"
	mv -f "$RH_TMP" "$RH_OUT" || { rm -f "$RH_TMP"; die "report: cannot write $RH_OUT"; }
	echo "lh: report of ${RH_SRC:-$LH_ROOT} written to $RH_OUT" >&2
}
