# SPDX-License-Identifier: GPL-2.0
#
# 60-plot.sh - lh plot (gnuplot) and lh prom (the Prometheus text of one
# read). A part of scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ plot and Prometheus

# default_plot_type - the first histogram with samples (wakeup first, then
# status order)
default_plot_type()
{
	for DP_T in wakeup $LH_HISTS; do
		[ -e "$LH_ROOT/$DP_T/CPU0" ] || continue
		# shellcheck disable=SC2016 # awk code
		if hist_headers "$DP_T" | awk '$3 != "0" { found = 1 } END { exit !found }'; then
			echo "$DP_T"
			return 0
		fi
	done
	die "plot: no histogram has samples"
}

# plot_data TYPE - print "<us> <count CPU0>\t<count CPU1>.." for 0..max+1 us
# (OSADL's plot data format); an empty row count means no samples
plot_data()
{
	PD_FILES=$(hist_files "$1") || exit 2
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; lh_awk '
function END_OUTPUT(    k, c, nc, b, r, top, line, count, nf, f) {
	nc = 0
	for (k = 1; k <= ncpu[t]; k++) sorted[++nc] = cpus[t, k]
	sort_num(sorted, nc)
	top = -1
	for (k = 1; k <= nc; k++) if (hdr_max[t, sorted[k]] != "-") {
		b = hdr_max[t, sorted[k]] + 0
		if (b > 10239) b = 10239
		if (b > top) top = b
	}
	if (top < 0) { print "# no samples"; exit 0 }
	printf "# latency_hist %s: usecs", t
	for (k = 1; k <= nc; k++) printf "%sCPU%s (max %s us)", (k > 1 ? "\t" : " "), sorted[k], hdr_max[t, sorted[k]]
	printf "\n"
	for (k = 1; k <= nc; k++) {
		nf = row_fields(t SUBSEP sorted[k], f)
		for (r = 1; r < nf; r += 2) count[k, f[r] + 0] = f[r + 1]
	}
	for (b = 0; b <= top + 1 && b < 10240; b++) {
		line = b
		for (k = 1; k <= nc; k++) line = line (k > 1 ? "\t" : " ") (((k, b) in count) ? count[k, b] : 0)
		print line
	}
}' t="$1" $PD_FILES)
}

# help_plot - the usage of lh plot
help_plot()
{
	cat <<'EOF'
cmd file OUT.png|OUT.svg [TYPE]
about OSADL-style latency plot (needs gnuplot)
about plot --data [TYPE]: the plot's data, OSADL format, on stdout
about plot --over-time DIR OUT.png|OUT.svg|--data [TYPE]:
about maximum per interval over time, per CPU
opt - --data - flag print the plot's data instead of drawing it
opt - --over-time DIR dir the maxima of lh monitor's series in DIR
exits 0 2 3
EOF
}

# cmd_plot - draw TYPE's histograms, one curve per CPU, with gnuplot
# (zero counts are drawn at 0.1, below the y range: the curve drops to the axis)
cmd_plot()
{
	if [ "${1:-}" = --over-time ]; then
		shift
		plot_over_time "$@"
		return
	fi
	if [ "${1:-}" = --data ]; then
		[ $# -le 2 ] || die "usage: lh plot --data [TYPE]"
		need_tree
		PL_T=${2:-$(default_plot_type)} || exit 2
		check_hist "$PL_T"
		plot_data "$PL_T"
		return
	fi
	[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: lh plot OUT.png|OUT.svg [TYPE]"
	PL_OUT=$1
	case $PL_OUT in
	*.png) PL_TERM="pngcairo size 1200,700" ;;
	*.svg) PL_TERM="svg size 1200,700 dynamic" ;;
	*) die "plot: '$PL_OUT' must end in .png or .svg" ;;
	esac
	need_tree
	PL_T=${2:-$(default_plot_type)} || exit 2
	check_hist "$PL_T"
	command -v gnuplot >/dev/null 2>&1 ||
		die "plot: gnuplot is not installed (apt-get install gnuplot-nox); 'lh plot --data $PL_T' prints the data to plot elsewhere"
	PL_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lh-plot.XXXXXX") || die "plot: cannot create a temporary directory"
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$PL_TMP'" EXIT
	plot_data "$PL_T" >"$PL_TMP/data" || exit 2
	PL_HEAD=$(head -n 1 "$PL_TMP/data")
	[ "$PL_HEAD" != "# no samples" ] || die "plot: $PL_T has no samples"
	gather_meta
	# One curve per CPU column.
	# shellcheck disable=SC2016
	awk -v term="$PL_TERM" -v out="$PL_OUT" -v data="$PL_TMP/data" -v t="$PL_T" \
	    -v title="$MT_HOST $MT_KREL $MT_TIME" 'NR == 1 {
		n = split($0, col, "\t")
		col[1] = substr(col[1], index(col[1], "CPU"))
		printf "set terminal %s\nset output \"%s\"\n", term, out
		printf "set title \"latency_hist %s: %s\" noenhanced\n", t, title
		print "set xlabel \"Latency (us)\"\nset ylabel \"Number of samples\""
		print "set logscale y\nset yrange [0.8:*]\nset xrange [0:*]\nset grid\nset key top right"
		print "set datafile separator whitespace"
		printf "plot"
		for (i = 1; i <= n; i++)
			printf "%s \"%s\" using 1:($%d > 0 ? $%d : 0.1) with steps title \"%s\" noenhanced", (i > 1 ? "," : ""),
			    data, i + 1, i + 1, col[i]
		printf "\n"
	}' "$PL_TMP/data" >"$PL_TMP/plot.gp"
	if ! PL_ERR=$(gnuplot "$PL_TMP/plot.gp" 2>&1); then
		die "plot: gnuplot failed: $PL_ERR"
	fi
	[ -s "$PL_OUT" ] || die "plot: gnuplot wrote nothing to $PL_OUT${PL_ERR:+: $PL_ERR}"
	echo "lh: $PL_T plotted to $PL_OUT" >&2
}

