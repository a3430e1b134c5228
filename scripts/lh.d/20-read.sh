# SPDX-License-Identifier: GPL-2.0
#
# 20-read.sh - the readers of the tree: the awk library every reading command
# shares (base.awk and hist.awk, one reader per file format) and the shell
# around it that lists a tree's files and runs the library over them (lh_awk,
# hist_headers, tree_types, summary_types). A part of scripts/lh: see
# assemble.sh.

# ------------------------------------------------------------------ awk

# The awk library every reading command shares: JSON strings, numeric sort,
# and the parsers that check each file against the module's format. In two
# parts: LH_AWK_BASE, what a program that reads only the status file needs
# (load_types, which every command runs), and LH_AWK_HIST, the readers of
# the histograms' files and what prints them; LH_AWK_LIB is both;
# LH_AWK_OUTLIER reads the outlier logs. busybox
# awk parses a program at every start, a few ms per 10 KB on a small rig.
# shellcheck disable=SC2016 # awk code, not shell
LH_AWK_BASE='
#lh-include base.awk
'
# shellcheck disable=SC2016 # awk code, not shell
LH_AWK_HIST='
#lh-include hist.awk
#lh-include views.awk
'
LH_AWK_LIB=$LH_AWK_BASE$LH_AWK_HIST
# The reader of the outlier logs (lh outliers), after LH_AWK_BASE.
# shellcheck disable=SC2016 # awk code, not shell
LH_AWK_OUTLIER='
#lh-include outlier.awk
'

# hist_rows TYPE - print the files that hold TYPE's histograms: its rows
# file, or on a module older than it the CPUx files
hist_rows()
{
	if [ -e "$LH_ROOT/$1/rows" ]; then
		printf '%s\n' "$LH_ROOT/$1/rows"
	else
		printf '%s\n' "$LH_ROOT/$1"/CPU[0-9]*
	fi
}

# hist_files TYPE.. - print the readable files of the TYPEs, one a line
# (rows or CPUx, max_latency-CPUx, summary, lines, pid); dies if one cannot
# be read
hist_files()
{
	# (one pipeline, not a command substitution per type: each costs a fork)
	for HF_T in "$@"; do
		hist_rows "$HF_T"
		printf '%s\n' "$LH_ROOT/$HF_T"/max_latency-CPU[0-9]* "$LH_ROOT/$HF_T"/summary "$LH_ROOT/$HF_T"/lines \
			"$LH_ROOT/$HF_T"/pid
	done | while IFS= read -r HF_F; do
		[ -e "$HF_F" ] || continue
		[ -r "$HF_F" ] || die "cannot read $HF_F (not root?)"
		# Under lockdown a pid file (it has a write bit) cannot be
		# opened: its value is then left out ("-"), the rest reads.
		case $HF_F in */pid) { true <"$HF_F"; } 2>/dev/null || continue ;; esac
		printf '%s\n' "$HF_F"
	done
}

# tree_files - print the status file and the files of every histogram
tree_files()
{
	printf '%s\n' "$LH_ROOT/status"
	# shellcheck disable=SC2046 # a word list
	hist_files $(tree_types)
}

