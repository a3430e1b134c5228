# SPDX-License-Identifier: GPL-2.0
#
# 70-run.sh - lh run: a command between a reset and a snapshot, with
# progress. A part of scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ run

# run_progress STOPFILE - stderr every LH_PROGRESS_S seconds: elapsed time and
# samples per histogram of RUN_HISTS, until STOPFILE exists (a background loop;
# the file, not a signal, ends it, so no signal can be lost in a race)
run_progress()
{
	trap - INT TERM
	RP_T0=$(date +%s)
	while sleep "$LH_PROGRESS_S" && [ ! -e "$1" ]; do
		RP_LINE=
		for RP_H in $RUN_HISTS; do
			# shellcheck disable=SC2016 # awk code
			RP_N=$(hist_headers "$RP_H" | awk '{ n += $3 } END { printf "%.0f", n }')
			RP_LINE="$RP_LINE, $RP_H $RP_N"
		done
		echo "lh: run: $(($(date +%s) - RP_T0)) s$RP_LINE samples" >&2
	done
}

# run_restore - switch off what lh run switched on
run_restore()
{
	# shellcheck disable=SC2086
	for RR_S in $(reverse $RUN_ON); do
		write_control "$LH_ROOT/enable/$RR_S" 0
	done
	RUN_ON=
}

# help_run - the usage of lh run
help_run()
{
	cat <<'EOF'
cmd cmdline [--types T,..] [--snapshot DIR] [-d DURATION | -- CMD [ARGS]]
about reset, enable, run CMD (or wait DURATION),
about disable, summary
opt - --types T,.. types these types (and what they need) only
opt - --snapshot DIR dir then lh snapshot DIR
opt -d --duration DURATION duration record for DURATION (10s, 5m, 2h, 1d)
exits 0 2 3 other
exit other the exit status of CMD
EOF
}

# cmd_run - reset, enable, run CMD, disable, print the summary (and snapshot)
cmd_run()
{
	RUN_TYPES=
	RUN_SNAP=
	RUN_DUR=
	while [ $# -gt 0 ]; do
		case $1 in
		--types | --types=*) opt_arg run "a list" "$@"; RUN_TYPES=$OPT_VAL; shift "$OPT_SHIFT" ;;
		--snapshot | --snapshot=*) opt_arg run "a directory" "$@"; RUN_SNAP=$OPT_VAL; shift "$OPT_SHIFT" ;;
		-d | -d?* | --duration | --duration=*)
			opt_arg run "a duration" "$@"; shift "$OPT_SHIFT"
			duration_arg run --duration "$OPT_VAL" 1 999999999 ms; RUN_DUR=$DA_S ;;
		--) shift; break ;;
		-*) die "run: unknown option $1" ;;
		*) break ;;
		esac
	done
	if [ -n "$RUN_DUR" ]; then
		# (rtla timerlat hist -d: record for that long, with no workload of lh's)
		[ $# -eq 0 ] || die "run: --duration or a command to run, not both"
		set -- sleep "$RUN_DUR"
	fi
	[ $# -gt 0 ] || die "usage: lh run [--types T,..] [--snapshot DIR] [-d DURATION | -- CMD [ARGS]]"
	uint_arg run LH_PROGRESS_S "$LH_PROGRESS_S" 0 9999999 "a number of seconds"
	need_tree
	if [ -n "$RUN_SNAP" ] && [ -e "$RUN_SNAP" ] && [ -n "$(ls -A "$RUN_SNAP" 2>/dev/null)" ]; then
		die "run: snapshot directory $RUN_SNAP is not empty"
	fi
	if [ -n "$RUN_TYPES" ]; then
		# shellcheck disable=SC2046
		RUN_SW=$(to_switches $(echo "$RUN_TYPES" | tr ',' ' ')) || exit 2
		# shellcheck disable=SC2086
		RUN_SW=$(with_deps $RUN_SW)
	else
		# Every available type, but none that makes every system call
		# take the slow path (status syscall_slow_path=1), nor one that
		# needs such a type: that changes what is measured; name it.
		type_rows 5
		RUN_SW=$TR_OUT
		# shellcheck disable=SC2086
		RUN_SW=$(to_switches $RUN_SW) || exit 2
		type_rows 6 2
		RUN_SLOW=$TR_OUT
		RUN_KEEP=
		for RN_S in $RUN_SW; do
			RN_SLOW=
			# shellcheck disable=SC2046 # a word list
			for RN_N in $(with_deps "$RN_S"); do
				word_in "$RN_N" "$RUN_SLOW" && RN_SLOW=1
			done
			[ -n "$RN_SLOW" ] || RUN_KEEP="$RUN_KEEP $RN_S"
		done
		RUN_SW=${RUN_KEEP# }
		[ -n "$RUN_SW" ] || die "run: this kernel can measure nothing (see lh status)"
	fi
	RUN_ON=
	for RN_S in $RUN_SW; do
		[ "$(switch_enabled "$RN_S")" = 1 ] || RUN_ON="$RUN_ON $RN_S"
	done
	RUN_HISTS=
	for RN_S in $RUN_SW; do
		RUN_HISTS="$RUN_HISTS $(switch_hists "$RN_S")"
	done
	# shellcheck disable=SC2086
	cmd_reset $RUN_HISTS
	# shellcheck disable=SC2086
	cmd_enable $RUN_SW
	trap 'run_restore; exit 130' INT
	trap 'run_restore; exit 143' TERM
	echo "lh: run: recording$(for RN_H in $RUN_HISTS; do printf ' %s' "$RN_H"; done) while: $*" >&2
	RUN_STOP=
	if [ "$LH_PROGRESS_S" -gt 0 ]; then
		RUN_STOP=$(mktemp "${TMPDIR:-/tmp}/lh-run.XXXXXX") || die "run: cannot create a temporary file"
		rm -f "$RUN_STOP"
		run_progress "$RUN_STOP" >/dev/null &
	fi
	"$@"
	RUN_RC=$?
	if [ -n "$RUN_STOP" ]; then
		: >"$RUN_STOP"
		# the loop sees the file within LH_PROGRESS_S s, then removes it
		(sleep "$LH_PROGRESS_S"; sleep 1; rm -f "$RUN_STOP") >/dev/null 2>&1 &
	fi
	run_restore
	trap - INT TERM
	echo "lh: run: '$1' exited $RUN_RC" >&2
	RUN_SUM=
	for RN_H in $RUN_HISTS; do
		[ -e "$LH_ROOT/$RN_H/summary" ] && RUN_SUM="$RUN_SUM $RN_H"
	done
	if [ -n "$RUN_SUM" ]; then
		# shellcheck disable=SC2086
		(cmd_summary $RUN_SUM) || [ "$RUN_RC" != 0 ] || RUN_RC=2
	else
		warn "run: no summary files (latency_hist older than the summary file); histograms are in $LH_ROOT"
	fi
	if [ -n "$RUN_SNAP" ]; then
		(cmd_snapshot "$RUN_SNAP") || [ "$RUN_RC" != 0 ] || RUN_RC=2
	fi
	return "$RUN_RC"
}

