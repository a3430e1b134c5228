# SPDX-License-Identifier: GPL-2.0
#
# 80-monitor.sh - lh monitor: the long-term reader that appends each
# interval to DIR/series.jsonl (its read program is monitor.awk). A part of
# scripts/lh: see assemble.sh.

# ------------------------------------------------------------------ monitor

# lh monitor keeps in DIR/monitor.state the tree as it last read it: per CPU
# of each monitored histogram the header counts and the max record, and what
# identifies the module load (host, tree, boot id, and the tree directory's
# inode number, which debugfs hands out anew at every load). The non-zero
# rows, most of a read, go to a rows file in RAM (mon_rows_file): only a
# read of the same load needs them, and a reboot, which clears RAM, starts a
# new one. Each read diffs the tree against both, appends the interval's
# records to DIR/series.jsonl and replaces what changed; so a new lh monitor
# on the same DIR goes on where the last one stopped. It never resets a
# histogram: other readers share the tree.
#
# Read cost: a CPUx file is 10240 rows, which the module prints only as they
# are read. A read takes the 7 header lines of every file (the kernel copies
# the histogram, but prints no rows), and reads in full only the files whose
# counts or max record changed, through `grep -vnF` of the zero rows: grep
# drops them several times faster than any awk (busybox included), and awk
# sees only headers and non-zero rows.
LH_MON_STATE_HEADER="lh_monitor_state 2"

# The awk program of one read. Its input is the file list that mon_list
# writes ("C TYPE CPU PATH" a CPUx file, "M TYPE CPU PATH" a max record,
# "R TYPE PATH" the rows file, read instead of the CPUx files, "L TYPE PATH"
# the lines file, the per-line view, for the Prometheus file, "V TYPE tasks|
# cgroups PATH" a per-task or per-cgroup view, for it too); the operands
# before it set root, statef, newstatef, rowsf (the rows of the last read,
# mon_rows_file), series, grepsh (a scratch file), promtmp (empty: no
# Prometheus file), host, krel, bootid, inode, now_s, now_iso, types,
# bounds, lhver, cfg_interval, pid, start (1: the start read, which writes
# the start event), stop (the reason of the stop event it writes last;
# empty: none), prev_s (when this monitor last read, or at its start when
# the last record of the series was read: the state's time unless later)
# and fail_prefix (monitor). It reads and checks everything before it writes
# anything: a failed read leaves DIR as it was. It writes newstatef only
# when the state changed (state_changed), and rowsf only when a row may
# have: an idle rig's storage is not written at every interval.
# shellcheck disable=SC2016 # awk code, not shell
LH_MON_AWK='
#lh-include monitor.awk
'