# lh_awk PROGRAM NAME=VALUE.. FILE.. - run the library and PROGRAM over files
# of the tree LH_ROOT, each line going to the parser of its file; PROGRAM
# defines END_OUTPUT(), which runs when every file passed its checks. The
# NAME=VALUE operands set awk variables before the first file is read. With
# split_at=N the files from the Nth on are a second tree (rootb=its root):
# the summary lines read so far move to sum_a[] first (lh compare).
lh_awk()
{
	LA_PROG=$1
	shift
	# shellcheck disable=SC2016 # awk code
	awk "$LH_AWK_LIB"'
# (one rule for the first line of a file: every line tests its pattern)
FNR == 1 {
	if (cx_open) cpux_end()
	if (rw_open) rows_end()
	if (++nfiles == split_at) {
		for (k in sum_line) sum_a[k] = sum_line[k]
		for (k in have_summary) if (!(k in have_all)) fail(root "/" k "/summary: no \"all\" line")
		delete sum_line; delete have_cpu; delete ncpu; delete cpus; delete have_summary; delete have_all
		root = rootb
	}
	ftype = path_type(FILENAME); fname = FILENAME; sub(/^.*\//, "", fname); seen[FILENAME] = 1; rd_file = FILENAME
	is_cpux = fname ~ /^CPU[0-9]+$/
	is_rows = fname == "rows"
	if (is_cpux) { add_cpu(ftype, substr(fname, 4)); cpux_begin(ftype SUBSEP substr(fname, 4), "all", FILENAME) }
	else if (is_rows) rows_begin(ftype, FILENAME)
}
# (the rows of the CPUx and rows files are most of the lines: they take the
# fewest steps)
is_cpux { rd_ln = FNR; cpux_line(); next }
is_rows { rd_ln = FNR; rows_line(); next }
{ rd_ln = FNR }
fname ~ /^max_latency-CPU[0-9]+$/ {
	if (FNR > 1) bad("one line only")
	j = maxrec_json($0)
	if (j == "") bad("not a max_latency line")
	maxrec[ftype, substr(fname, 16)] = j
	next
}
fname == "summary" { summary_line(ftype); next }
fname == "lines" { lines_line(ftype); next }
fname == "tasks" || fname == "cgroups" { lines_line(ftype "/" fname); next }
fname == "pid" {
	if (FNR > 1 || !is_uint($0)) bad("not a pid")
	pidval[ftype] = $0
	next
}
fname == "status" { status_line(); next }
{ bad("not a file lh knows") }
END {
	if (lh_failed) exit 2
	if (cx_open) cpux_end()
	if (rw_open) rows_end()
	for (i = 1; i < ARGC; i++)
		if (ARGV[i] !~ /^[A-Za-z_][A-Za-z0-9_]*=/ && !(ARGV[i] in seen)) fail(ARGV[i] ": empty file")
	for (t in have_summary) summary_done(t)
	for (t in ln_why) lines_done(t)
	END_OUTPUT()
}
'"$LA_PROG" root="$LH_ROOT" "$@"
}

# hist_headers TYPE.. - print "TYPE CPU TOTAL MAX" for each CPU of the
# TYPEs: from the rows file, or from the header of each CPUx file
# (cpux_peek: its rows are not read); dies on a file not in its format
hist_headers()
{
	HH_FILES=$(for HH_T in "$@"; do hist_rows "$HH_T"; done)
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; awk -v root="$LH_ROOT" "$LH_AWK_LIB"'BEGIN {
	for (i = 1; i < ARGC; i++) {
		t = path_type(ARGV[i]); c = ARGV[i]; sub(/^.*\//, "", c)
		if (c == "rows") {
			rows_read(ARGV[i], t)
			for (k = 1; k <= ncpu[t]; k++) print t, cpus[t, k], hdr_total[t, cpus[t, k]], hdr_max[t, cpus[t, k]]
			continue
		}
		c = substr(c, 4)
		cpux_peek(ARGV[i], t SUBSEP c)
		print t, c, hdr_total[t, c], hdr_max[t, c]
	}
	exit
}' $HH_FILES)
}

# tree_types - print the histograms present in this tree, status order
tree_types()
{
	for TT_T in $LH_HISTS; do
		[ -d "$LH_ROOT/$TT_T" ] && printf '%s ' "$TT_T"
	done
	echo
}

# summary_types TYPE.. - check the TYPEs (default: every histogram with a
# summary file) and print them; dies if one has no summary file
summary_types()
{
	if [ $# -eq 0 ]; then
		ST_ALL=
		for ST_T in $(tree_types); do
			[ -e "$LH_ROOT/$ST_T/summary" ] && ST_ALL="$ST_ALL $ST_T"
		done
		[ -n "$ST_ALL" ] ||
			die "no summary files in $LH_ROOT: this latency_hist is older than the summary file"
		echo "${ST_ALL# }"
		return
	fi
	for ST_T in "$@"; do
		check_hist "$ST_T"
		[ -e "$LH_ROOT/$ST_T/summary" ] ||
			die "$LH_ROOT/$ST_T/summary does not exist: this latency_hist is older than the summary file"
	done
	echo "$*"
}

