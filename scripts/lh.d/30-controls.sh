# SPDX-License-Identifier: GPL-2.0
#
# 30-controls.sh - lh status, enable, disable, reset and pid. A part of
# scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ status and controls

# help_status - the usage of lh status
help_status()
{
	cat <<'EOF'
cmd - -
about what is available, enabled, recorded
exits 0 2 3
EOF
}

# cmd_status - the status table: availability, switch, samples, max, pid
cmd_status()
{
	[ $# -eq 0 ] || die "status takes no arguments"
	need_tree
	ST_FILES=$(tree_files) || exit 2
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(IFS=$LH_NL; set -f; lh_awk '
function END_OUTPUT(    i, t, k, c, n, mx, s, f) {
	printf "%-21s %-5s %-7s %12s %9s %8s  %s\n", "TYPE", "AVAIL", "ENABLED", "SAMPLES", "MAX(us)", "PID", "NOTE"
	for (i = 1; i <= st_n; i++) {
		t = st_order[i]
		n = 0; mx = "-"
		for (k = 1; k <= ncpu[t]; k++) {
			c = cpus[t, k]
			if (!((t, c) in hdr_total)) continue
			n += hdr_total[t, c]
			if (hdr_max[t, c] != "-" && (mx == "-" || hdr_max[t, c] + 0 > mx + 0)) mx = hdr_max[t, c]
		}
		printf "%-21s %-5s %-7s %12.0f %9s %8s  %s\n", t, st_avail[t] ? "yes" : "no",
		    st_en[t] ? "yes" : "no", n, mx, (t in pidval) ? pidval[t] : "-",
		    st_reason[t] != "" ? st_reason[t] : st_slow[t] && st_en[t] ? "every system call takes the slow path" : ""
	}
}' $ST_FILES)
}

# help_enable - the usage of lh enable
help_enable()
{
	cat <<'EOF'
cmd types TYPE..|all
about switch histograms on (with what they need)
exits 0 2 3
EOF
}

# cmd_enable - switch the named types on, in dependency order; undo on failure
cmd_enable()
{
	[ $# -gt 0 ] || die "enable: name at least one type (or all)"
	need_tree
	EN_SW=$(to_switches "$@") || exit 2
	EN_SW=$(with_deps $EN_SW)
	# a type this kernel cannot measure is refused before any write, with
	# the reason the module gives in status
	for EN_S in $EN_SW; do
		EN_WHY=$(switch_reason "$EN_S")
		case $EN_WHY in
		"not available"*) die "enable $EN_S: $EN_WHY (lh status); nothing was changed" ;;
		esac
	done
	EN_DONE=
	for EN_S in $EN_SW; do
		[ "$(switch_enabled "$EN_S")" = 1 ] && continue
		if ! write_control "$LH_ROOT/enable/$EN_S" 1; then
			for EN_U in $(reverse $EN_DONE); do
				write_control "$LH_ROOT/enable/$EN_U" 0
			done
			die "enable $EN_S failed; nothing was changed"
		fi
		EN_DONE="$EN_DONE $EN_S"
	done
}

# help_disable - the usage of lh disable
help_disable()
{
	cat <<'EOF'
cmd types TYPE..|all
about switch histograms off (dependents first)
exits 0 2 3
EOF
}

# cmd_disable - switch the named types off, dependents first
cmd_disable()
{
	[ $# -gt 0 ] || die "disable: name at least one type (or all)"
	need_tree
	DI_SW=$(to_switches "$@") || exit 2
	DI_RC=0
	# shellcheck disable=SC2086 # a word list
	for DI_S in $(reverse $DI_SW); do
		write_control "$LH_ROOT/enable/$DI_S" 0 || DI_RC=1
	done
	[ "$DI_RC" = 0 ] || die "disable failed for at least one type"
}

# help_reset - the usage of lh reset
help_reset()
{
	cat <<'EOF'
cmd types [TYPE..|all]
about empty histograms (default: all)
exits 0 2 3
EOF
}

# cmd_reset - empty the named histograms (default all; "all" too)
cmd_reset()
{
	need_tree
	if [ $# -eq 0 ] || { [ $# -eq 1 ] && [ "$1" = all ]; }; then
		# shellcheck disable=SC2046 # a word list
		set -- $(tree_types)
	else
		for RS_T in "$@"; do
			check_hist "$RS_T"
		done
	fi
	RS_RC=0
	for RS_T in "$@"; do
		write_control "$LH_ROOT/$RS_T/reset" 1 || RS_RC=1
	done
	[ "$RS_RC" = 0 ] || die "reset failed for at least one histogram"
}

# help_pid - the usage of lh pid
help_pid()
{
	cat <<'EOF'
cmd pidtype TYPE [PID]
about show or set the pid filter (0 = none)
exits 0 2 3
EOF
}

# cmd_pid - print or set the pid filter of wakeup or missed_timer_offsets
cmd_pid()
{
	[ $# -ge 1 ] && [ $# -le 2 ] || die "usage: lh pid TYPE [PID]"
	need_tree
	word_in "$1" "$LH_PID_SWITCHES" ||
		die "pid: '$1' has no pid filter (one of: $LH_PID_SWITCHES)"
	if [ $# -eq 1 ]; then
		read_control "$LH_ROOT/$1/pid"
		return
	fi
	uint_arg pid PID "$2" 0 4194304 "a thread id, or 0 for no filter"
	write_control "$LH_ROOT/$1/pid" "$2" || die "pid $1 $2 failed"
}

