# SPDX-License-Identifier: GPL-2.0
#
# 48-outliers.sh - lh outliers: every sample over its type's budget, and
# why, from the outlier logs <type>/outliers-CPUx (read by outlier.awk).
# A part of scripts/lh: see assemble.sh.

# outlier_files TYPE.. - print the outliers-CPUx files of the TYPEs that
# have outliers=1 in status, one a line; dies if one cannot be read
outlier_files()
{
	type_rows 8
	for OF_T in "$@"; do
		word_in "$OF_T" "$TR_OUT" || continue
		for OF_F in "$LH_ROOT/$OF_T"/outliers-CPU[0-9]*; do
			[ -e "$OF_F" ] || continue
			[ -r "$OF_F" ] || die "cannot read $OF_F (not root, or kernel lockdown?)"
			printf '%s\n' "$OF_F"
		done
	done
}

# outlier_prom_text - the outlier counters of lh prom: for each log with a
# budget, its records by cause and its dropped count, since the last reset
outlier_prom_text()
{
	# shellcheck disable=SC2046 # a word list
	OP_FILES=$(outlier_files $(tree_types)) || exit 2
	[ -n "$OP_FILES" ] || return 0
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; awk "$LH_AWK_LIB$LH_AWK_OUTLIER"'
FNR == 1 { outlier_file(root) }
{ rd_ln = FNR; outlier_line() }
END {
	if (lh_failed) exit 2
	outlier_end()
	for (k = 1; k <= ol_nlogs; k++)
		if (oh_budget[ol_order[k]] > 0) { keys[++n] = ol_order[k]; drop[ol_order[k]] = oh_dropped[ol_order[k]] }
	for (i = 1; i <= o_n; i++) cnt[o_key[i], o_f[i, "cause"]]++
	if (n) outlier_prom("", n, keys, cnt, drop)
}' root="$LH_ROOT" host_label="${LH_PROM_HOST:+$MT_HOST}" $OP_FILES)
}

# help_outliers - the usage of lh outliers
help_outliers()
{
	cat <<'EOF'
cmd types [TYPE..] [-c LIST] [--since SEQ|DURATION] [--json]
about every sample over its type's budget
about (outlier_us), oldest first, and its cause
opt -c --cpu LIST cpus the CPUs of LIST only (0-3,5, or all)
opt - --since SEQ|DURATION duration after sequence number SEQ of each log,
more or at most DURATION old (30s, 15m, 2h, 7d)
opt - --json - flag as JSON
exits 0 2 3
EOF
}

