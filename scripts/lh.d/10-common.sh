# SPDX-License-Identifier: GPL-2.0
#
# 10-common.sh - what every command uses: die and warn, the checkers of option
# arguments (opt_arg, uint_arg, buckets_arg, prom_opt; CPU lists and
# durations in 12-cli.sh), the command list, the tree's vocabulary from its
# status file (need_tree, load_types, type_rows, the switches and their
# dependencies) and the reads and writes of the control files (with the
# module-parameter fallback under lockdown). A part of scripts/lh: see
# assemble.sh.

# ------------------------------------------------------------------ helpers

# die - print an error on stderr and exit 2 (lh is installed alone on rigs, so
# it keeps its own die and warn rather than sourcing scripts/lib.sh, which is
# bash and for the rig scripts of the checkout)
die()
{
	printf 'lh: error: %s\n' "$*" >&2
	exit 2
}

# die_env - print an error on stderr and exit 3: the module's tree cannot be
# reached on this system (not loaded, debugfs not mounted, not root)
die_env()
{
	printf 'lh: error: %s\n' "$*" >&2
	exit 3
}

# warn - print a warning on stderr
warn()
{
	printf 'lh: %s\n' "$*" >&2
}

# opt_arg CMD WHAT OPTION [ARG..] - the argument of OPTION, which is "--opt"
# or "-o" followed by its argument, "--opt=ARG" or "-oARG" (as getopt takes
# rtla's): sets OPT_VAL to it and OPT_SHIFT to the number of words it took;
# dies "CMD: --opt needs WHAT" if there is none or it is empty (every option
# of lh goes through here, as the scripts of tools/memory-model go through
# parseargs.sh's checkarg)
opt_arg()
{
	OA_CMD=$1
	OA_WHAT=$2
	shift 2
	case $1 in
	--*=*) OA_NAME=${1%%=*}; OPT_VAL=${1#*=}; OPT_SHIFT=1 ;;
	--*) OA_NAME=$1; OPT_VAL=${2-}; OPT_SHIFT=2; [ $# -ge 2 ] || OPT_VAL= ;;
	-??*) OA_NAME=${1%"${1#-?}"}; OPT_VAL=${1#-?}; OPT_SHIFT=1 ;;
	*) OA_NAME=$1; OPT_VAL=${2-}; OPT_SHIFT=2; [ $# -ge 2 ] || OPT_VAL= ;;
	esac
	[ -n "$OPT_VAL" ] || die "$OA_CMD: $OA_NAME needs $OA_WHAT"
}

# uint_arg CMD NAME VALUE MIN MAX WHAT - die unless VALUE is a decimal number
# from MIN to MAX without leading zeros, with the two messages of every number
# lh takes: "CMD: NAME 'VALUE' is not WHAT from MIN to MAX", or "CMD: NAME
# VALUE is more than MAX"
uint_arg()
{
	case $3 in
	"" | *[!0-9]* | 0?*) ;;
	*)
		[ ${#3} -le ${#5} ] && [ "$3" -le "$5" ] || die "$1: $2 $3 is more than $5"
		[ "$3" -lt "$4" ] || return 0
		;;
	esac
	die "$1: $2 '$3' is not $6 from $4 to $5"
}

# buckets_arg CMD LIST - LH_PROM_BOUNDS from the --buckets LIST of CMD: the
# le bounds in whole microseconds, comma separated, ascending, from 0 to
# 10240 (a bound above the histogram's range would hide the samples >= 10240
# in it, which are in +Inf only); dies on anything else
buckets_arg()
{
	BA_OUT=
	BA_LAST=-1
	BA_REST=$2,
	while [ -n "$BA_REST" ]; do
		BA_B=${BA_REST%%,*}
		BA_REST=${BA_REST#*,}
		uint_arg "$1" --buckets "$BA_B" 0 10240 "a bound in microseconds"
		[ "$BA_B" -gt "$BA_LAST" ] || die "$1: --buckets '$2' must ascend, each bound once"
		BA_LAST=$BA_B
		BA_OUT="$BA_OUT $BA_B"
	done
	LH_PROM_BOUNDS=${BA_OUT# }
}

# prom_opt CMD ARG.. - take the option of the Prometheus exposition that
# starts ARG (--buckets LIST, --host-label) into LH_PROM_BOUNDS or
# LH_PROM_HOST, and its name into PO_OPT; OPT_SHIFT: the words it took, 0 if
# ARG is none of them
prom_opt()
{
	PO_CMD=$1
	shift
	OPT_SHIFT=0
	case $1 in
	--buckets | --buckets=*) opt_arg "$PO_CMD" "a list of microseconds" "$@"; buckets_arg "$PO_CMD" "$OPT_VAL" ;;
	--host-label) LH_PROM_HOST=1; OPT_SHIFT=1 ;;
	*) return 0 ;;
	esac
	PO_OPT=${1%%=*}
}