# mon_now - MO_NOW_S (epoch seconds) and MO_NOW_ISO (UTC) from one date
# call, which the signal that stops the monitor must not cut short
mon_now()
{
	MO_NOW=$(trap '' INT TERM; date -u +'%s %Y-%m-%dT%H:%M:%SZ') || die "monitor: date failed"
	MO_NOW_S=${MO_NOW%% *}
	MO_NOW_ISO=${MO_NOW#* }
}

# mon_types SPEC - MO_TYPES: the histograms `--types SPEC` names, in status order:
# a switch name stands for its histograms, as in lh run; without SPEC every
# histogram that status calls available
mon_types()
{
	if [ -n "$1" ]; then
		# shellcheck disable=SC2046 # a word list
		MT_SW=$(to_switches $(echo "$1" | tr ',' ' ')) || exit 2
		MT_H=
		for MT_S in $MT_SW; do
			MT_H="$MT_H $(switch_hists "$MT_S")"
		done
	else
		type_rows 5
		MT_H=$TR_OUT
	fi
	MT_OUT=
	for MT_T in $LH_HISTS; do
		word_in "$MT_T" "$MT_H" && [ -d "$LH_ROOT/$MT_T" ] && MT_OUT="$MT_OUT $MT_T"
	done
	MO_TYPES=${MT_OUT# }
}

# mon_list - write the list of files a read takes (CPUx or rows, max
# records of MO_TYPES, and with --prom their per-line views) to MO_LIST, in
# the form LH_MON_AWK reads; the CPUx files name the CPUs either way
mon_list()
{
	for ML_T in $MO_TYPES; do
		for ML_F in "$LH_ROOT/$ML_T"/CPU[0-9]*; do
			[ -e "$ML_F" ] && printf 'C %s %s %s\n' "$ML_T" "${ML_F##*/CPU}" "$ML_F"
		done
		for ML_F in "$LH_ROOT/$ML_T"/max_latency-CPU[0-9]*; do
			[ -e "$ML_F" ] && printf 'M %s %s %s\n' "$ML_T" "${ML_F##*/max_latency-CPU}" "$ML_F"
		done
		if [ -e "$LH_ROOT/$ML_T/rows" ]; then
			printf 'R %s %s\n' "$ML_T" "$LH_ROOT/$ML_T/rows"
		fi
		if [ -n "$MO_PROM" ] && [ -e "$LH_ROOT/$ML_T/lines" ]; then
			printf 'L %s %s\n' "$ML_T" "$LH_ROOT/$ML_T/lines"
		fi
		# (the per-task and per-cgroup views: their --top series)
		if [ -n "$MO_PROM" ] && [ "$LH_PROM_TOP" -gt 0 ]; then
			for ML_F in "$LH_ROOT/$ML_T/tasks" "$LH_ROOT/$ML_T/cgroups"; do
				[ ! -e "$ML_F" ] || printf 'V %s %s %s\n' "$ML_T" "${ML_F##*/}" "$ML_F"
			done
		fi
	done >"$MO_LIST" || die "monitor: cannot write $MO_LIST"
}

# mon_lock - make this process the lh monitor of MO_DIR (MO_DIR/monitor.pid);
# dies if a live one holds it, takes over from one that died
mon_lock()
{
	MO_PIDF=$MO_DIR/monitor.pid
	ML_TRIES=0
	while [ "$ML_TRIES" -lt 2 ]; do
		ML_TRIES=$((ML_TRIES + 1))
		# (noclobber in this shell, not a subshell: a fork less)
		set -C
		ML_RC=1
		if { echo $$ >"$MO_PIDF"; } 2>/dev/null; then
			ML_RC=0
		fi
		set +C
		if [ "$ML_RC" = 0 ]; then
			MO_LOCKED=1
			return 0
		fi
		ML_PID=
		read -r ML_PID <"$MO_PIDF" 2>/dev/null
		if [ -n "$ML_PID" ] && [ "$ML_PID" != $$ ] && kill -0 "$ML_PID" 2>/dev/null &&
		   { [ ! -r "/proc/$ML_PID/cmdline" ] ||
		     tr '\0' ' ' <"/proc/$ML_PID/cmdline" | grep -q ' monitor '; }; then
			die "monitor: $MO_DIR is written by lh monitor pid $ML_PID; stop it first"
		fi
		rm -f "$MO_PIDF"
	done
	die "monitor: cannot create $MO_PIDF"
}

# mon_cleanup - EXIT trap: stop the sleep, remove the temporary files and the
# pid file
mon_cleanup()
{
	[ -z "$MO_SLEEP" ] || kill "$MO_SLEEP" 2>/dev/null
	MC_OURS=
	if [ -n "$MO_LOCKED" ]; then
		ML_PID=
		read -r ML_PID <"$MO_PIDF" 2>/dev/null
		[ "$ML_PID" != $$ ] || MC_OURS=$MO_PIDF
	fi
	# (one rm for all: each is a fork)
	rm -f "$MO_LIST" "$MO_DIR/monitor.err" "$MO_DIR/monitor.grep" "$MO_STATE.tmp" ${MO_PROMTMP:+"$MO_PROMTMP" "$MO_PROMTMP.outliers"} \
		${MC_OURS:+"$MC_OURS"}
}

# mon_event NAME [REASON] - append an event line to the series
mon_event()
{
	mon_now
	mon_series_end
	# shellcheck disable=SC2016 # awk code
	awk "$LH_AWK_BASE"'BEGIN {
		line = "{\"time\": " jstr(ARGV[1]) ", \"time_epoch_s\": " ARGV[2] ", \"event\": " jstr(ARGV[3])
		if (ARGC > 5) line = line ", \"reason\": " jstr(ARGV[5])
		print line "}" >> ARGV[4]
		exit
	}' "$MO_NOW_ISO" "$MO_NOW_S" "$1" "$MO_SERIES" ${2+"$2"} || die "monitor: cannot write $MO_SERIES"
}

# mon_series_end - make the series end in a newline before lh appends to
# it: a record cut short (a full disk, a crash) stays on its line, which the
# series reader skips with a warning, and the next record starts a line
mon_series_end()
{
	[ -s "$MO_SERIES" ] && [ -n "$(tail -c 1 "$MO_SERIES")" ] || return 0
	warn "monitor: $MO_SERIES ends in a record cut short (a full disk?); the next record starts a new line"
	echo >>"$MO_SERIES" || die "monitor: cannot write $MO_SERIES"
}

# mon_last_record - MO_LAST_S: the time of the last record of the series
# (empty if none is near its end): the read the next record continues from,
# which is later than the state's time when the reads since the state was
# written changed nothing
mon_last_record()
{
	MO_LAST_S=
	# (a series no newer than the state ends in records of the state's read
	# or before: then the state's time is the later one. -nt is not POSIX,
	# but dash, bash and busybox have it; a shell without it, status 2,
	# reads the tail.)
	# shellcheck disable=SC3013
	[ "$MO_SERIES" -nt "$MO_STATE" ] 2>/dev/null
	[ "$?" != 1 ] || return 0
	# shellcheck disable=SC2016 # sed code
	MO_LAST_S=$(tail -n 20 "$MO_SERIES" 2>/dev/null |
		sed -n '/^{"time": "[^"]*", "time_epoch_s": \([0-9]*\), "interval_s": .*/{s//\1/;h;};${x;p;}')
}

# mon_rotate - close the live piece of the series when --rotate says so (a
# new UTC day since its first record, or MO_ROTATE bytes reached): rename it
# series-STAMP.jsonl (STAMP: now, UTC, which sorts as time does), gzip it,
# then drop the pieces --keep does not keep
mon_rotate()
{
	[ -n "$MO_ROTATE" ] && [ -s "$MO_SERIES" ] || return 0
	if [ "$MO_ROTATE" = daily ]; then
		MR_DAY=$(sed -n '1{s/^{"time": "\([0-9-]*\)T.*/\1/p;q;}' "$MO_SERIES")
		[ "$MR_DAY" != "${MO_NOW_ISO%%T*}" ] || return 0
	else
		MR_SIZE=$(wc -c <"$MO_SERIES")
		[ "$MR_SIZE" -ge "$MO_ROTATE" ] || return 0
	fi
	MR_PIECE=$MO_DIR/series-$(echo "$MO_NOW_ISO" | tr -d ':-').jsonl
	# (a second rotation within a second waits for the next read)
	[ ! -e "$MR_PIECE" ] && [ ! -e "$MR_PIECE.gz" ] || return 0
	mv "$MO_SERIES" "$MR_PIECE" || { warn "monitor: cannot rename $MO_SERIES to $MR_PIECE"; return 0; }
	gzip "$MR_PIECE" 2>/dev/null || warn "monitor: gzip $MR_PIECE failed; it stays uncompressed"
	mon_retain
}

# mon_retain - remove the closed pieces of the series beyond --keep: the
# oldest beyond MO_KEEP_N of them, or those closed MO_KEEP_DAYS days ago
# or more (by their time of modification, which gzip keeps)
mon_retain()
{
	if [ -n "$MO_KEEP_DAYS" ]; then
		find "$MO_DIR" -maxdepth 1 -name 'series-*.jsonl*' -mtime +$((MO_KEEP_DAYS - 1)) -exec rm -f {} + ||
			warn "monitor: cannot remove the pieces of $MO_DIR older than $MO_KEEP_DAYS days"
	fi
	[ -n "$MO_KEEP_N" ] || return 0
	MK_N=$(series_pieces "$MO_DIR" | grep -c '/series-') || true
	series_pieces "$MO_DIR" | grep '/series-' | head -n $((MK_N > MO_KEEP_N ? MK_N - MO_KEEP_N : 0)) |
		while IFS= read -r MK_F; do
			rm -f "$MK_F" || warn "monitor: cannot remove $MK_F"
		done
}

# rotate_arg VALUE - MO_ROTATE from --rotate VALUE: daily, or bytes (a
# number, with k, M or G for 2^10, 2^20, 2^30)
rotate_arg()
{
	MO_ROTATE=daily
	[ "$1" != daily ] || return 0
	case $1 in
	*k) RA_N=${1%k}; RA_MUL=1024 ;;
	*M) RA_N=${1%M}; RA_MUL=1048576 ;;
	*G) RA_N=${1%G}; RA_MUL=1073741824 ;;
	*) RA_N=$1; RA_MUL=1 ;;
	esac
	uint_arg monitor --rotate "$RA_N" 1 999999999 "daily or a size (bytes, or k, M, G)"
	MO_ROTATE=$((RA_N * RA_MUL))
}