# cmd_outliers - the records of the outlier logs as a table, oldest first,
# or as JSON (Documentation/lh.rst, "outliers")
cmd_outliers()
{
	OU_CPUS=
	OU_SEQ=
	OU_DUR=
	OU_JSON=0
	OU_ARGS=
	while [ $# -gt 0 ]; do
		case $1 in
		-c | -c?* | --cpu | --cpu=*)
			opt_arg outliers "a CPU list" "$@"; shift "$OPT_SHIFT"
			cpulist_arg outliers --cpu "$OPT_VAL"; OU_CPUS=$CL_OUT ;;
		--since | --since=*)
			opt_arg outliers "a sequence number or a duration (30s, 15m, 2h, 7d)" "$@"; shift "$OPT_SHIFT"
			case $OPT_VAL in
			*[smhd]) duration_arg outliers --since "$OPT_VAL" 1 8639913600 ms; OU_DUR=$DA_S ;;
			*) uint_arg outliers --since "$OPT_VAL" 0 9007199254740991 "a sequence number"; OU_SEQ=$OPT_VAL ;;
			esac ;;
		--json) OU_JSON=1; shift ;;
		-*) die "outliers: unknown option $1" ;;
		*) OU_ARGS="$OU_ARGS $1"; shift ;;
		esac
	done
	need_tree
	# shellcheck disable=SC2086 # a word list
	OU_NONE="outliers: no type has an outlier log in $LH_ROOT (a latency_hist without outliers=1 in status)"
	OU_TYPES=$(types_with 8 "$OU_NONE" \
		"outliers: '%s' has no outlier log (types with outliers=1 in status: %s)" $OU_ARGS) || exit 2
	OU_FILES=
	for OU_T in $OU_TYPES; do
		OU_N=0
		for OU_F in "$LH_ROOT/$OU_T"/outliers-CPU[0-9]*; do
			[ -e "$OU_F" ] || continue
			case $OU_CPUS in "" | *" ${OU_F##*/outliers-CPU} "*) ;; *) continue ;; esac
			[ -r "$OU_F" ] || die "cannot read $OU_F (not root, or kernel lockdown?)"
			OU_FILES="$OU_FILES$OU_F$LH_NL"
			OU_N=$((OU_N + 1))
		done
		[ "$OU_N" -gt 0 ] || die "outliers: no outliers-CPUx file of the CPUs asked for in $LH_ROOT/$OU_T"
	done
	OU_NOW=
	[ -z "$OU_DUR" ] || OU_NOW=$(date -u +%s) || die "outliers: date failed"
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; awk "$LH_AWK_LIB$LH_AWK_OUTLIER"'
FNR == 1 { outlier_file(root) }
{ rd_ln = FNR; outlier_line() }
# task - "comm/pid" of role (victim, culprit) of record i
function task(i, role) { return o_f[i, role "_comm"] "/" o_f[i, role "_pid"] }
# detail - the cause detail of record i, as text
function detail(i,    k) {
	k = o_f[i, "cause_kind"]
	if (k == "-") return "-"
	if (k == "thread") return "thread " o_f[i, "cause_name"] "/" o_f[i, "cause_id"]
	if (k == "idle" || k == "uncovered") return k
	if (k == "thread-rest") return "thread-rest " o_f[i, "cause_id"] " tasks"
	return k " " o_f[i, "cause_id"] " " o_f[i, "cause_name"]
}
END {
	if (lh_failed) exit 2
	outlier_end()
	nt = split(types, tl, " ")
	for (k = 1; k <= ol_nlogs; k++) {
		split(ol_order[k], tc, SUBSEP)
		if (oh_budget[ol_order[k]] > 0) budget[tc[1]] = 1
		if (since != "" && oh_budget[ol_order[k]] > 0 && oh_first[ol_order[k]] > since + 1 && oh_next[ol_order[k]] > since + 1)
			printf "lh: outliers: %s CPU%s: %d records after seq %s were dropped before this read (the oldest kept is %s)\n",
			    tc[1], tc[2], oh_first[ol_order[k]] - since - 1, since, oh_first[ol_order[k]] > "/dev/stderr"
	}
	# (a type named must have a budget; by default the types that have one)
	nb = 0
	for (k = 1; k <= nt; k++) {
		if (tl[k] in budget) { nb++; continue }
		if (named || nt == 1)
			fail("outliers: " tl[k] " has no budget: echo US > " root "/" tl[k] "/outlier_us (or the parameter outlier_<type>)")
	}
	if (!nb) fail("outliers: no type has a budget: echo US > " root "/TYPE/outlier_us (or the parameter outlier_<type>)")
	# oldest first: by wall-clock time, then type order and CPU (a stable
	# insertion sort of the records kept)
	n = 0
	for (i = 1; i <= o_n; i++) {
		if (!(o_t[i] in budget) || (since != "" && o_f[i, "seq"] + 0 <= since + 0)) continue
		split(ol_wall(i), w, " ")
		if (now != "" && w[1] + 0 < now - dur) continue
		wsec[i] = w[1]; wns[i] = w[2]
		for (j = n; j > 0 && (wsec[sel[j]] > wsec[i] || (wsec[sel[j]] == wsec[i] && wns[sel[j]] > wns[i])); j--)
			sel[j + 1] = sel[j]
		sel[j + 1] = i; n++
	}
	if (json) {
		printf "{\"schema_version\": %d, \"logs\": [", schema
		sep = ""
		for (k = 1; k <= ol_nlogs; k++) {
			key = ol_order[k]; split(key, tc, SUBSEP)
			if (!(tc[1] in budget)) continue
			printf "%s{\"type\": %s, \"cpu\": %s, \"budget_us\": %s, \"filed\": %s, \"kept\": %s, \"dropped\": %s, \"unexplained\": %s, \"first_seq\": %s, \"next_seq\": %s, \"realtime_offset_ns\": %s}",
			    sep, jstr(tc[1]), tc[2], oh_budget[key], oh_filed[key], oh_kept[key], oh_dropped[key],
			    oh_unexpl[key], oh_first[key], oh_next[key], oh_off[key]
			sep = ", "
		}
		printf "], \"outliers\": ["
		for (j = 1; j <= n; j++) {
			i = sel[j]
			printf "%s%s", (j > 1 ? ", " : ""), outlier_json(i)
		}
		printf "]}\n"
		exit 0
	}
	if (!n) { print "no outliers" (since != "" ? " after seq " since : now != "" ? " in the last " dur " s" : "") ; exit 0 }
	printf "%-23s %4s %-20s %7s %-11s %-26s %s\n", "TIME (UTC)", "CPU", "TYPE", "US", "CAUSE", "DETAIL", "VICTIM <- CULPRIT"
	for (j = 1; j <= n; j++) {
		i = sel[j]
		printf "%s.%03d %4s %-20s %7s %-11s %-26s %s <- %s\n", ol_civil(wsec[i]), int(wns[i] / 1000000), o_c[i], o_t[i],
		    o_f[i, "latency_us"], o_f[i, "cause"], detail(i), task(i, "victim"), task(i, "culprit")
	}
}' root="$LH_ROOT" types="$(printf '%s ' $OU_TYPES)" json="$OU_JSON" named="${OU_ARGS:+1}" since="$OU_SEQ" now="$OU_NOW" dur="$OU_DUR" \
	    schema="$LH_JSON_SCHEMA_VERSION" $OU_FILES)
}
