# SPDX-License-Identifier: GPL-2.0
#
# 12-cli.sh - lh's command line as rtla and cyclictest users type it: the
# checkers of CPU lists (-c 0-3,5) and durations with units (10s, 5m, 2h,
# 1d, 500ms), and the one table of every command's options that `lh CMD
# --help`, the command list, the man page's SYNOPSIS, OPTIONS and EXIT
# STATUS (scripts/gen-man.sh) and the bash completion
# (scripts/gen-completion.sh) are all made from, so they cannot disagree.
# A part of scripts/lh: see assemble.sh.

# The table (`lh help --options` prints it whole): each command's help_<cmd>,
# beside its cmd_<cmd>, prints the command's rows, one a line, its fields
# split by blanks, the last one the rest of the line; - for an empty field:
#   cmd POSITIONAL SYNOPSIS    POSITIONAL, what the words that are not
#                              options are, for the completion: types (TYPE..
#                              or all), pidtype, dir, file, command (a
#                              command of lh), cmdline (a command to run), -
#   about TEXT                 a line of what the command does
#   opt SHORT LONG ARG KIND TEXT   one option; KIND, what ARG is: cpus,
#                              duration, number, dir, file, types (comma
#                              separated), text, or flag (no ARG)
#   more TEXT                  a further line of the option above's TEXT
#   exits CODE..               its exit statuses (cli_rows says what each
#                              means, as 00-head.sh) and exit CODE TEXT one a
#                              command gives a meaning of its own
# cli_rows turns them into the one table, its fields split by tabs.

# The histograms latency_hist has (include/latency_hist/type_list.h), for the
# completion where the tree's status file cannot be read (not root).
# shellcheck disable=SC2034 # read by scripts/gen-completion.sh
LH_KNOWN_TYPES="irqsoff preemptoff preemptirqsoff wakeup wakeup/sharedprio missed_timer_offsets timerandwakeup switchtime timerwakeupswitch irq softirq"

# cpulist_arg CMD OPTION LIST - CL_OUT: the CPUs of LIST (rtla's -c syntax:
# numbers and ranges N-M, comma separated, "0-3,5"), space separated with
# blanks around and each once; "all" gives an empty CL_OUT (every CPU); dies
# naming the option and the piece of LIST that is not a CPU number, or the
# range that runs backwards
cpulist_arg()
{
	CL_OUT=" "
	CL_MAX=-1
	[ "$3" != all ] || { CL_OUT=; return 0; }
	CL_REST=$3,
	while [ -n "$CL_REST" ]; do
		CL_W=${CL_REST%%,*}
		CL_REST=${CL_REST#*,}
		CL_A=${CL_W%%-*}
		CL_B=${CL_W#*-}
		for CL_N in "$CL_A" "$CL_B"; do
			case $CL_N in
			"" | *[!0-9]* | 0?*)
				die "$1: $2 '$CL_N' is not a CPU number from 0 to $LH_MAX_CPU, in '$3' (a CPU list: 0-3,5; or all)" ;;
			esac
			uint_arg "$1" "$2" "$CL_N" 0 "$LH_MAX_CPU" "a CPU number"
		done
		[ "$CL_A" -le "$CL_B" ] || die "$1: $2 '$3': the range $CL_W runs backwards"
		# (a CPU above all before it is new: 0-8191 takes no search)
		while [ "$CL_A" -le "$CL_B" ]; do
			if [ "$CL_A" -gt "$CL_MAX" ]; then
				CL_OUT="$CL_OUT$CL_A "
				CL_MAX=$CL_A
			else
				case $CL_OUT in *" $CL_A "*) ;; *) CL_OUT="$CL_OUT$CL_A " ;; esac
			fi
			CL_A=$((CL_A + 1))
		done
	done
}