# keep_arg VALUE - MO_KEEP_N or MO_KEEP_DAYS from --keep VALUE: a number of
# closed pieces, or of days with a d
keep_arg()
{
	case $1 in
	*d) uint_arg monitor --keep "${1%d}" 1 99999 "a number of pieces, or of days (7d)"; MO_KEEP_DAYS=${1%d} ;;
	*) uint_arg monitor --keep "$1" 1 99999 "a number of pieces, or of days (7d)"; MO_KEEP_N=$1 ;;
	esac
}

# mon_identity - MO_BOOT (boot id), MO_INODE (inode number of the tree's
# directory, new at every module load) and MO_ID (both and the tree)
mon_identity()
{
	MO_BOOT=-
	[ -r /proc/sys/kernel/random/boot_id ] && read -r MO_BOOT </proc/sys/kernel/random/boot_id
	MO_INODE=$(ls -di "$LH_ROOT" 2>/dev/null)
	MO_INODE=${MO_INODE#"${MO_INODE%%[! ]*}"}
	MO_INODE=${MO_INODE%% *}
	MO_INODE=${MO_INODE:--}
	MO_ID="$MO_BOOT $MO_INODE $LH_ROOT"
}

# mon_checked_id - MO_CHECKED_ID: the identity of the load the state in
# MO_STATE was read from (empty without a state); its format was checked.
# MO_STATE_ROWS: the rows file it names (empty if none)
mon_checked_id()
{
	MO_CHECKED_ID=
	MO_STATE_ROWS=
	[ -r "$MO_STATE" ] || return 0
	MC_BOOT=''
	MC_INODE=''
	MC_ROOT=''
	while IFS= read -r MC_L; do
		case $MC_L in
		"boot "*) MC_BOOT=${MC_L#boot } ;;
		"inode "*) MC_INODE=${MC_L#inode } ;;
		"root "*) MC_ROOT=${MC_L#root } ;;
		"rows "*) MO_STATE_ROWS=${MC_L#rows }; MO_STATE_ROWS=${MO_STATE_ROWS% *} ;;
		[TMC]" "*) break ;;
		esac
	done <"$MO_STATE"
	[ -z "$MC_BOOT" ] || MO_CHECKED_ID="$MC_BOOT $MC_INODE $MC_ROOT"
}