# prom_text - the Prometheus text exposition of every histogram of the tree
# and of its outlier logs (outlier_prom_text)
prom_text()
{
	MT_HOST=
	[ -z "$LH_PROM_HOST" ] || gather_meta
	PT_FILES=$(tree_files) || exit 2
	if [ "$LH_PROM_TOP" -gt 0 ]; then
		# shellcheck disable=SC2046 # a word list
		PT_FILES=$PT_FILES$LH_NL$(views_files all $(tree_types)) || exit 2
	fi
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; lh_awk '
function END_OUTPUT(    i) {
	for (i = 1; i <= st_n; i++) summary_done(st_order[i])
	prom_text(st_n, st_order, ncpu, cpus, "")
}' bounds="$LH_PROM_BOUNDS" host_label="${LH_PROM_HOST:+$MT_HOST}" top="$LH_PROM_TOP" $PT_FILES) || exit 2
	outlier_prom_text
}

# help_prom - the usage of lh prom
help_prom()
{
	cat <<'EOF'
cmd file [--buckets US,..] [--host-label] [--top N] [FILE]
about Prometheus text exposition (FILE: atomically)
opt - --buckets US,.. text the le bounds in us (default 1,2,5,..,10240)
opt - --host-label - flag a host label on every series
opt - --top N number the N tasks and cgroups with most samples (10)
exits 0 2 3
EOF
}

# cmd_prom - print the exposition, or write it to FILE through a rename so
# node_exporter's textfile collector never reads half a file
cmd_prom()
{
	PR_FILE=
	while [ $# -gt 0 ]; do
		prom_opt prom "$@"
		if [ "$OPT_SHIFT" -gt 0 ]; then
			shift "$OPT_SHIFT"
			continue
		fi
		case $1 in
		--top | --top=*) opt_arg prom "a number" "$@"; top_arg prom "$OPT_VAL"; shift "$OPT_SHIFT"; continue ;;
		-*) die "prom: unknown option $1 (usage: lh prom [--buckets US,..] [--host-label] [--top N] [FILE])" ;;
		esac
		[ -z "$PR_FILE" ] || die "usage: lh prom [--buckets US,..] [--host-label] [--top N] [FILE]"
		PR_FILE=$1
		shift
	done
	if [ -n "$PR_FILE" ]; then
		case $PR_FILE in
		*.prom) ;;
		*) die "prom: '$PR_FILE' must end in .prom (node_exporter's textfile collector reads only those)" ;;
		esac
		[ -d "$(dirname "$PR_FILE")" ] || die "prom: directory $(dirname "$PR_FILE") does not exist"
	fi
	need_tree
	if [ -z "$PR_FILE" ]; then
		prom_text
		return
	fi
	PR_TMP=$PR_FILE.$$.tmp
	if ! prom_text >"$PR_TMP"; then
		rm -f "$PR_TMP"
		exit 2
	fi
	mv -f "$PR_TMP" "$PR_FILE" || { rm -f "$PR_TMP"; die "prom: cannot write $PR_FILE"; }
}