# The commands, in the order of the usage list; each has a help_<cmd> beside
# its cmd_<cmd>, its rows of the table of options (12-cli.sh).
LH_COMMANDS="status enable disable reset pid summary explain outliers json snapshot compare plot prom monitor report run"

# sig_policy - SP_WHY: when this kernel loads only signed modules
# (module.sig_enforce=Y, read beside LH_SYSMODULE in /sys/module; or
# lockdown, which Secure Boot turns on, in LH_SECURITYFS), why a modprobe of
# latency_hist may have been refused and what to do; else empty. Names the
# signer of the installed module when modinfo finds one.
sig_policy()
{
	SP_WHY=
	SP_ENF=$(cat "${LH_SYSMODULE%/*}/module/parameters/sig_enforce" 2>/dev/null)
	SP_LD=$(cat "$LH_SECURITYFS/lockdown" 2>/dev/null)
	if [ "$SP_ENF" = Y ]; then
		SP_WHY="this kernel loads only modules signed with a key it trusts (module.sig_enforce=Y): a modprobe that says \"Key was rejected by service\" means"
	else
		case $SP_LD in
		*"[integrity]"* | *"[confidentiality]"*)
			SP_LD=${SP_LD#*"["}
			SP_WHY="this kernel is locked down (lockdown=${SP_LD%%"]"*}; Secure Boot does this) and loads only modules signed with a key it trusts: a modprobe that says \"Operation not permitted\" means"
			;;
		*) return 0 ;;
		esac
	fi
	SP_WHY="$SP_WHY latency_hist.ko is unsigned or signed with a key the kernel does not trust"
	if command -v modinfo >/dev/null 2>&1 && SP_SIGNER=$(modinfo -F signer latency_hist 2>/dev/null); then
		if [ -n "$SP_SIGNER" ]; then
			SP_WHY="$SP_WHY (the installed one is signed by \"$SP_SIGNER\")"
		else
			SP_WHY="$SP_WHY (the installed one is unsigned)"
		fi
	fi
	SP_WHY="$SP_WHY. DKMS signs it with /var/lib/dkms/mok.pub: enrol that key (mokutil --import /var/lib/dkms/mok.pub, reboot, confirm in MokManager); a hand build: make sign; see latency_hist(7), \"Signed modules\""
}

# need_tree - make sure LH_ROOT is a latency_hist tree we can read; when the
# module's own tree cannot be, say why: module not loaded, debugfs not
# mounted, not root (exit 3); a tree named by LH_ROOT that is not there is
# bad input (exit 2)
need_tree()
{
	if [ ! -r "$LH_ROOT/status" ] && [ "$LH_ROOT" = "$LH_DEBUGFS/latency_hist" ]; then
		if [ ! -d "$LH_SYSMODULE" ]; then
			sig_policy
			die_env "the latency_hist module is not loaded: modprobe latency_hist (package latency-hist-dkms), then try again${SP_WHY:+
lh: $SP_WHY}"
		fi
		awk -v d="$LH_DEBUGFS" '$2 == d && $3 == "debugfs" { found = 1 } END { exit !found }' /proc/mounts 2>/dev/null ||
			die_env "debugfs is not mounted on $LH_DEBUGFS: mount -t debugfs none $LH_DEBUGFS, then try again"
		[ "$(id -u)" = 0 ] ||
			die_env "latency_hist's files are root-only: run lh as root (sudo lh ...)"
		[ -d "$LH_ROOT" ] ||
			die_env "$LH_ROOT does not exist although the module is loaded and debugfs is mounted (lockdown=confidentiality hides debugfs)"
	fi
	[ -d "$LH_ROOT" ] ||
		die "$LH_ROOT does not exist: load the module (modprobe latency_hist) and mount debugfs, or set LH_ROOT"
	[ -r "$LH_ROOT/status" ] ||
		die "cannot read $LH_ROOT/status: not a latency_hist tree, or not root"
	load_types
}