# mon_rows_file - MO_ROWS: the file that keeps the rows of the last read.
# It lives in LH_MONITOR_RUNDIR (default /dev/shm), in RAM: the rows are
# rewritten at every read that changed one (hundreds of KB on 64 CPUs),
# which would wear a board's eMMC or SD card, and only a read of the same
# load needs them (after a reboot every sample is new). The state names
# it: a restart takes the same file. Without a writable run directory it
# is DIR/monitor.rows.
mon_rows_file()
{
	MR_RUN=${LH_MONITOR_RUNDIR:-/dev/shm}
	MO_ROWS=$MO_DIR/monitor.rows
	# (a file the state names is taken only where lh makes them: the
	# state is not trusted to name a file lh then overwrites)
	case $MO_STATE_ROWS in
	"$MR_RUN"/lh-monitor.* | "$MO_ROWS")
		[ ! -e "$MO_STATE_ROWS" ] || { MO_ROWS=$MO_STATE_ROWS; return 0; }
		;;
	esac
	[ -d "$MR_RUN" ] && [ -w "$MR_RUN" ] || return 0
	MO_ROWS=$(mktemp "$MR_RUN/lh-monitor.XXXXXX") || die "monitor: cannot create a file in $MR_RUN (LH_MONITOR_RUNDIR)"
}

# mon_check - the format checks every reading command makes, over every
# file of the monitored histograms (hist_files), which a read makes only of the
# headers and non-zero rows: once per module load
mon_check()
{
	# shellcheck disable=SC2086 # a word list
	MC_FILES=$(printf '%s\n' "$LH_ROOT/status"; hist_files $MO_TYPES) || return 2
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(trap '' INT TERM; IFS=$LH_NL; set -f; lh_awk 'function END_OUTPUT() { }' $MC_FILES)
}

