# SPDX-License-Identifier: GPL-2.0
#
# 50-snapshot.sh - lh snapshot and lh compare (with its --fail-if gates). A
# part of scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ snapshot and compare

# help_snapshot - the usage of lh snapshot
help_snapshot()
{
	cat <<'EOF'
cmd dir DIR
about save all files plus uname, cmdline, time
exits 0 2 3
EOF
}

# cmd_snapshot - copy every readable file of the tree into DIR/latency_hist,
# with DIR/snapshot.meta (uname, cmdline, time) and DIR/lh.json made from the
# copy; a tree that fails the checks leaves no DIR behind
cmd_snapshot()
{
	[ $# -eq 1 ] || die "usage: lh snapshot DIR"
	need_tree
	SN_DIR=$1
	SN_MADE=
	if [ -e "$SN_DIR" ]; then
		[ -d "$SN_DIR" ] || die "snapshot: $SN_DIR exists and is not a directory"
		[ -z "$(ls -A "$SN_DIR")" ] || die "snapshot: $SN_DIR is not empty"
	else
		SN_MADE=1
	fi
	gather_meta
	SN_FILES=$(cd "$LH_ROOT" && find . -type f ! -name reset | sed 's|^\./||' | sort) ||
		die "snapshot: cannot list $LH_ROOT"
	mkdir -p "$SN_DIR/latency_hist" || die "snapshot: cannot create $SN_DIR"
	SN_DST=$(cd "$SN_DIR/latency_hist" && pwd) || die "snapshot: cannot enter $SN_DIR"
	# One mkdir and one awk for all files: every exec counts on a slow rig.
	# Files are created first, so that empty ones exist too.
	SN_OK=
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	if (cd "$SN_DIR/latency_hist" &&
	    printf '%s\n' "$SN_FILES" | sed -n 's|/[^/]*$||p' | sort -u | xargs -r mkdir -p) &&
	   (cd "$SN_DIR/latency_hist" && IFS=$LH_NL && for SN_F in $SN_FILES; do : >"$SN_F" || exit 1; done) &&
	   (cd "$LH_ROOT" && IFS=$LH_NL && awk -v dst="$SN_DST" '
		FNR == 1 { if (out != "") close(out); out = dst "/" FILENAME }
		{ print > out }' $SN_FILES); then
		SN_OK=1
	fi
	SN_CMDLINE=
	[ -r /proc/cmdline ] && IFS= read -r SN_CMDLINE </proc/cmdline
	if [ -n "$SN_OK" ]; then
		{
			echo "lh_snapshot_version=$LH_SNAPSHOT_VERSION"
			echo "lh_version=$LH_VERSION"
			echo "source=$LH_ROOT"
			echo "time_utc=$MT_TIME"
			echo "time_epoch_s=$MT_EPOCH"
			echo "uptime_s=$MT_UPTIME"
			echo "host=$MT_HOST"
			echo "kernel_release=$MT_KREL"
			echo "module_version=$MT_MODVER"
			echo "uname=$(uname -a)"
			echo "cmdline=$SN_CMDLINE"
		} >"$SN_DIR/snapshot.meta" &&
		(LH_ROOT=$SN_DIR/latency_hist cmd_json >"$SN_DIR/lh.json") || SN_OK=
	fi
	if [ -z "$SN_OK" ]; then
		if [ -n "$SN_MADE" ]; then
			rm -rf "$SN_DIR"
		else
			rm -rf "$SN_DIR/latency_hist" "$SN_DIR/snapshot.meta" "$SN_DIR/lh.json"
		fi
		die "snapshot of $LH_ROOT failed; $SN_DIR left as it was"
	fi
	echo "lh: snapshot of $LH_ROOT in $SN_DIR" >&2
}

# snapshot_tree DIR - print the latency_hist tree of a snapshot (DIR/latency_hist)
# or DIR itself if it is a tree; dies otherwise
snapshot_tree()
{
	if [ -r "$1/latency_hist/status" ]; then
		echo "$1/latency_hist"
	elif [ -r "$1/status" ]; then
		echo "$1"
	else
		die "$1 is neither a snapshot (lh snapshot DIR) nor a latency_hist tree"
	fi
}

# help_compare - the usage of lh compare
help_compare()
{
	cat <<'EOF'
cmd dir A B [--fail-if GATE]..
about compare two snapshots; exit 1 if a gate trips
opt - --fail-if GATE text exit 1 if GATE trips (wakeup@all:p99>+10%,
more wakeup@all:max>150; all of them: lh(1))
exits 0 1 2
EOF
}

# cmd_compare - per type and CPU: samples, p99, p99.9, max of A and B, and
# the --fail-if gates; exit 1 if one tripped
cmd_compare()
{
	CM_GATES=
	CM_A=
	CM_B=
	while [ $# -gt 0 ]; do
		case $1 in
		--fail-if | --fail-if=*)
			opt_arg compare "a gate like p99>+10%" "$@"
			CM_GATES="$CM_GATES$LH_NL$OPT_VAL"
			shift "$OPT_SHIFT" ;;
		-*) die "compare: unknown option $1" ;;
		*)
			if [ -z "$CM_A" ]; then CM_A=$1
			elif [ -z "$CM_B" ]; then CM_B=$1
			else die "compare: more than two snapshots"
			fi
			shift ;;
		esac
	done
	[ -n "$CM_B" ] || die "usage: lh compare A B [--fail-if GATE].."
	CM_TA=$(snapshot_tree "$CM_A") || exit 2
	CM_TB=$(snapshot_tree "$CM_B") || exit 2
	# Every histogram either tree has, in B's order then A's.
	LH_ROOT=$CM_TA load_types
	CM_HISTS=$LH_HISTS
	LH_ROOT=$CM_TB load_types
	for CM_T in $CM_HISTS; do
		word_in "$CM_T" "$LH_HISTS" || LH_HISTS="$LH_HISTS $CM_T"
	done
	CM_SA=
	CM_SB=
	for CM_T in $LH_HISTS; do
		[ -e "$CM_TA/$CM_T/summary" ] && CM_SA="$CM_SA $CM_TA/$CM_T/summary"
		[ -e "$CM_TB/$CM_T/summary" ] && CM_SB="$CM_SB $CM_TB/$CM_T/summary"
	done
	[ -n "$CM_SA" ] || die "$CM_A has no summary files (latency_hist older than the summary file)"
	[ -n "$CM_SB" ] || die "$CM_B has no summary files (latency_hist older than the summary file)"
	# Both sides are parsed with the same checks: the A files, then the B files.
	# shellcheck disable=SC2016,SC2086
	LH_ROOT=$CM_TA lh_awk '
function metric_index(m) {
	return m == "samples" ? 2 : m == "min" ? 3 : m == "mean" ? 4 : m == "p50" ? 5 : m == "p90" ? 6 : \
	    m == "p99" ? 7 : m == "p99.9" ? 8 : m == "p99.99" ? 9 : m == "max" ? 10 : m == "below" ? 11 : \
	    m == "above" ? 12 : 0
}
# parse_gates - [TYPE[@CPU]:]METRIC(>|<)[+|-]NUMBER[%]
function parse_gates(    n, g, i, s, p, op, lim) {
	n = split(gates, g, "\n")
	ng = 0
	for (i = 1; i <= n; i++) {
		s = g[i]
		if (s == "") continue
		ng++
		gate_text[ng] = s
		gate_type[ng] = ""; gate_cpu[ng] = ""
		if (index(s, ":")) {
			p = substr(s, 1, index(s, ":") - 1)
			s = substr(s, index(s, ":") + 1)
			if (index(p, "@")) { gate_cpu[ng] = substr(p, index(p, "@") + 1); p = substr(p, 1, index(p, "@") - 1) }
			if (!index(" " hists " ", " " p " ")) fail("gate \"" gate_text[ng] "\": unknown type " p)
			if (gate_cpu[ng] != "" && gate_cpu[ng] != "all" && !is_uint(gate_cpu[ng]))
				fail("gate \"" gate_text[ng] "\": CPU is a number or all")
			gate_type[ng] = p
		}
		p = index(s, ">"); op = ">"
		if (!p) { p = index(s, "<"); op = "<" }
		if (!p) fail("gate \"" gate_text[ng] "\": no > or <, e.g. p99>+10%")
		gate_metric[ng] = substr(s, 1, p - 1)
		if (!metric_index(gate_metric[ng])) fail("gate \"" gate_text[ng] "\": unknown metric " gate_metric[ng] \
		    " (samples min mean p50 p90 p99 p99.9 p99.99 max below above)")
		gate_op[ng] = op
		lim = substr(s, p + 1)
		gate_rel[ng] = (lim ~ /^[+-]/ || lim ~ /%$/) ? 1 : 0
		gate_pct[ng] = lim ~ /%$/ ? 1 : 0
		sub(/%$/, "", lim)
		if (lim !~ /^[+-]?[0-9]+(\.[0-9]+)?$/) fail("gate \"" gate_text[ng] "\": the limit is a number, +N, -N or N%")
		gate_lim[ng] = lim + 0
		gate_rows[ng] = 0
	}
}
# value - a summary field as a number: <0 is -1, >=10240 is 10240, - is none
function value(s) { return s == "<0" ? -1 : s == ">=10240" ? 10240 : s + 0 }
function change(a, b) {
	if (a == "-" || b == "-") return ""
	if (value(a) == value(b)) return " (0%)"
	if (value(a) <= 0) return " (+inf%)"
	return sprintf(" (%+.1f%%)", (value(b) - value(a)) * 100 / value(a))
}
function show(fa, fb, i, name) {
	return sprintf("  %s %s -> %s%s", name, fa[i], fb[i], change(fa[i], fb[i]))
}
# check_gates - evaluate every gate that applies to row (t, c)
function check_gates(t, c, fa, fb, hasa,    g, i, m, what) {
	for (g = 1; g <= ng; g++) {
		if (gate_type[g] != "" && gate_type[g] != t) continue
		if (gate_cpu[g] != "" && gate_cpu[g] != c) continue
		i = metric_index(gate_metric[g])
		if (fb[i] == "-") continue
		if (gate_rel[g]) {
			if (!hasa || fa[i] == "-") continue
			m = value(fb[i]) - value(fa[i])
			if (gate_pct[g]) {
				if (value(fa[i]) > 0) m = m * 100 / value(fa[i])
				else if (m > 0) m = 1e300
				else if (m < 0) m = -1e300
			}
			what = sprintf("%s %s -> %s", gate_metric[g], fa[i], fb[i])
		} else {
			m = value(fb[i])
			what = sprintf("%s %s", gate_metric[g], fb[i])
		}
		gate_rows[g]++
		if ((gate_op[g] == ">" && m > gate_lim[g]) || (gate_op[g] == "<" && m < gate_lim[g])) {
			trips++
			printf "FAIL %s CPU %s: %s trips %s\n", t, c, what, gate_text[g]
		}
	}
}
function END_OUTPUT(    i, k, t, c, nc, la, lb, fa, fb, hasa) {
	parse_gates()
	nt = split(hists, tl, " ")
	for (i = 1; i <= nt; i++) {
		t = tl[i]
		summary_done(t)
		if (!((t, "all") in sum_line)) continue
		nc = 0
		for (k = 1; k <= ncpu[t]; k++) if ((t, cpus[t, k]) in sum_line) sorted[++nc] = cpus[t, k]
		sort_num(sorted, nc)
		sorted[++nc] = "all"
		for (k = 1; k <= nc; k++) {
			c = sorted[k]
			lb = sum_line[t, c]
			hasa = ((t, c) in sum_a)
			la = hasa ? sum_a[t, c] : "x 0 - - - - - - - - 0 0"
			split(la, fa, " "); split(lb, fb, " ")
			if (fa[2] == "0" && fb[2] == "0") continue
			printf "%-20s %4s  samples %s -> %s%s%s%s%s\n", t, c, fa[2], fb[2], show(fa, fb, 7, "p99"),
			    show(fa, fb, 8, "p99.9"), show(fa, fb, 10, "max"), hasa ? "" : "  (not in A)"
			check_gates(t, c, fa, fb, hasa)
		}
	}
	for (i = 1; i <= ng; i++)
		if (!gate_rows[i]) { printf "FAIL gate %s: no data to check it against\n", gate_text[i]; trips++ }
	if (ng) printf "compare: %d gates, %s\n", ng, trips ? trips " failures" : "all passed"
	if (trips) exit 1
}
' gates="$CM_GATES" hists="$LH_HISTS" split_at=$(($(echo $CM_SA | wc -w) + 1)) rootb="$CM_TB" $CM_SA $CM_SB
}

