# SPDX-License-Identifier: GPL-2.0
#
# 40-summary.sh - lh summary: percentiles per CPU, as a table or JSON. A
# part of scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ summary and JSON

# help_summary - the usage of lh summary
help_summary()
{
	cat <<'EOF'
cmd types [TYPE..] [-c LIST|all] [--by task|cgroup] [--json]
about samples, min, mean, percentiles, max
opt -c --cpu LIST cpus the CPUs of LIST (0-3,5); all: the merged line
opt - --by task|cgroup text per task or cgroup, most samples first
opt - --json - flag the same values as JSON
exits 0 2 3
EOF
}

# cmd_summary - print the summary files as a table or JSON
cmd_summary()
{
	SU_CPU=
	SU_JSON=0
	SU_TYPES=
	SU_BY=
	while [ $# -gt 0 ]; do
		case $1 in
		-c | -c?* | --cpu | --cpu=*)
			opt_arg summary "a CPU list or all" "$@"; shift "$OPT_SHIFT"
			# (all: the line of all CPUs merged)
			SU_CPU=" all "
			[ "$OPT_VAL" = all ] || { cpulist_arg summary --cpu "$OPT_VAL"; SU_CPU=$CL_OUT; } ;;
		--json) SU_JSON=1; shift ;;
		--by | --by=*) opt_arg summary "task or cgroup" "$@"; by_arg "$OPT_VAL"; SU_BY=$VW_WHAT; shift "$OPT_SHIFT" ;;
		-*) die "summary: unknown option $1" ;;
		*) SU_TYPES="$SU_TYPES $1"; shift ;;
		esac
	done
	case $SU_CPU in
	"" | " all ") ;;
	*)
		for SU_C in $SU_CPU; do
			[ -e "$LH_ROOT/wakeup/CPU$SU_C" ] || [ ! -d "$LH_ROOT/wakeup" ] ||
				die "summary: --cpu: there is no CPU $SU_C in $LH_ROOT"
		done ;;
	esac
	[ -z "$SU_BY" ] || [ -z "$SU_CPU" ] || die "summary: --by $SU_BY is not per CPU: --cpu and --by do not go together"
	need_tree
	# shellcheck disable=SC2086 # word lists
	SU_TYPES=$(summary_types $SU_TYPES) || exit 2
	if [ -n "$SU_BY" ]; then
		# shellcheck disable=SC2086 # a word list
		summary_by "$SU_BY" $SU_TYPES
		return
	fi
	SU_FILES=
	for SU_T in $SU_TYPES; do
		SU_FILES="$SU_FILES$LH_ROOT/$SU_T/summary$LH_NL"
		# (the per-line view, where the type has one: not per CPU)
		case $SU_CPU in
		"" | " all ") [ ! -e "$LH_ROOT/$SU_T/lines" ] || SU_FILES="$SU_FILES$LH_ROOT/$SU_T/lines$LH_NL" ;;
		esac
	done
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; lh_awk '
# row - print one summary line of type t as a table row
function row(t, line,    f) {
	split(line, f, " ")
	printf "%-21s %4s %12s %7s %9s %7s %7s %7s %7s %7s %7s %8s %8s\n", t, f[1], f[2], f[3],
	    f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11], f[12]
}
# line_rows - print the per-line view of type t as a table
function line_rows(t,    i, f) {
	printf "\n%s per %s (%s, other %s):\n", t, ln_label[t], ln_why[t], ln_other[t]
	printf "%-8s %-20s %12s %7s %9s %7s %7s %7s %4s %s\n", toupper(ln_label[t]), "name", "samples", "min", "mean",
	    "p99", "p99.9", "max", "CPU", "culprit"
	for (i = 1; i <= ln_n[t]; i++) {
		split(ln_st[t, i], f, " ")
		printf "%-8s %-20s %12s %7s %9s %7s %7s %7s %4s %s %s\n", ln_id[t, i], ln_name[t, i], f[1], f[2], f[3],
		    f[4], f[5], f[6], f[7], f[8], ln_comm[t, i]
	}
}
function END_OUTPUT(    n, t, k, c, list, sep, nc, nw, wl) {
	n = split(types, list, " ")
	if (json) printf "{\"schema_version\": %d, \"types\": {", schema
	else printf "%-21s %4s %12s %7s %9s %7s %7s %7s %7s %7s %7s %8s %8s\n", "TYPE", "CPU", "samples", "min",
	    "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max", "below", "above"
	for (k = 1; k <= n; k++) {
		t = list[k]
		summary_done(t)
		nw = split(want, wl, " ")
		for (c = 1; c <= nw; c++)
			if (!((t, wl[c]) in sum_line)) fail(root "/" t "/summary: no line for CPU " wl[c])
		nc = 0
		for (c = 1; c <= ncpu[t]; c++)
			if (want == "" || index(want, " " cpus[t, c] " ")) sorted[++nc] = cpus[t, c]
		sort_num(sorted, nc)
		if (json) {
			printf "%s%s: {\"cpus\": {", (k > 1 ? ", " : ""), jstr(t)
			sep = ""
			for (c = 1; c <= nc; c++) {
				printf "%s%s: {\"summary\": %s}", sep, jstr(sorted[c]), summary_json(sum_line[t, sorted[c]])
				sep = ", "
			}
			printf "}"
			if (want == "" || index(want, " all ")) printf ", \"all\": {\"summary\": %s}", summary_json(sum_line[t, "all"])
			if (t in ln_other) printf ", \"lines\": %s", lines_json(t)
			printf "}"
		} else {
			for (c = 1; c <= nc; c++) row(t, sum_line[t, sorted[c]])
			if (want == "" || index(want, " all ")) row(t, sum_line[t, "all"])
		}
	}
	for (k = 1; k <= n && !json; k++) if (list[k] in ln_other) line_rows(list[k])
	if (json) printf "}}\n"
}' types="$SU_TYPES" want="$SU_CPU" json="$SU_JSON" schema="$LH_JSON_SCHEMA_VERSION" $SU_FILES)
}