# mon_outliers - append the outlier records read for the first time to
# the series, each once, and with --prom their counters to
# MO_PROMTMP.outliers (which mon_read adds to the Prometheus file). DIR/outliers.state keeps per type and CPU the last seq read, the
# log's reset mark (next_seq - 1 - filed, which a reset moves), its dropped
# count then, and the totals: dropped and records read per cause, summed
# over resets. A log whose first record is after the last seq read has
# lost records to a full log: an "outliers_missed" event says how many. A
# next_seq below the last read is a new load: its numbers start again.
# Returns 1 (the state and the series as they were) if a log is malformed.
mon_outliers()
{
	type_rows 8
	MU_T=
	for MU_X in $MO_TYPES; do
		word_in "$MU_X" "$TR_OUT" && MU_T="$MU_T $MU_X"
	done
	[ -n "$MU_T" ] || return 0
	# shellcheck disable=SC2086 # a word list
	MU_FILES=$(outlier_files $MU_T) || return 1
	[ -n "$MU_FILES" ] || return 0
	[ -e "$MO_DIR/outliers.state" ] || : >"$MO_DIR/outliers.state" || return 1
	# shellcheck disable=SC2016,SC2086 # awk code; one file a line
	(trap '' INT TERM; IFS=$LH_NL; set -f; awk -v statef="$MO_DIR/outliers.state" "$LH_AWK_LIB$LH_AWK_OUTLIER"'
BEGIN {
	nc = split("hardirq softirq nmi thread other unexplained", causes, " ")
	rd_file = statef
	while ((r = (getline line < statef)) > 0) {
		n = split(line, f, " ")
		if (n != 6 + nc) fail(statef ": a line that is not \"TYPE CPU LAST_SEQ MARK DROPPED DROPPED_TOTAL <6 causes>\"")
		key = f[1] SUBSEP f[2]
		keys[++nk] = key; known[key] = 1
		last[key] = f[3]; mark[key] = f[4]; ldrop[key] = f[5]; drop[key] = f[6]
		for (j = 1; j <= nc; j++) cnt[key, causes[j]] = f[6 + j]
	}
	close(statef)
	if (r < 0) fail(statef ": cannot read it")
}
FNR == 1 { outlier_file(root) }
{ rd_ln = FNR; outlier_line() }
END {
	if (lh_failed) exit 2
	outlier_end()
	jnow = "\"" now_iso "\""
	for (k = 1; k <= ol_nlogs; k++) {
		key = ol_order[k]
		if (oh_budget[key] == 0 && oh_next[key] == 0) continue
		split(key, tc, SUBSEP)
		# (a log seen first: what it dropped before is not missed)
		if (!(key in known)) {
			keys[++nk] = key; known[key] = 1; mark[key] = -1; ldrop[key] = 0; drop[key] = 0
			last[key] = oh_first[key] > 0 ? oh_first[key] - 1 : 0
		}
		if (oh_next[key] - 1 < last[key]) { last[key] = 0; mark[key] = -1 }
		m = oh_next[key] - 1 - oh_filed[key]
		drop[key] += m == mark[key] ? oh_dropped[key] - ldrop[key] : oh_dropped[key]
		mark[key] = m; ldrop[key] = oh_dropped[key]
		if (oh_kept[key] > 0 && oh_first[key] > last[key] + 1) {
			printf "{\"time\": %s, \"time_epoch_s\": %s, \"event\": \"outliers_missed\", \"type\": %s, \"cpu\": \"%s\", \"after_seq\": %s, \"first_seq\": %s, \"missed\": %s}\n",
			    jnow, now_s, jstr(tc[1]), tc[2], last[key], oh_first[key], oh_first[key] - last[key] - 1 >> series
			printf "lh: monitor: %s CPU%s: %s outlier records after seq %s were dropped before lh read them\n",
			    tc[1], tc[2], oh_first[key] - last[key] - 1, last[key] > "/dev/stderr"
		}
	}
	for (i = 1; i <= o_n; i++) {
		key = o_key[i]
		if (o_f[i, "seq"] + 0 <= last[key]) continue
		printf "{\"time\": %s, \"time_epoch_s\": %s, \"event\": \"outlier\", \"outlier\": %s}\n", jnow, now_s, outlier_json(i) >> series
		cnt[key, o_f[i, "cause"]]++
		got[key] = o_f[i, "seq"] + 0
	}
	close(series)
	for (k = 1; k <= nk; k++) {
		key = keys[k]
		if (key in got) last[key] = got[key]
		split(key, tc, SUBSEP)
		line = tc[1] " " tc[2] " " last[key] " " mark[key] " " ldrop[key] " " drop[key]
		for (j = 1; j <= nc; j++) line = line " " (cnt[key, causes[j]] + 0)
		print line > newstatef
	}
	close(newstatef)
	if (promtmp != "") { outlier_prom(promtmp, nk, keys, cnt, drop); close(promtmp) }
}' root="$LH_ROOT" newstatef="$MO_DIR/outliers.state.tmp" series="$MO_SERIES" \
		promtmp="${MO_PROMTMP:+$MO_PROMTMP.outliers}" host_label="${LH_PROM_HOST:+$MO_HOST}" now_s="$MO_NOW_S" now_iso="$MO_NOW_ISO" \
		fail_prefix=monitor $MU_FILES &&
		mv -f "$MO_DIR/outliers.state.tmp" "$MO_DIR/outliers.state")
}

