#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# summary.sh - every summary file agrees with its CPUx files
#
# Proves (Documentation/latency_hist.rst, "summary"): after real activity
# (every available type enabled, RT sleepers, then all disabled so nothing
# moves), each <type>/summary holds the header, one line per possible CPU
# and an "all" line, and every field equals what this script computes on
# its own from the CPUx rows: samples, min, max, below, above, the mean to
# 0.01 us (rounded half away from zero), and p50..p99.99 as the smallest
# bucket whose cumulative count reaches ceil(q * samples), below-range
# samples first; "all" from the rows of every CPU added up. The CPUx files
# do not carry the values of out-of-range samples, so where a CPU has any,
# min/max/mean are checked against its header instead.
#
# requires: none

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

# expect_summary HIST - print the summary HIST should have, from its CPUx files
expect_summary()
{
	for c in $LH_CPUS; do
		echo "@CPU $c"
		cat "$LH_DIR/$1/CPU$c"
	done | awk '
	function line(k, n, sum, below, above, hmin, hmax, hmean,   q, r, cum, i, v, out, mn, mx, mean) {
		if (!n) return k " 0 - - - - - - - - 0 0"
		mn = ""; mx = ""
		for (i = 0; i < 10240; i++) if (cnt[k, i]) { if (mn == "") mn = i; mx = i }
		if (below) mn = hmin
		if (above) mx = hmax
		if (below || above) mean = "~" hmean
		else {
			v = int((sum * 100 + int(n / 2)) / n)
			mean = sprintf("%d.%02d", int(v / 100), v % 100)
		}
		out = k " " n " " mn " " mean
		split("5000 9000 9900 9990 9999", qs, " ")
		for (q = 1; q <= 5; q++) {
			r = int((n * qs[q] + 9999) / 10000)
			if (r <= below) { out = out " <0"; continue }
			cum = below
			for (i = 0; i < 10240 && cum + cnt[k, i] < r; i++) cum += cnt[k, i]
			out = out " " (i == 10240 ? ">=10240" : i)
		}
		return out " " mx " " below " " above
	}
	$1 == "@CPU" { c = $2; cpus[++ncpu] = c; next }
	/^#Minimum latency: / { hmin[c] = $3 }
	/^#Maximum latency: / { hmax[c] = $3 }
	/^#Average latency: / { hmean[c] = $3 }
	/^#There are .* lower than / { below[c] = $3 }
	/^#There are .* greater or equal than / { above[c] = $3 }
	/^[ 0-9]/ {
		cnt[c, $1 + 0] = $2; cnt["all", $1 + 0] += $2
		n[c] += $2; sum[c] += $1 * $2
	}
	END {
		print "#CPU samples min mean p50 p90 p99 p99.9 p99.99 max below above"
		for (j = 1; j <= ncpu; j++) {
			c = cpus[j]
			nt = n[c] + below[c] + above[c]
			print line(c, nt, sum[c], below[c], above[c], hmin[c], hmax[c], hmean[c])
			an += nt; asum += sum[c]; ab += below[c]; aa += above[c]
			if (below[c] && (amin == "" || hmin[c] < amin)) amin = hmin[c]
			if (above[c] && (amax == "" || hmax[c] > amax)) amax = hmax[c]
		}
		print line("all", an, asum, ab, aa, amin, amax, "?")
	}'
}

# same_summary WANT HAVE - print the lines that differ ("~M" in WANT: the
# truncated mean of the CPUx header, within 1 us of the rounded one; "~?":
# not comparable)
same_summary()
{
	awk 'NR == FNR { want[FNR] = $0; nw = FNR; next }
	{
		have[FNR] = $0; nh = FNR
	}
	END {
		if (nw != nh) print "lines: " nh ", expected " nw
		for (i = 1; i <= nw; i++) {
			split(want[i], w, " "); split(have[i], h, " ")
			ok = 1
			for (f = 1; f <= 12; f++) {
				if (w[f] ~ /^~/) {
					d = int(h[f]) - substr(w[f], 2)
					if (w[f] != "~?" && (d > 1 || d < -1)) ok = 0
				} else if (w[f] != h[f]) ok = 0
			}
			if (!ok) print "have \"" have[i] "\" want \"" want[i] "\""
		}
	}' "$1" "$2"
}

lh_setup
lh_plan 2
lh_load_or_bail

lh_enable_available
lh_activity
lh_activity
lh_disable_all
lh_diag "samples recorded: $(hl_samples_sum)"

lh_case_begin
nonempty=0
for h in $LH_HISTS; do
	expect_summary "$h" >"$LH_TMP/want"
	cat "$LH_DIR/$h/summary" >"$LH_TMP/have"
	diffs=$(same_summary "$LH_TMP/want" "$LH_TMP/have")
	[ -z "$diffs" ] || lh_err "$h/summary: $diffs"
	awk '$1 == "all" && $2 > 0 { found = 1 } END { exit !found }' "$LH_TMP/have" &&
		nonempty=$((nonempty + 1))
done
[ "$nonempty" -gt 0 ] || lh_err "no histogram recorded a sample: nothing was compared"
lh_diag "$nonempty histograms with samples compared"
lh_case_end summary_files_match_the_cpu_files

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
