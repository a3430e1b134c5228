# SPDX-License-Identifier: GPL-2.0
#
# 41-views.sh - the per-task and per-cgroup views (TYPE/tasks, TYPE/cgroups)
# in lh: the files of them a command reads, the --by of lh summary and the
# --top of lh prom and lh monitor (views.awk prints them). A part of
# scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ per-task views

# The tasks and cgroups with series in the Prometheus text, per type (the
# ones with the most samples): --top N of lh prom and lh monitor; 0: none.
LH_PROM_TOP=10

# top_arg CMD VALUE - LH_PROM_TOP from the --top VALUE of CMD
top_arg()
{
	uint_arg "$1" --top "$2" 0 65536 "a number of tasks and cgroups"
	LH_PROM_TOP=$2
}

# by_arg VALUE - the view of lh summary --by VALUE (task or cgroup) in
# VW_WHAT; dies on anything else
by_arg()
{
	case $1 in
	task | cgroup) VW_WHAT=$1 ;;
	*) die "summary: --by '$1' is not task or cgroup" ;;
	esac
}

# views_files WHAT TYPE.. - print the WHAT files (tasks, cgroups, or both
# for "all") of the TYPEs that have them, one a line; dies if one cannot be
# read
views_files()
{
	VF_WHAT=$1
	shift
	[ "$VF_WHAT" != all ] || VF_WHAT="tasks cgroups"
	for VF_T in "$@"; do
		for VF_W in $VF_WHAT; do
			VF_F=$LH_ROOT/$VF_T/$VF_W
			[ -e "$VF_F" ] || continue
			[ -r "$VF_F" ] || die "cannot read $VF_F (not root?)"
			printf '%s\n' "$VF_F"
		done
	done
}

# summary_by WHAT TYPE.. - lh summary --by WHAT (task or cgroup): the view
# of each TYPE that has one, as a table or (SU_JSON=1) JSON; dies if none
# of them has one
summary_by()
{
	SB_WHAT=$1
	shift
	SB_FILES=$(views_files "${SB_WHAT}s" "$@") || exit 2
	[ -n "$SB_FILES" ] ||
		die "summary: --by $SB_WHAT: no ${SB_WHAT}s file in $LH_ROOT for $*: this latency_hist is older than the per-task views"
	SB_TYPES=
	for SB_T in "$@"; do
		[ ! -e "$LH_ROOT/$SB_T/${SB_WHAT}s" ] || SB_TYPES="$SB_TYPES $SB_T"
	done
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; lh_awk '
function END_OUTPUT(    n, list, k, t) {
	n = split(types, list, " ")
	if (json) printf "{\"schema_version\": %d, \"by\": %s, \"types\": {", schema, jstr(what)
	for (k = 1; k <= n; k++) {
		t = list[k]
		if (json) printf "%s%s: %s", (k > 1 ? ", " : ""), jstr(t), views_json(t "/" what "s", what)
		else views_text(t, t "/" what "s", what)
	}
	if (json) printf "}}\n"
}' types="$SB_TYPES" what="$SB_WHAT" json="$SU_JSON" schema="$LH_JSON_SCHEMA_VERSION" $SB_FILES)
}