# mon_read START [STOP] - one read: the interval's records into the series,
# the new state, the Prometheus file (START=1: the start read, with the start
# event; STOP: the reason of a stop event after the records).
# Returns 1 with the reason in MO_ERR if the tree cannot be read; then the
# series and the state are as they were, and the next read covers both
# intervals.
mon_read()
{
	mon_now
	# (the start read takes the identity cmd_monitor has just taken)
	[ "$1" = 1 ] || mon_identity
	# A new load is checked in full first (unless the tree is gone: then
	# the read says so).
	if [ "$MO_ID" != "$MO_CHECKED_ID" ] && [ "$MO_INODE" != - ]; then
		if ! mon_check 2>"$MO_DIR/monitor.err"; then
			MO_ERR=$(sed -n '1{s/^lh: error: //;p;}' "$MO_DIR/monitor.err")
			MO_ERR=${MO_ERR:-the format check of $LH_ROOT failed}
			return 1
		fi
		MO_CHECKED_ID=$MO_ID
	fi
	mon_rotate
	mon_series_end
	# (a test, not an rm every read: each rm is a fork)
	[ ! -e "$MO_STATE.tmp" ] || rm -f "$MO_STATE.tmp"
	# (the outlier records before the interval's: a stop event stays last)
	[ -z "$MO_PROMTMP" ] || rm -f "$MO_PROMTMP.outliers"
	mon_outliers || warn "monitor: the outlier logs could not be read (above); the next read takes their records"
	# shellcheck disable=SC2016 # awk code
	if (trap '' INT TERM
	    awk "$LH_AWK_LIB$LH_MON_AWK" root="$LH_ROOT" statef="$MO_STATE" newstatef="$MO_STATE.tmp" prev_s="$MO_LAST_S" \
		rowsf="$MO_ROWS" \
		series="$MO_SERIES" grepsh="$MO_DIR/monitor.grep" promtmp="$MO_PROMTMP" top="$LH_PROM_TOP" host="$MO_HOST" host_label="${LH_PROM_HOST:+$MO_HOST}" \
		krel="$MO_KREL" bootid="$MO_BOOT" inode="$MO_INODE" now_s="$MO_NOW_S" now_iso="$MO_NOW_ISO" types="$MO_TYPES" \
		bounds="$LH_PROM_BOUNDS" lhver="$LH_VERSION" cfg_interval="$MO_INTERVAL" pid=$$ start="$1" stop="${2-}" \
		state_header="$LH_MON_STATE_HEADER" fail_prefix=monitor "$MO_LIST") 2>"$MO_DIR/monitor.err"; then
		if [ -e "$MO_STATE.tmp" ]; then
			mv -f "$MO_STATE.tmp" "$MO_STATE" || die "monitor: cannot write $MO_STATE"
		fi
		MO_LAST_S=$MO_NOW_S
		if [ -e "$MO_PROMTMP.outliers" ]; then
			cat "$MO_PROMTMP.outliers" >>"$MO_PROMTMP"
			rm -f "$MO_PROMTMP.outliers"
		fi
		if [ -n "$MO_PROM" ] && ! mv -f "$MO_PROMTMP" "$MO_PROM"; then
			warn "monitor: cannot write $MO_PROM"
		fi
		MO_ERR=
		MO_LAST_ERR=
		return 0
	fi
	rm -f "$MO_STATE.tmp" ${MO_PROMTMP:+"$MO_PROMTMP" "$MO_PROMTMP.outliers"}
	MO_ERR=$(sed -n '1s/^lh: monitor: //p' "$MO_DIR/monitor.err")
	MO_ERR=${MO_ERR:-the read failed}
	return 1
}

# mon_read_failed - after a failed read: say why once, in the series and on
# stderr, until a read succeeds again
mon_read_failed()
{
	[ "$MO_ERR" != "$MO_LAST_ERR" ] || return 0
	MO_LAST_ERR=$MO_ERR
	warn "monitor: $MO_ERR"
	mon_event error "$MO_ERR"
}

