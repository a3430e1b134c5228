#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gen-completion.sh - print lh's bash completion (contrib/bash-completion/lh),
# made from the table of lh's command line that `lh help --options` prints
# (scripts/lh.d/12-cli.sh), the table lh's --help and its man page are made
# from too: every command, every option and what its argument is. `make lh`
# writes it; selftests/lh_host/test_lh_cli.sh fails when the committed file
# is not what this prints.
#
# Usage: sh scripts/gen-completion.sh [LH] > contrib/bash-completion/lh
# (LH: the lh to read the table from, default scripts/lh beside this file)

set -eu

lh=${1:-$(dirname "$0")/lh}
LC_ALL=C
export LC_ALL
table=$(sh "$lh" help --options) || { echo "gen-completion.sh: $lh help --options failed" >&2; exit 1; }
types=$(sed -n 's/^LH_KNOWN_TYPES="\(.*\)"$/\1/p' "$lh")
[ -n "$types" ] || { echo "gen-completion.sh: no LH_KNOWN_TYPES in $lh" >&2; exit 1; }

cat <<EOF
# SPDX-License-Identifier: GPL-2.0
# bash completion for lh (latency_hist's tool; lh(1)).
# Made by scripts/gen-completion.sh from lh's table of options (lh help
# --options): change scripts/lh.d, run make lh, never edit this file.
# Types come from the module's status file when it can be read (as root),
# else from the list of the types latency_hist knows.

# _lh_types - the histograms of the tree's status file, or the known ones
_lh_types()
{
	local status=\${LH_ROOT:-/sys/kernel/debug/latency_hist}/status
	if [ -r "\$status" ]; then
		awk '{ print \$1 }' "\$status" 2>/dev/null
	else
		echo $types
	fi
}

# _lh_pid_types - the types with a pid filter
_lh_pid_types()
{
	local status=\${LH_ROOT:-/sys/kernel/debug/latency_hist}/status
	if [ -r "\$status" ]; then
		awk '/ pid=1/ { print \$1 }' "\$status" 2>/dev/null
	else
		echo wakeup missed_timer_offsets
	fi
}

# _lh_arg KIND - complete the argument of an option of KIND (the table's)
_lh_arg()
{
	local cur=\${COMP_WORDS[COMP_CWORD]}
	case \$1 in
	cpus) COMPREPLY=(\$(compgen -W "all \$(seq 0 \$((\$(nproc 2>/dev/null || echo 1) - 1)))" -- "\$cur")) ;;
	dir) COMPREPLY=(\$(compgen -d -- "\$cur")) ;;
	file) COMPREPLY=(\$(compgen -f -- "\$cur")) ;;
	types)
		# a comma-separated list: complete its last word
		local pre=\${cur%"\${cur##*,}"}
		COMPREPLY=(\$(compgen -P "\$pre" -W "\$(_lh_types)" -- "\${cur##*,}")) ;;
	*) COMPREPLY=() ;;
	esac
}

_lh()
{
	local cur prev cmd opts
	cur=\${COMP_WORDS[COMP_CWORD]}
	prev=\${COMP_WORDS[COMP_CWORD-1]}
	if [ "\$COMP_CWORD" -eq 1 ]; then
EOF
printf '%s\n' "$table" | awk -F'\t' '
$2 == "cmd" && !seen[$1]++ { cmds = cmds (cmds == "" ? "" : " ") $1 }
END { printf "\t\tCOMPREPLY=($(compgen -W \"%s --help -h --version -V\" -- \"$cur\"))\n", cmds }'
cat <<'EOF'
		return
	fi
	cmd=${COMP_WORDS[1]}
	# the argument of an option
	case $cmd:$prev in
EOF
printf '%s\n' "$table" | awk -F'\t' '
$2 == "opt" && $6 != "flag" {
	pat = $1 ":" $4
	if ($3 != "") pat = $1 ":" $3 " | " pat
	printf "\t%s) _lh_arg %s; return ;;\n", pat, $6
}'
cat <<'EOF'
	esac
	case $cmd in
EOF
printf '%s\n' "$table" | awk -F'\t' '
# flush - the case of command c: its options, and what its other words are
function flush() {
	if (c == "") return
	printf "\t%s)\n\t\topts=\"%s\"\n", c, opts
	if (pos == "types") print "\t\tCOMPREPLY=($(compgen -W \"" (syn ~ /TYPE\.\.\|all/ ? "all " : "") "$(_lh_types)\" -- \"$cur\"))"
	else if (pos == "pidtype") print "\t\t[ \"$COMP_CWORD\" -ne 2 ] || COMPREPLY=($(compgen -W \"$(_lh_pid_types)\" -- \"$cur\"))"
	else if (pos == "dir") print "\t\tCOMPREPLY=($(compgen -d -- \"$cur\"))"
	else if (pos == "file") print "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))"
	else if (pos == "command") print "\t\tCOMPREPLY=($(compgen -W \"" cmds "\" -- \"$cur\"))"
	else if (pos == "cmdline") print "\t\tCOMPREPLY=($(compgen -c -- \"$cur\"))"
	print "\t\t;;"
}
{ rows[NR] = $0 }
$2 == "cmd" { cmds = cmds (cmds == "" ? "" : " ") $1 }
END {
	for (i = 1; i <= NR; i++) {
		split(rows[i], f, "\t")
		if (f[1] != c) { flush(); c = f[1]; opts = ""; pos = "" }
		if (f[2] == "cmd") { pos = f[3]; syn = f[4] }
		if (f[2] == "opt") opts = opts (opts == "" ? "" : " ") (f[3] != "" ? f[3] " " : "") f[4]
	}
	flush()
}'
cat <<'EOF'
	esac
	case $cur in
	-*) COMPREPLY=($(compgen -W "$opts" -- "$cur")) ;;
	esac
}
complete -F _lh lh
EOF
