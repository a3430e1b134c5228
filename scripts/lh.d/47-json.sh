# SPDX-License-Identifier: GPL-2.0
#
# 47-json.sh - lh json, and the metadata of a tree (from its snapshot or the
# running system) that json and snapshot write. A part of scripts/lh: see
# assemble.sh.

# meta_value KEY - KEY from the snapshot.meta beside LH_ROOT, if LH_ROOT is a
# snapshot's tree; returns 1 otherwise
meta_value()
{
	[ -f "$LH_ROOT/../snapshot.meta" ] || return 1
	sed -n "s/^$1=//p" "$LH_ROOT/../snapshot.meta" | head -n 1
}

# sys_names - SN_HOST and SN_KREL: uname -n and -r, from /proc where it has
# them (a read, not a fork and an exec)
sys_names()
{
	SN_HOST=
	SN_KREL=
	{ read -r SN_HOST </proc/sys/kernel/hostname && read -r SN_KREL </proc/sys/kernel/osrelease; } 2>/dev/null
	[ -n "$SN_HOST" ] || SN_HOST=$(uname -n)
	[ -n "$SN_KREL" ] || SN_KREL=$(uname -r)
}

# gather_meta - set MT_* (host, kernel release, module version, times) from
# the snapshot this tree belongs to, or from the running system
gather_meta()
{
	if [ -f "$LH_ROOT/../snapshot.meta" ]; then
		MT_HOST=$(meta_value host)
		MT_KREL=$(meta_value kernel_release)
		MT_MODVER=$(meta_value module_version)
		MT_TIME=$(meta_value time_utc)
		MT_EPOCH=$(meta_value time_epoch_s)
		MT_UPTIME=$(meta_value uptime_s)
		return
	fi
	sys_names
	MT_HOST=$SN_HOST
	MT_KREL=$SN_KREL
	MT_MODVER=
	[ -r "$LH_SYSMODULE/version" ] && MT_MODVER=$(read_value "$LH_SYSMODULE/version")
	MT_TIME=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	MT_EPOCH=$(date +%s)
	MT_UPTIME=
	[ -r /proc/uptime ] && read -r MT_UPTIME _ </proc/uptime
}

# help_json - the usage of lh json
help_json()
{
	cat <<'EOF'
cmd - -
about everything as one JSON document
exits 0 2 3
EOF
}

# cmd_json - every histogram of the tree as one JSON document (schema in
# Documentation/lh.rst, "JSON schema")
cmd_json()
{
	[ $# -eq 0 ] || die "json takes no arguments"
	need_tree
	gather_meta
	JS_FILES=$(tree_files) || exit 2
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; lh_awk '
function num_or_null(s) { return s == "" ? "null" : s }
function END_OUTPUT(    i, t, k, c, nc, b, r, sep, total, below, above, sw, nf, f) {
	printf "{\"schema\": \"latency_hist\", \"schema_version\": %d, \"lh_version\": %s,\n", schema, jstr(lhver)
	printf " \"host\": %s, \"kernel_release\": %s, \"module_version\": %s,\n", jstr(host), jstr(krel),
	    modver == "" ? "null" : jstr(modver)
	printf " \"time\": %s, \"time_epoch_s\": %s, \"uptime_s\": %s, \"unit\": \"us\", \"buckets\": 10240,\n",
	    jstr(tm), num_or_null(epoch), num_or_null(uptime)
	printf " \"types\": {"
	for (i = 1; i <= st_n; i++) {
		t = st_order[i]
		summary_done(t)
		sw = st_switch[t]
		printf "%s\n  %s: {\"switch\": %s, \"available\": %s, \"enabled\": %s, \"bytes\": %s, \"reason\": %s, \"pid\": %s,",
		    (i > 1 ? "," : ""), jstr(t), jstr(sw), st_avail[t] ? "true" : "false", st_en[t] ? "true" : "false",
		    st_bytes[t], st_reason[t] == "" ? "null" : jstr(st_reason[t]), (t in pidval) ? pidval[t] : "null"
		printf "\n   \"cpus\": {"
		nc = 0
		for (k = 1; k <= ncpu[t]; k++) sorted[++nc] = cpus[t, k]
		sort_num(sorted, nc)
		total = below = above = 0
		delete merged
		for (k = 1; k <= nc; k++) {
			c = sorted[k]
			if (!((t, c) in hdr_total)) fail(root "/" t "/CPU" c " is missing")
			printf "%s\n    %s: {\"samples\": %s, \"min\": %s, \"avg\": %s, \"max\": %s, \"below\": %s, \"above\": %s,\n     \"histogram\": {",
			    (k > 1 ? "," : ""), jstr(c), hdr_total[t, c], jval(hdr_min[t, c]), jval(hdr_avg[t, c]),
			    jval(hdr_max[t, c]), hdr_below[t, c], hdr_above[t, c]
			total += hdr_total[t, c]; below += hdr_below[t, c]; above += hdr_above[t, c]
			sep = ""
			nf = row_fields(t SUBSEP c, f)
			for (r = 1; r < nf; r += 2) {
				b = f[r] + 0
				printf "%s\"%d\": %s", sep, b, f[r + 1]
				sep = ", "
				merged[b] += f[r + 1]
			}
			printf "},\n     \"summary\": %s,\n     \"max_latency\": %s}",
			    ((t, c) in sum_line) ? summary_json(sum_line[t, c]) : "null",
			    ((t, c) in maxrec) ? maxrec[t, c] : "null"
		}
		printf "},\n   \"all\": {\"samples\": %.0f, \"below\": %.0f, \"above\": %.0f, \"histogram\": {", total, below, above
		sep = ""
		for (b = 0; b < 10240; b++)
			if (b in merged) { printf "%s\"%d\": %.0f", sep, b, merged[b]; sep = ", " }
		printf "},\n     \"summary\": %s},\n   \"lines\": %s}", ((t, "all") in sum_line) ? summary_json(sum_line[t, "all"]) : "null",
		    lines_json(t)
	}
	printf "\n }\n}\n"
}' schema="$LH_JSON_SCHEMA_VERSION" lhver="$LH_VERSION" host="$MT_HOST" krel="$MT_KREL" \
	modver="$MT_MODVER" tm="$MT_TIME" epoch="$MT_EPOCH" uptime="$MT_UPTIME" $JS_FILES)
}