# mon_uptime - MO_UP_CS: the time since boot in centiseconds (/proc/uptime,
# CLOCK_BOOTTIME), which setting the clock does not move: the intervals are
# scheduled on it, the records are stamped with the wall clock
mon_uptime()
{
	MU_UP=
	read -r MU_UP _ </proc/uptime 2>/dev/null
	case $MU_UP in
	*[0-9].[0-9][0-9]) MO_UP_CS=$((${MU_UP%.*}00 + 1${MU_UP#*.} - 100)) ;;
	*) die "monitor: cannot read /proc/uptime" ;;
	esac
}

# mon_sleep_until UPTIME_CS - sleep until then, or until SIGINT or SIGTERM
# (to the hundredth of a second where sleep takes fractions)
mon_sleep_until()
{
	while [ -z "$MO_STOP" ]; do
		mon_uptime
		MS_CS=$(($1 - MO_UP_CS))
		[ "$MS_CS" -gt 0 ] || return 0
		if [ -n "$MO_FRACTIONS" ]; then
			MS_F=$((MS_CS % 100 + 100))
			sleep "$((MS_CS / 100)).${MS_F#1}" &
		else
			sleep $(((MS_CS + 99) / 100)) &
		fi
		MO_SLEEP=$!
		[ -n "$MO_STOP" ] || wait "$MO_SLEEP"
		kill "$MO_SLEEP" 2>/dev/null
		MO_SLEEP=
	done
}

# help_monitor - the usage of lh monitor
help_monitor()
{
	cat <<'EOF'
cmd - -i DURATION [-d DURATION|--count N] --out DIR [OPTION..]
about every interval, what each histogram gained,
about into DIR/series.jsonl (never resets; restartable)
opt -i --interval DURATION duration read every DURATION (60, 30s, 5m, 1h)
opt -d --duration DURATION duration stop after DURATION (10m, 2h, 7d)
opt - --count N number stop after N intervals
opt - --out DIR dir the series directory
opt - --prom FILE file also rewrite FILE.prom every interval
opt - --buckets US,.. text the le bounds of --prom, in us
opt - --host-label - flag a host label in --prom
opt - --top N number tasks and cgroups per type in --prom (10)
opt - --types T,.. types these types only (default: every enabled one)
opt - --rotate daily|SIZE text start a new piece daily or at SIZE (64M)
opt - --keep N|Nd text keep N closed pieces, or those of N days
exits 0 2 3
EOF
}

# cmd_monitor - read the tree every interval and append what each histogram
# gained to DIR/series.jsonl, optionally rewriting a Prometheus textfile;
# never resets a histogram (Documentation/lh.rst, "lh monitor")
cmd_monitor()
{
	MO_INTERVAL=
	MO_COUNT=
	MO_DURATION=
	MO_DIR=
	MO_PROM=
	MO_TSPEC=
	MO_ROTATE=
	MO_KEEP_N=
	MO_KEEP_DAYS=
	MO_TOP=
	while [ $# -gt 0 ]; do
		case $1 in
		-i | -i?* | --interval | --interval=*)
			opt_arg monitor "a duration" "$@"; shift "$OPT_SHIFT"
			duration_arg monitor --interval "$OPT_VAL" 1 9999999 ms; MO_INTERVAL=$DA_S ;;
		-d | -d?* | --duration | --duration=*)
			opt_arg monitor "a duration" "$@"; shift "$OPT_SHIFT"
			duration_arg monitor --duration "$OPT_VAL" 1 999999999 ms; MO_DURATION=$DA_S ;;
		--count | --count=*) opt_arg monitor "a number" "$@"; MO_COUNT=$OPT_VAL; shift "$OPT_SHIFT" ;;
		--out | --out=*) opt_arg monitor "a directory" "$@"; MO_DIR=$OPT_VAL; shift "$OPT_SHIFT" ;;
		--prom | --prom=*) opt_arg monitor "a file" "$@"; MO_PROM=$OPT_VAL; shift "$OPT_SHIFT" ;;
		--types | --types=*) opt_arg monitor "a list" "$@"; MO_TSPEC=$OPT_VAL; shift "$OPT_SHIFT" ;;
		--top | --top=*) opt_arg monitor "a number" "$@"; top_arg monitor "$OPT_VAL"; MO_TOP=1; shift "$OPT_SHIFT" ;;
		--rotate | --rotate=*) opt_arg monitor "daily or a size" "$@"; rotate_arg "$OPT_VAL"; shift "$OPT_SHIFT" ;;
		--keep | --keep=*) opt_arg monitor "a number of pieces or days" "$@"; keep_arg "$OPT_VAL"; shift "$OPT_SHIFT" ;;
		*)
			prom_opt monitor "$@"
			[ "$OPT_SHIFT" -gt 0 ] || die "monitor: unknown argument '$1' (lh monitor --help)"
			shift "$OPT_SHIFT"
			;;
		esac
	done
	if [ -z "$MO_INTERVAL" ] || [ -z "$MO_DIR" ]; then
		die "usage: lh monitor --interval S --out DIR [OPTION..] (lh monitor --help)"
	fi
	[ -n "$MO_PROM" ] || [ -z "$PO_OPT" ] || die "monitor: $PO_OPT shapes the --prom file, and there is no --prom"
	[ -n "$MO_PROM" ] || [ -z "$MO_TOP" ] || die "monitor: --top shapes the --prom file, and there is no --prom"
	[ -n "$MO_ROTATE" ] || [ -z "$MO_KEEP_N$MO_KEEP_DAYS" ] || die "monitor: --keep keeps pieces that --rotate closes, and there is no --rotate"
	[ -z "$MO_COUNT" ] || uint_arg monitor --count "$MO_COUNT" 0 999999999 "a number of intervals"
	if [ -n "$MO_DURATION" ]; then
		[ -z "$MO_COUNT" ] || die "monitor: --duration and --count both say when to stop: give one"
		# (the intervals that cover it: 1h every 7m is 9 intervals, 63 minutes)
		MO_COUNT=$(((MO_DURATION + MO_INTERVAL - 1) / MO_INTERVAL))
	fi
	MO_PROMTMP=
	if [ -n "$MO_PROM" ]; then
		case $MO_PROM in
		*.prom) ;;
		*) die "monitor: --prom '$MO_PROM' must end in .prom (node_exporter's textfile collector reads only those)" ;;
		esac
		[ -d "$(dirname "$MO_PROM")" ] || die "monitor: directory $(dirname "$MO_PROM") does not exist"
		MO_PROMTMP=$MO_PROM.$$.tmp
	fi
	[ ! -e "$MO_DIR" ] || [ -d "$MO_DIR" ] || die "monitor: $MO_DIR exists and is not a directory"
	need_tree
	mon_types "$MO_TSPEC"
	[ -n "$MO_TYPES" ] || die "monitor: nothing to monitor here (lh status says what this kernel can measure)"
	MO_SERIES=$MO_DIR/series.jsonl
	MO_STATE=$MO_DIR/monitor.state
	mon_identity
	mon_checked_id
	if [ "$MO_ID" != "$MO_CHECKED_ID" ]; then
		mon_check || exit 2
		MO_CHECKED_ID=$MO_ID
	fi
	[ -d "$MO_DIR" ] || mkdir -p "$MO_DIR" || die "monitor: cannot create $MO_DIR"
	[ -w "$MO_DIR" ] || die "monitor: cannot write to $MO_DIR"
	mon_rows_file
	MO_LIST=$MO_DIR/monitor.files
	MO_LOCKED=
	MO_SLEEP=
	MO_STOP=
	MO_LAST_ERR=
	mon_last_record
	trap mon_cleanup EXIT
	trap 'MO_STOP=SIGINT' INT
	trap 'MO_STOP=SIGTERM' TERM
	mon_lock
	sys_names
	MO_HOST=$SN_HOST
	MO_KREL=$SN_KREL
	mon_list
	mon_uptime
	MO_NEXT=$((MO_UP_CS + MO_INTERVAL * 100))
	if [ "$MO_COUNT" = 0 ]; then
		# (the start read is the last: it writes the stop event too)
		mon_read 1 "after 0 intervals (--count)" || die "monitor: $MO_ERR"
		return 0
	fi
	mon_read 1 || die "monitor: $MO_ERR"
	echo "lh: monitor: $MO_TYPES every $MO_INTERVAL s into $MO_SERIES" >&2
	MO_FRACTIONS=
	sleep 0.01 2>/dev/null && MO_FRACTIONS=1
	MO_DONE=0
	while [ -z "$MO_STOP" ] && { [ -z "$MO_COUNT" ] || [ "$MO_DONE" -lt "$MO_COUNT" ]; }; do
		mon_sleep_until "$MO_NEXT"
		mon_read 0 || mon_read_failed
		MO_DONE=$((MO_DONE + 1))
		mon_uptime
		while [ "$MO_NEXT" -le "$MO_UP_CS" ]; do
			MO_NEXT=$((MO_NEXT + MO_INTERVAL * 100))
		done
	done
	mon_event stop "${MO_STOP:-after $MO_DONE intervals (--count)}"
}