# duration_arg CMD OPTION VALUE MIN MAX [ms] - DA_S: the seconds of VALUE,
# a whole number with a unit, s, m, h or d (rtla's -d syntax), or none for
# seconds; with "ms" also milliseconds that make whole seconds (lh counts in
# seconds: 2000ms is 2, 500ms is refused); dies "CMD: OPTION 'VALUE' is not
# a whole number of seconds or a duration ..." or "CMD: OPTION VALUE is
# more than MAX s" unless it is from MIN to MAX seconds
duration_arg()
{
	DA_WHAT="a whole number of seconds or a duration (30s, 5m, 2h, 1d) from $4 s to $5 s"
	DA_MUL=
	case $3 in
	*ms) [ "${6-}" != ms ] || { DA_N=${3%ms}; DA_MUL=ms; } ;;
	*s) DA_N=${3%s}; DA_MUL=1 ;;
	*m) DA_N=${3%m}; DA_MUL=60 ;;
	*h) DA_N=${3%h}; DA_MUL=3600 ;;
	*d) DA_N=${3%d}; DA_MUL=86400 ;;
	*[!0-9]*) ;;
	*) DA_N=$3; DA_MUL=1 ;;
	esac
	case $DA_MUL:$DA_N in
	: | *: | *:*[!0-9]* | *:0?*) die "$1: $2 '$3' is not $DA_WHAT" ;;
	esac
	# (more than 12 digits is more than any MAX here, and no shell's
	# arithmetic overflows on the product of fewer)
	[ ${#DA_N} -le 12 ] || die "$1: $2 $3 is more than $5 s"
	if [ "$DA_MUL" = ms ]; then
		[ $((DA_N % 1000)) -eq 0 ] || die "$1: $2 '$3' is not whole seconds (lh counts $2 in seconds)"
		DA_S=$((DA_N / 1000))
	else
		DA_S=$((DA_N * DA_MUL))
	fi
	[ "$DA_S" -le "$5" ] || die "$1: $2 $3 is more than $5 s"
	[ "$DA_S" -ge "$4" ] || die "$1: $2 '$3' is not $DA_WHAT"
}

# cli_rows [CMD..] - print the table of each CMD (default: every command,
# then version and help), a line a row, its fields split by tabs, CMD the
# first: CMD cmd POSITIONAL SYNOPSIS; CMD about TEXT; CMD opt SHORT LONG ARG
# KIND TEXT (empty fields for -) and CMD more TEXT; the -h/--help of every
# command; CMD exit CODE TEXT, what each exit status means
cli_rows()
{
	# shellcheck disable=SC2086 # a word list
	[ $# -gt 0 ] || set -- $LH_COMMANDS version help
	for CR_C in "$@"; do
		# shellcheck disable=SC2016 # awk code
		"help_$CR_C" | awk -v c="$CR_C" '
BEGIN {
	text[0] = "success"
	text[1] = "a --fail-if gate tripped"
	text[2] = "bad input or an unreadable or malformed file (nothing changed)"
	text[3] = "the tree cannot be reached (module, debugfs or root missing)"
	nf["cmd"] = 2; nf["about"] = 1; nf["more"] = 1; nf["opt"] = 5; nf["exit"] = 2; nf["exits"] = 1
}
# rest - the line from field k on, as written
function rest(k,    s, i) {
	s = $0
	for (i = 1; i < k; i++) { sub(/^[ \t]*[^ \t]+[ \t]*/, "", s) }
	return s
}
!($1 in nf) { printf "lh: help_%s: a row of unknown kind: %s\n", c, $0 > "/dev/stderr"; exit 2 }
$1 == "exits" { ncodes = split(rest(2), order, " "); next }
$1 == "exit" { own[$2] = rest(3); next }
{
	line = c "\t" $1
	for (i = 2; i <= nf[$1]; i++) line = line "\t" ($i == "-" ? "" : $i)
	t = rest(nf[$1] + 1)
	print line "\t" (t == "-" ? "" : t)
}
END {
	print c "\topt\t-h\t--help\t\tflag\tprint this help and exit 0"
	for (i = 1; i <= ncodes; i++) print c "\texit\t" order[i] "\t" (order[i] in own ? own[order[i]] : text[order[i]])
}' || exit 2
	done
}

# usage - print the command list, from the table
usage()
{
	echo "usage: lh COMMAND [ARGS]     (lh COMMAND --help: its options and exit statuses)"
	# shellcheck disable=SC2016 # awk code
	cli_rows | awk -F'\t' '
$2 == "cmd" { line = "  " $1 ($4 == "" ? "" : " " $4); first = 1; next }
$2 == "about" && first && length(line) <= 33 { printf "%-34s%s\n", line, $3; first = 0; next }
$2 == "about" { if (first) print line; printf "%34s%s\n", "", $3; first = 0 }'
	echo "Tree: LH_ROOT (default /sys/kernel/debug/latency_hist). All of it: lh(1)."
}

# help_command CMD - print the usage of CMD, its options and its exit
# statuses, from the table; fail if there is no such command
help_command()
{
	word_in "$1" "$LH_COMMANDS version help" || return 1
	# shellcheck disable=SC2016 # awk code
	cli_rows "$1" | awk -F'\t' '
$2 == "cmd" { print "usage: lh " $1 ($4 == "" ? "" : " " $4) }
$2 == "about" { print "  " $3 }
$2 == "opt" {
	if (!nopt++) print "Options:"
	o = ($3 == "" ? "    " : $3 ", ") $4 ($5 == "" ? "" : " " $5)
	if (length(o) > 24) printf "  %s\n%28s%s\n", o, "", $7
	else printf "  %-26s%s\n", o, $7
}
$2 == "more" { printf "%28s%s\n", "", $3 }
$2 == "exit" { if (!nexit++) print "Exit status:"; printf "  %-5s %s\n", $3, $4 }
END { print "See lh(1)." }'
}

# help_version - the usage of lh version
help_version()
{
	cat <<'EOF'
cmd - -
about lh's version and the loaded module's (lh -V, --version)
exits 0
EOF
}

# help_help - the usage of lh help
help_help()
{
	cat <<'EOF'
cmd command [COMMAND]
about this list, or COMMAND's options and exit statuses
opt - --options - flag the table the help, man page and completion
more are made of, one option a line
exits 0 2
exit 2 no such command
EOF
}