# load_types - read the types of LH_ROOT/status (status_line of the awk
# library): LH_TYPE_ROWS, one line per histogram in status order, "histogram
# switch needs pid available slow explain outliers" (needs comma separated or
# -, the rest 0 or 1: a pid filter, available=1, syscall_slow_path=1,
# explain=1, outliers=1),
# LH_HISTS (status order), LH_SWITCHES (each after the switches it needs) and
# LH_PID_SWITCHES (the histograms whose directory holds a pid filter); dies on
# a line that is not a status line
load_types()
{
	# (one awk: every command starts here, and an awk costs a fork and an
	# exec; its first line is LH_SWITCHES, the rest LH_TYPE_ROWS)
	# shellcheck disable=SC2016 # awk code
	LH_TYPE_ROWS=$(awk "$LH_AWK_BASE"'
{ rd_file = FILENAME; rd_ln = FNR; status_line() }
END {
	if (lh_failed) exit 2
	# each switch after the ones it needs (the module lists them so)
	for (i = 1; i <= st_n; i++)
		if (!(st_switch[st_order[i]] in needs)) { order[++n] = st_switch[st_order[i]]; needs[order[n]] = st_needs[st_order[i]] }
	line = ""
	for (left = n; left > 0; ) {
		progress = 0
		for (i = 1; i <= n; i++) {
			s = order[i]
			if (s in done) continue
			k = split(needs[s] == "-" ? "" : needs[s], nd, ",")
			ok = 1
			for (j = 1; j <= k; j++) if (!(nd[j] in done)) ok = 0
			if (!ok) continue
			line = line (line == "" ? "" : " ") s
			done[s] = 1; left--; progress = 1
		}
		if (!progress) break
	}
	print line
	for (i = 1; i <= st_n; i++) {
		t = st_order[i]
		print t, st_switch[t], st_needs[t], st_pid[t], st_avail[t], st_slow[t], st_explain[t], st_outliers[t]
	}
}' "$LH_ROOT/status") || exit 2
	LH_SWITCHES=${LH_TYPE_ROWS%%"$LH_NL"*}
	case $LH_TYPE_ROWS in
	*"$LH_NL"*) LH_TYPE_ROWS=${LH_TYPE_ROWS#*"$LH_NL"} ;;
	*) LH_TYPE_ROWS= ;;
	esac
	LH_HISTS=
	LH_PID_SWITCHES=
	while read -r LT_H _ _ LT_PID _; do
		[ -n "$LT_H" ] || continue
		LH_HISTS="$LH_HISTS $LT_H"
		[ "$LT_PID" != 1 ] || LH_PID_SWITCHES="$LH_PID_SWITCHES $LT_H"
	done <<EOF
$LH_TYPE_ROWS
EOF
	LH_HISTS=${LH_HISTS# }
	LH_PID_SWITCHES=${LH_PID_SWITCHES# }
}

# word_in WORD LIST - true if WORD is one of the space-separated LIST
word_in()
{
	case " $2 " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# type_rows N [M] - TR_OUT: column M (default 1, the histogram; else 2, the
# switch) of the rows of LH_TYPE_ROWS whose column N is 1, space separated
# (a variable, not printed: a command substitution costs a fork)
type_rows()
{
	TR_OUT=
	while read -r TR_1 TR_2 _ TR_4 TR_5 TR_6 TR_7 TR_8; do
		case $1 in 4) TR_N=$TR_4 ;; 5) TR_N=$TR_5 ;; 6) TR_N=$TR_6 ;; 7) TR_N=$TR_7 ;; *) TR_N=${TR_8%% *} ;; esac
		[ "$TR_N" = 1 ] || continue
		case ${2:-1} in 1) TR_OUT="$TR_OUT $TR_1" ;; *) TR_OUT="$TR_OUT $TR_2" ;; esac
	done <<EOF
$LH_TYPE_ROWS
EOF
	TR_OUT=${TR_OUT# }
}

# types_with N NONE UNKNOWN [TYPE..] - print the TYPEs (default: every type
# whose column N of type_rows is 1), one a line; dies with NONE when no type
# has it, and with the printf format UNKNOWN (the type, then the list of
# those that have it) on a TYPE without it
types_with()
{
	TW_N=$1 TW_NONE=$2 TW_UNKNOWN=$3
	shift 3
	type_rows "$TW_N"
	TW_ALL=$TR_OUT
	[ -n "$TW_ALL" ] || die "$TW_NONE"
	# shellcheck disable=SC2086 # a word list
	[ $# -gt 0 ] || set -- $TW_ALL
	for TW_T in "$@"; do
		# shellcheck disable=SC2059 # the caller's format; the type is an argument
		case " $TW_ALL " in
		*" $TW_T "*) printf '%s\n' "$TW_T" ;;
		*) die "$(printf "$TW_UNKNOWN" "$TW_T" "$TW_ALL")" ;;
		esac
	done
}

