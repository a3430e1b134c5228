# SPDX-License-Identifier: GPL-2.0
#
# 45-explain.sh - lh explain: where the time of each CPU's worst window went.
# A part of scripts/lh: see assemble.sh.

# help_explain - the usage of lh explain
help_explain()
{
	cat <<'EOF'
cmd types [TYPE..] [-c LIST] [--json]
about where the time of each CPU's worst window
about went (needs explain/enable = 1)
opt -c --cpu LIST cpus the CPUs of LIST only (0-3,5, or all)
opt - --json - flag the same as JSON
exits 0 2 3
EOF
}

# cmd_explain - where the time of each CPU's worst window went: one
# paragraph per CPU with an explained maximum, from <type>/explain-CPUx and
# max_latency-CPUx (Documentation/lh.rst, "explain")
cmd_explain()
{
	EX_CPU=
	EX_JSON=0
	EX_ARGS=
	while [ $# -gt 0 ]; do
		case $1 in
		-c | -c?* | --cpu | --cpu=*)
			opt_arg explain "a CPU list" "$@"; shift "$OPT_SHIFT"
			cpulist_arg explain --cpu "$OPT_VAL"; EX_CPU=$CL_OUT ;;
		--json) EX_JSON=1; shift ;;
		-*) die "explain: unknown option $1" ;;
		*) EX_ARGS="$EX_ARGS $1"; shift ;;
		esac
	done
	need_tree
	# shellcheck disable=SC2086 # a word list
	EX_TYPES=$(types_with 7 "no type has explain files in $LH_ROOT (a latency_hist without explain?)" \
		"explain: '%s' has no explain files (types with them: %s)" $EX_ARGS) || exit 2
	EX_FILES=
	for EX_T in $EX_TYPES; do
		EX_N=0
		for EX_F in "$LH_ROOT/$EX_T"/explain-CPU[0-9]*; do
			[ -e "$EX_F" ] || continue
			EX_C=${EX_F##*/explain-CPU}
			case $EX_CPU in "" | *" $EX_C "*) ;; *) continue ;; esac
			[ -r "$EX_F" ] || die "cannot read $EX_F (not root?)"
			EX_FILES="$EX_FILES$EX_F$LH_NL"
			EX_M=$LH_ROOT/$EX_T/max_latency-CPU$EX_C
			[ ! -r "$EX_M" ] || EX_FILES="$EX_FILES$EX_M$LH_NL"
			EX_N=$((EX_N + 1))
		done
		[ "$EX_N" -gt 0 ] || die "explain: no explain-CPUx file${EX_CPU:+ of CPU$EX_CPU} in $LH_ROOT/$EX_T"
	done
	EX_ON=
	[ -r "$LH_ROOT/explain/enable" ] && EX_ON=$(read_value "$LH_ROOT/explain/enable")
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; awk "$LH_AWK_LIB"'
# us - nanoseconds as microseconds with one decimal
function us(ns) { return sprintf("%.1f", ns / 1000) }
# name_of - fields from..NF-k joined by blanks (names have none, but be safe)
function name_of(from, k,    i, s) {
	s = $from
	for (i = from + 1; i <= NF - k; i++) s = s " " $i
	return s
}
FNR == 1 { t = path_type(FILENAME); f = FILENAME; sub(/^.*\//, "", f); rd_file = FILENAME }
{ rd_ln = FNR }
f ~ /^max_latency-CPU/ {
	c = substr(f, 16)
	if ($0 == "(none)") next
	if (!maxrec_parse($0)) bad("not a max_latency line")
	mx_pid[t, c] = mr_vpid; mx_prio[t, c] = mr_vprio; mx_lat[t, c] = mr_lat; mx_comm[t, c] = mr_vcomm
	next
}
f ~ /^explain-CPU/ {
	c = substr(f, 12)
	if (FNR == 1) { order[++n] = t SUBSEP c; ncat[t, c] = 0; nd[t, c] = 0 }
	if ($0 == "(none)") { if (FNR != 1) bad("(none) after a record"); none[t, c] = 1; next }
	if (FNR <= 5) {
		want = FNR == 1 ? "hardirq" : FNR == 2 ? "softirq" : FNR == 3 ? "nmi" : FNR == 4 ? "thread" : "other"
		if (NF != 3 || $1 != want || !is_uint($2) || !is_uint($3)) bad("expected \"" want " <ns> <count>\"")
		cns[t, c, $1] = $2; ccount[t, c, $1] = $3; sum[t, c] += $2
		next
	}
	if (FNR == 6) {
		if (NF != 2 || $1 != "window" || !is_uint($2)) bad("expected \"window <ns>\"")
		win[t, c] = $2
		if (sum[t, c] != $2) bad("the categories do not add up to the window")
		next
	}
	if (substr($0, 1, 2) != "  ") bad("a detail line starts with two blanks")
	if ((substr($0, 3, 1) == " ") != ($1 == "timer" || $1 == "idle-state")) bad("a timer or idle-state line, and only they, start with four blanks")
	k = ++nd[t, c]
	dk[t, c, k] = $1; dns[t, c, k] = $NF
	if (!is_uint($NF)) bad("a detail line ends with its ns")
	if ($1 != "timer") parent = ""
	if ($1 != "idle-state") iparent = ($1 == "idle" ? k : "")
	if ($1 == "irq" || $1 == "vector" || $1 == "softirq") {
		if (NF < 5 || !is_int($2) || !is_uint($(NF - 1))) bad("expected \"" $1 " <n> <name> <count> <ns>\"")
		did[t, c, k] = $2; dname[t, c, k] = name_of(3, 2); dcount[t, c, k] = $(NF - 1)
		parent = k
	} else if ($1 == "timer") {
		# "    timer <function> <count> <ns>", nested under the line above
		if (NF < 4 || !is_uint($(NF - 1))) bad("expected \"timer <function> <count> <ns>\"")
		if (parent == "") bad("a timer line under no irq, vector or softirq line")
		dname[t, c, k] = name_of(2, 2); dcount[t, c, k] = $(NF - 1); dparent[t, c, k] = parent
	} else if ($1 == "idle-state") {
		# "    idle-state <index> <name> <exit_us> <kind> <n> <name> <count> <ns>",
		# nested under the idle line: a state and what ended its periods
		if (NF != 9 || !is_int($2) || (!is_uint($4) && $4 != "-") || $5 !~ /^(irq|vector|nmi|none|-)$/ || !is_int($6) || !is_uint($8))
			bad("expected \"idle-state <index> <name> <exit_us> <irq|vector|nmi|none> <n> <name> <count> <ns>\"")
		if (iparent == "") bad("an idle-state line under no idle line")
		did[t, c, k] = $2; dname[t, c, k] = $3; dexit[t, c, k] = $4; dwk[t, c, k] = $5
		dwid[t, c, k] = $6; dwname[t, c, k] = $7; dcount[t, c, k] = $8; dparent[t, c, k] = iparent
	} else if ($1 == "thread") {
		if (NF < 5 || !is_int($2) || !is_int($3)) bad("expected \"thread <pid> <prio> <comm> <ns>\"")
		did[t, c, k] = $2; dprio[t, c, k] = $3; dname[t, c, k] = name_of(4, 1)
	} else if ($1 == "thread-rest") {
		if (NF != 3 || !is_uint($2)) bad("expected \"thread-rest <tasks> <ns>\"")
		did[t, c, k] = $2
	} else if ($1 == "idle" || $1 == "uncovered") {
		if (NF != 2) bad("expected \"" $1 " <ns>\"")
	} else bad("unknown detail line")
	next
}
# timers - the timer callbacks nested under detail line p of (t, c), as text
function timers(t, c, p,    k, s, sep) {
	s = ""; sep = ""
	for (k = p + 1; k <= nd[t, c] && dk[t, c, k] == "timer"; k++) {
		s = s sep dcount[t, c, k] " x timer " dname[t, c, k] " " us(dns[t, c, k]) " us"
		sep = ", "
	}
	return s == "" ? "" : " (of it " s ")"
}
# woken_by - what ended the idle periods of idle-state line k of (t, c), as text
function woken_by(t, c, k,    w) {
	w = dwk[t, c, k]
	return w == "irq" ? dwname[t, c, k] " irq " dwid[t, c, k] : w == "vector" ? dwname[t, c, k] : w == "nmi" ? "an NMI" : "no interrupt"
}
# idle_states - the idle-state lines nested under detail line p of (t, c), as text
function idle_states(t, c, p,    k, s, sep) {
	s = ""; sep = ""
	for (k = p + 1; k <= nd[t, c] && dk[t, c, k] == "idle-state"; k++) {
		s = s sep dcount[t, c, k] " x " (did[t, c, k] < 0 ? "other idle states" : dname[t, c, k])
		s = s (dexit[t, c, k] != "-" ? " (exit latency " dexit[t, c, k] " us)" : "") " " us(dns[t, c, k]) " us"
		if (did[t, c, k] >= 0) s = s " woken by " woken_by(t, c, k)
		sep = ", "
	}
	return s == "" ? "" : " (of it " s ")"
}
# items - the detail lines of category cat of (t, c) as a text list
function items(t, c, cat,    k, s, sep, x) {
	s = ""; sep = ""
	for (k = 1; k <= nd[t, c]; k++) {
		x = ""
		if (cat == "hardirq" && dk[t, c, k] == "irq")
			x = dcount[t, c, k] " x " (did[t, c, k] < 0 ? "other IRQs" : dname[t, c, k] " irq " did[t, c, k]) " " us(dns[t, c, k]) " us"
		else if (cat == "hardirq" && dk[t, c, k] == "vector")
			x = dcount[t, c, k] " x " dname[t, c, k] " " us(dns[t, c, k]) " us"
		else if (cat == "softirq" && dk[t, c, k] == "softirq")
			x = dcount[t, c, k] " x " dname[t, c, k] " " us(dns[t, c, k]) " us"
		else if (cat == "thread" && dk[t, c, k] == "thread")
			x = dname[t, c, k] " (pid " did[t, c, k] ", prio " dprio[t, c, k] ") " us(dns[t, c, k]) " us"
		else if (cat == "thread" && dk[t, c, k] == "thread-rest")
			x = did[t, c, k] " more " us(dns[t, c, k]) " us"
		else if (cat == "other" && dk[t, c, k] == "idle")
			x = "idle " us(dns[t, c, k]) " us" idle_states(t, c, k)
		else if (cat == "other" && dk[t, c, k] == "uncovered")
			x = us(dns[t, c, k]) " us before the oldest event explain still held, not explained"
		if (x != "" && (dk[t, c, k] == "irq" || dk[t, c, k] == "vector" || dk[t, c, k] == "softirq"))
			x = x timers(t, c, k)
		if (x != "") { s = s sep x; sep = ", " }
	}
	return s
}
# story - the paragraph of (t, c)
function story(t, c,    s, cats, i, j, best, done, nc, x, what, l) {
	l = win[t, c]
	if ((t, c) in mx_lat && (t == "missed_timer_offsets" ? mx_lat[t, c] <= int(l / 1000) : mx_lat[t, c] == int(l / 1000)))
		# (a softirq victim is a vector: its number as the pid)
		who = t == "softirq" ? "vector " mx_pid[t, c] " " mx_comm[t, c] : \
		    mx_comm[t, c] "/" mx_pid[t, c] " (prio " mx_prio[t, c] ")"
	else
		who = ""
	if (t == "missed_timer_offsets")
		s = t " on CPU" c ": the timer " (who != "" ? "of " who " " : "") "fired " us(l) " us late"
	else if (t == "irqsoff" || t == "preemptoff" || t == "preemptirqsoff")
		s = t " on CPU" c ": " (t == "irqsoff" ? "interrupts were" : t == "preemptoff" ? "preemption was" : "interrupts and preemption were") " off for " us(l) " us"
	else
		s = t " on CPU" c ": " (who != "" ? who : "the wakee") " waited " us(l) " us to run"
	split("hardirq softirq nmi thread other", cats, " ")
	what["hardirq"] = "in hard IRQs"; what["softirq"] = "in softirqs"
	what["nmi"] = "in NMIs"; what["other"] = "other"
	what["thread"] = t ~ /off$/ ? "in the task that held it" : t == "softirq" ? "in tasks" : "in other threads"
	sep = ": "
	delete done
	for (i = 1; i <= 5; i++) {
		best = ""
		for (j = 1; j <= 5; j++)
			if (!(cats[j] in done) && cns[t, c, cats[j]] > 0 &&
			    (best == "" || cns[t, c, cats[j]] + 0 > cns[t, c, best] + 0)) best = cats[j]
		if (best == "") break
		done[best] = 1
		x = items(t, c, best)
		if (best == "nmi") x = ccount[t, c, "nmi"] " x NMI"
		s = s sep us(cns[t, c, best]) " us " what[best] (x != "" ? " (" x ")" : "")
		sep = "; "
	}
	return s "."
}
# cpu_json - the record of (t, c) as JSON
function cpu_json(t, c,    s, i, k, cats, sep) {
	if ((t, c) in none) return "null"
	split("hardirq softirq nmi thread other", cats, " ")
	s = "{\"window_ns\": " win[t, c]
	for (i = 1; i <= 5; i++)
		s = s ", " jstr(cats[i]) ": {\"ns\": " cns[t, c, cats[i]] ", \"count\": " ccount[t, c, cats[i]] "}"
	s = s ", \"details\": ["
	sep = ""
	for (k = 1; k <= nd[t, c]; k++) {
		s = s sep "{\"kind\": " jstr(dk[t, c, k])
		if (dk[t, c, k] == "thread")
			s = s ", \"pid\": " did[t, c, k] ", \"prio\": " dprio[t, c, k] ", \"comm\": " jstr(dname[t, c, k])
		else if (dk[t, c, k] == "thread-rest")
			s = s ", \"tasks\": " did[t, c, k]
		else if (dk[t, c, k] == "timer")
			s = s ", \"function\": " jstr(dname[t, c, k]) ", \"count\": " dcount[t, c, k] ", \"in\": " (dparent[t, c, k] - 1)
		else if (dk[t, c, k] == "idle-state") {
			s = s ", \"state\": " did[t, c, k] ", \"name\": " jstr(dname[t, c, k]) ", \"exit_latency_us\": " (dexit[t, c, k] == "-" ? "null" : dexit[t, c, k])
			s = s ", \"woken_by\": " (dwk[t, c, k] ~ /^(irq|vector|nmi)$/ ? "{\"kind\": " jstr(dwk[t, c, k]) ", \"id\": " dwid[t, c, k] ", \"name\": " (dwname[t, c, k] == "-" ? "null" : jstr(dwname[t, c, k])) "}" : "null")
			s = s ", \"count\": " dcount[t, c, k] ", \"in\": " (dparent[t, c, k] - 1)
		} else if (dk[t, c, k] != "idle" && dk[t, c, k] != "uncovered")
			s = s ", \"id\": " did[t, c, k] ", \"name\": " jstr(dname[t, c, k]) ", \"count\": " dcount[t, c, k]
		s = s ", \"ns\": " dns[t, c, k] "}"
		sep = ", "
	}
	s = s "], \"max\": " (((t, c) in mx_lat) ? "{\"latency\": " mx_lat[t, c] ", \"pid\": " mx_pid[t, c] ", \"prio\": " mx_prio[t, c] ", \"comm\": " jstr(mx_comm[t, c]) "}" : "null")
	return s ", \"text\": " jstr(story(t, c)) "}"
}
END {
	if (lh_failed) exit 2
	nt = split(types, tl, " ")
	if (json) {
		printf "{\"schema_version\": %d, \"explain_enabled\": %s, \"types\": {", schema, (on == "" ? "null" : on == 1 ? "true" : "false")
		for (i = 1; i <= nt; i++) {
			printf "%s%s: {\"cpus\": {", (i > 1 ? ", " : ""), jstr(tl[i])
			sep = ""
			for (k = 1; k <= n; k++) {
				split(order[k], tc, SUBSEP)
				if (tc[1] != tl[i]) continue
				printf "%s%s: %s", sep, jstr(tc[2]), cpu_json(tc[1], tc[2])
				sep = ", "
			}
			printf "}}"
		}
		printf "}}\n"
		exit 0
	}
	shown = 0
	for (k = 1; k <= n; k++) {
		split(order[k], tc, SUBSEP)
		if ((tc[1], tc[2]) in none) continue
		print story(tc[1], tc[2])
		shown++
	}
	if (!shown)
		print "no maximum explained yet" (on == "0" ? " (explain is off: echo 1 > " root "/explain/enable)" : "")
}' root="$LH_ROOT" types="$(printf '%s ' $EX_TYPES)" json="$EX_JSON" on="$EX_ON" schema="$LH_JSON_SCHEMA_VERSION" $EX_FILES)
}

