#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# rows_file.sh - every rows file says what its CPUx files say, in short
#
# Proves (Documentation/latency_hist.rst, "rows"): after real activity
# (every available type enabled, RT sleepers, then all disabled so nothing
# moves; the CPUx headers read before and after the rows file are the same),
# each <type>/rows holds its two header lines, then for every possible CPU,
# in order, the line "CPU<n> total below above min mean max sum" whose
# first six values are those of the CPUx header, followed by exactly the
# non-zero rows of the CPUx file; and the sum is the sum of those rows'
# samples where no sample is out of range, else it lies within what the
# out-of-range counts, min and max allow.
#
# requires: none

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

# cpux_as_rows FILE - print the rows file that the CPUx files of a type,
# concatenated in FILE with a line "@CPU <n>" before each, call for, with
# "sum LO HI" in place of the sum: the range it must lie in
cpux_as_rows()
{
	awk '
	function flush(    lo, hi) {
		if (c == "") return
		lo = hi = sum
		if (above) { lo += mx + (above - 1) * 10240; hi += above * mx }
		if (below) { lo += below * mn; hi += mn - (below - 1) }
		printf "CPU%s %s %s %s %s %s %s sum %.0f %.0f\n", c, total, below, above, mn, mean, mx, lo, hi
		for (i = 1; i <= nr; i++) print row[i]
	}
	BEGIN {
		print "#latency_hist rows 1"
		print "#CPU total below above min mean max sum"
	}
	$1 == "@CPU" { flush(); c = $2; sum = 0; nr = 0; next }
	/^#Minimum latency: / { mn = $3 == "<undef>" ? "-" : $3 }
	/^#Average latency: / { mean = $3 == "<undef>" ? "-" : $3 }
	/^#Maximum latency: / { mx = $3 == "<undef>" ? "-" : $3 }
	/^#Total samples: / { total = $3 }
	/^#There are .* lower than / { below = $3 }
	/^#There are .* greater or equal than / { above = $3 }
	/^[ 0-9]/ && $2 != "0" { row[++nr] = ($1 + 0) " " $2; sum += $1 * $2 }
	END { flush() }' "$1"
}

# cpux_headers HIST - print the header lines of the CPUx files of HIST
# (the kernel prints no row that is not read)
cpux_headers()
{
	for c in $LH_CPUS; do
		head -n 7 "$LH_DIR/$1/CPU$c"
	done
}

# same_rows WANT HAVE - print the lines that differ (a "sum LO HI" line of
# WANT matches a CPU line of HAVE whose sum is in LO..HI)
same_rows()
{
	awk 'NR == FNR { want[FNR] = $0; nw = FNR; next }
	{ have[FNR] = $0; nh = FNR }
	END {
		if (nw != nh) print "lines: " nh ", expected " nw
		for (i = 1; i <= nw && i <= nh; i++) {
			if (want[i] !~ / sum /) {
				if (want[i] != have[i]) print "line " i ": \"" have[i] "\", expected \"" want[i] "\""
				continue
			}
			split(want[i], w, " "); split(have[i], h, " ")
			head = have[i]; sub(/ [^ ]*$/, "", head)
			ok = head == w[1] " " w[2] " " w[3] " " w[4] " " w[5] " " w[6] " " w[7] && h[8] ~ /^-?[0-9]+$/ &&
			    h[8] + 0 >= w[9] + 0 && h[8] + 0 <= w[10] + 0
			if (!ok) print "line " i ": \"" have[i] "\", expected \"" w[1] " ... " w[7] " <sum in " w[9] ".." w[10] ">\""
		}
	}' "$1" "$2"
}

lh_setup
lh_plan 2
lh_load_or_bail

lh_enable_available
lh_activity
lh_disable_all
lh_diag "samples recorded: $(hl_samples_sum)"

lh_case_begin
nonempty=0
for h in $LH_HISTS; do
	if [ ! -r "$LH_DIR/$h/rows" ]; then
		lh_err "$h/rows does not exist"
		continue
	fi
	for c in $LH_CPUS; do
		echo "@CPU $c"
		cat "$LH_DIR/$h/CPU$c"
	done >"$LH_TMP/cpux"
	cat "$LH_DIR/$h/rows" >"$LH_TMP/have"
	grep '^#' "$LH_TMP/cpux" >"$LH_TMP/before"
	cpux_headers "$h" >"$LH_TMP/after"
	cmp -s "$LH_TMP/before" "$LH_TMP/after" || lh_err "$h: the CPUx files moved while disabled"
	cpux_as_rows "$LH_TMP/cpux" >"$LH_TMP/want"
	diffs=$(same_rows "$LH_TMP/want" "$LH_TMP/have")
	[ -z "$diffs" ] || lh_err "$h/rows: $diffs"
	grep -q '^[0-9]' "$LH_TMP/have" && nonempty=$((nonempty + 1))
done
[ "$nonempty" -gt 0 ] || lh_err "no histogram recorded a sample: nothing was compared"
lh_diag "$nonempty histograms with samples compared"
lh_case_end rows_files_match_the_cpu_files

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