# hist_switch NAME - print the enable switch that drives histogram NAME (a
# switch's own name gives that switch)
hist_switch()
{
	# shellcheck disable=SC2016 # awk code
	printf '%s\n' "$LH_TYPE_ROWS" | awk -v n="$1" '$1 == n || $2 == n { print $2; exit }'
}

# switch_hists SWITCH - print the histograms SWITCH drives
switch_hists()
{
	# shellcheck disable=SC2016 # awk code
	printf '%s\n' "$LH_TYPE_ROWS" | awk -v s="$1" '$2 == s { printf "%s%s", sep, $1; sep = " " } END { print "" }'
}

# switch_needs SWITCH - print the switches SWITCH needs, space separated
switch_needs()
{
	# shellcheck disable=SC2016 # awk code
	printf '%s\n' "$LH_TYPE_ROWS" | awk -v s="$1" '$2 == s && $3 != "-" { gsub(/,/, " ", $3); print $3; exit }'
}

# check_hist NAME - die unless NAME is a histogram with a directory here
check_hist()
{
	word_in "$1" "$LH_HISTS" ||
		die "unknown histogram '$1' (one of: $LH_HISTS)"
	[ -d "$LH_ROOT/$1" ] || die "$LH_ROOT/$1 does not exist"
}

# to_switches NAME.. - print the switches for switch or histogram names
# ("all": every switch), in switch-on order; dies on an unknown name
to_switches()
{
	TS_WANT=
	for TS_N in "$@"; do
		if [ "$TS_N" = all ]; then
			TS_WANT=$LH_SWITCHES
		elif word_in "$TS_N" "$LH_SWITCHES" || word_in "$TS_N" "$LH_HISTS"; then
			TS_WANT="$TS_WANT $(hist_switch "$TS_N")"
		else
			die "unknown type '$TS_N' (one of: $LH_SWITCHES, a histogram, or all)"
		fi
	done
	TS_OUT=
	for TS_S in $LH_SWITCHES; do
		word_in "$TS_S" "$TS_WANT" && TS_OUT="$TS_OUT $TS_S"
	done
	echo "${TS_OUT# }"
}

# with_deps SWITCH.. - add every switch the SWITCHes need (status needs=,
# followed through), in switch-on order
with_deps()
{
	WD_ALL=" $* "
	WD_MORE=1
	while [ -n "$WD_MORE" ]; do
		WD_MORE=
		for WD_S in $WD_ALL; do
			for WD_N in $(switch_needs "$WD_S"); do
				case $WD_ALL in
				*" $WD_N "*) ;;
				*) WD_ALL="$WD_ALL$WD_N "; WD_MORE=1 ;;
				esac
			done
		done
	done
	# shellcheck disable=SC2086 # a word list
	to_switches $WD_ALL
}

# reverse WORD.. - print the words in reverse order
reverse()
{
	RV_OUT=
	for RV_W in "$@"; do
		RV_OUT="$RV_W $RV_OUT"
	done
	echo "${RV_OUT% }"
}

# read_value FILE - print the first line of FILE; dies if it cannot be read
read_value()
{
	RVAL=
	IFS= read -r RVAL <"$1" || [ -n "$RVAL" ] || die "cannot read $1"
	printf '%s\n' "$RVAL"
}

# ctl_param FILE - print the module parameter that does what a write to the
# control FILE of the tree does: enable/S -> enable_S, H/pid -> H_pid,
# H/reset -> reset (its value names H); fail for any other file
ctl_param()
{
	CP_REL=${1#"$LH_ROOT"/}
	case $CP_REL in
	enable/*) echo "enable_${CP_REL#enable/}" ;;
	*/pid) echo "${CP_REL%/pid}_pid" ;;
	*/reset) echo reset ;;
	*) return 1 ;;
	esac
}

# switch_reason SWITCH - print why SWITCH cannot be switched on, from the
# tree's status file read afresh: the reason= of a histogram it drives that
# is not available ("preemptirq tracepoints not present in this kernel"), or
# the switches it needs that are off; print nothing if neither
switch_reason()
{
	# shellcheck disable=SC2016 # awk code
	awk "$LH_AWK_BASE"'
{ rd_file = FILENAME; rd_ln = FNR; status_line() }
END {
	for (i = 1; i <= st_n; i++) {
		t = st_order[i]
		if (st_switch[t] != s) continue
		if (!st_avail[t]) { print "not available: " (st_reason[t] != "" ? st_reason[t] : "this kernel cannot measure " t); exit }
		k = split(st_needs[t] == "-" ? "" : st_needs[t], nd, ",")
		for (j = 1; j <= k; j++)
			for (u = 1; u <= st_n; u++)
				if (st_order[u] == nd[j] && !st_en[nd[j]]) { off = off (off == "" ? "" : " ") nd[j]; break }
	}
	if (off != "") print "it needs " off " switched on first"
}' s="$1" "$LH_ROOT/status" 2>/dev/null
}

# write_why FILE VALUE ERR - print why the write of VALUE to the control
# FILE failed, for a user: ERR is what the shell said, which names the errno
# when the open failed and, for a failed write(2), only "I/O error" (dash) or
# "write failed" (busybox); the module's errors mean (module/control.c)
# ENODEV a type this kernel cannot measure or a module being unloaded,
# EINVAL a value or a dependency refused, EBUSY a control in use, EPERM
# kernel lockdown; for an enable switch the status file says which
write_why()
{
	case $3 in
	*"No such device"*) WW_WHY="ENODEV: a type this kernel cannot measure, or the module is being unloaded" ;;
	*"busy"*) WW_WHY="EBUSY: the control is in use; try again" ;;
	*"Invalid argument"*) WW_WHY="EINVAL: the module does not take this value now (a switch it needs off?)" ;;
	*"not permitted"*) WW_WHY="EPERM: kernel lockdown refuses debugfs writes" ;;
	*"ermission denied"*) WW_WHY="EACCES: latency_hist's controls are root-only" ;;
	*"I/O error"* | *"write failed"* | *"write error"* | *"No space"* | "") WW_WHY= ;;
	*) WW_WHY=${3##*: } ;;
	esac
	WW_REL=${1#"$LH_ROOT"/}
	case $WW_REL:$2 in
	enable/*:1)
		WW_SW=$(switch_reason "${WW_REL#enable/}")
		[ -z "$WW_SW" ] || WW_WHY=$WW_SW
		;;
	esac
	printf 'the module refused the write of %s to %s: %s\n' "'$2'" "$1" \
		"${WW_WHY:-$(basename "$1") refused it; lh status and dmesg say why}"
}

# write_control FILE VALUE - one write of "VALUE\n" to a control file; when
# debugfs refuses it with EPERM (kernel lockdown refuses every debugfs file
# with a write bit) the same write goes to the module parameter that does
# the same (ctl_param), saying so on stderr; on failure print why on stderr
# (write_why, never the shell's words alone) and return 1
write_control()
{
	if WC_ERR=$({ printf '%s\n' "$2" >"$1"; } 2>&1); then
		return 0
	fi
	case $WC_ERR in
	*"not permitted"*)
		if WC_PARAM=$(ctl_param "$1"); then
			WC_VAL=$2
			[ "$WC_PARAM" != reset ] || { WC_VAL=${1#"$LH_ROOT"/}; WC_VAL=${WC_VAL%/reset}; }
			if WC_ERR2=$({ printf '%s\n' "$WC_VAL" >"$LH_SYSMODULE/parameters/$WC_PARAM"; } 2>&1); then
				warn "debugfs refused ${1#"$LH_ROOT"/} (kernel lockdown?): wrote $WC_PARAM=$WC_VAL to $LH_SYSMODULE/parameters instead"
				return 0
			fi
			warn "$(write_why "$1" "$2" "$WC_ERR")"
			warn "$(write_why "$LH_SYSMODULE/parameters/$WC_PARAM" "$WC_VAL" "$WC_ERR2")"
			return 1
		fi
		;;
	esac
	warn "$(write_why "$1" "$2" "$WC_ERR")"
	return 1
}

# read_control FILE - print the first line of a control file, or under
# lockdown (debugfs refuses to open it) of the module parameter that holds
# the same value; dies if neither can be read
read_control()
{
	if RC_VAL=$(read_value "$1" 2>/dev/null); then
		printf '%s\n' "$RC_VAL"
	elif RC_PARAM=$(ctl_param "$1") && [ -r "$LH_SYSMODULE/parameters/$RC_PARAM" ]; then
		read_value "$LH_SYSMODULE/parameters/$RC_PARAM"
	else
		read_value "$1"
	fi
}

# switch_enabled SWITCH - print 0 or 1, the state of enable/SWITCH
switch_enabled()
{
	read_control "$LH_ROOT/enable/$1"
}

