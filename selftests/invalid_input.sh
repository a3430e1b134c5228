#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2317 # optional lh_load_or_bail args; checks called via $3
#
# invalid_input.sh - every malformed write is refused with EINVAL, changing nothing
#
# Proves, for every writable file (enable/*, */pid, */reset, */threshold): each invalid
# input of Documentation/latency_hist.rst ("Controls") fails with exactly
# EINVAL, and the file's value (for reset: the histogram's data) is unchanged
# afterwards. The inputs: "abc",
# "\n", "-1", "+1", " 1", "1x", "1 2", "1\n\n", "1\t", "1\0", "0x10", an
# empty write, "18446744073709551616", 64 and 100 bytes of digits, a
# 64-byte "0..01\n", a write at file offset 1, for pid files also
# "4194305" and "4294967296", for threshold files "2147483648". Also proves the boundary: 63-byte writes are
# accepted. The values start where a lax parser would change them (enable
# 0 and 1, pid 7, histograms holding samples when the machine produced any).
#
# requires: lh_write

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

# zeros N - print N '0' characters
zeros()
{
	awk -v n="$1" 'BEGIN { while (n-- > 0) printf "0" }'
}

# gen_bad_inputs - print "options|data" lines, one invalid write each
gen_bad_inputs()
{
	cat <<'EOT'
|abc
-e|\n
|-1
|+1
| 1
|1x
|1 2
-e|1\n\n
-e|1\t
-e|1\0
|0x10
|
|18446744073709551616
-o1|1
EOT
	echo "|$(zeros 63)1"
	printf '%s\n' "-e|$(zeros 62)1\\n"
	echo "|$(zeros 99)1"
}

# try_bad_inputs FILE LIST CHECK - write each input of LIST to FILE, expect
# EINVAL, then run CHECK (a function) to prove nothing changed
try_bad_inputs()
{
	while IFS= read -r line; do
		opts=${line%%|*}
		data=${line#*|}
		if [ "$opts" = -o1 ]; then
			lh_write "$1" "$data" -o1
			case $LH_RESULT in
			EINVAL) ;;
			lseek:*) lh_diag "$(lh_name "$1"): offset 1 unreachable ($LH_RESULT)" ;;
			*) lh_err "$(lh_name "$1"): write '$data' at offset 1: $LH_RESULT, expected EINVAL" ;;
			esac
		else
			# shellcheck disable=SC2086 # $opts is zero or one option word
			lh_expect_write_errno "$1" "$data" EINVAL $opts
		fi
		$3 "$1" "'$data'${opts:+ ($opts)}"
	done <"$2"
}

# same_value FILE WHAT - lh_err unless FILE still reads $want
same_value()
{
	lh_content_is "$1" "$want" ||
		lh_err "$(lh_name "$1"): reads '$(lh_show "$1")' after rejected write $2, expected '$want'"
}

# hist_heads HIST - print the sample counts and max records of HIST (builtins)
hist_heads()
{
	for c in $LH_CPUS; do
		hl_file_total "$LH_DIR/$1/CPU$c"
		if [ -e "$LH_DIR/$1/max_latency-CPU$c" ]; then
			lh_value "$LH_DIR/$1/max_latency-CPU$c"
			printf '%s\n' "$LH_VALUE"
		fi
	done
}

# same_hist RESETFILE WHAT - lh_err unless the histogram kept its samples
same_hist()
{
	[ "$(hist_heads "$hist")" = "$heads_before" ] ||
		lh_err "$hist: data changed by rejected reset write $2"
}

lh_setup
lh_load_or_bail
E=$LH_DIR/enable
# Switches on their own, and those that need others (status needs=).
INDEP=
DEP=
for e in $LH_ENABLES; do
	if [ -z "$(lh_switch_needs "$e")" ]; then
		INDEP="$INDEP $e"
	else
		DEP="$DEP $e"
	fi
done
# shellcheck disable=SC2086 # word lists
lh_plan $(($(lh_count $INDEP) + 1 + $(lh_count $DEP) + 1 + $(lh_count $LH_PID_DIRS) +
	   $(lh_count $LH_HISTS) + 2))

gen_bad_inputs >"$LH_TMP/bad"
cp "$LH_TMP/bad" "$LH_TMP/bad.pid"
printf '|4194305\n|4294967296\n' >>"$LH_TMP/bad.pid"

# Give the reset files something to lose.
lh_enable_available
lh_activity
lh_disable_all
lh_diag "samples recorded: $(hl_samples_sum)"

for e in $INDEP; do
	lh_case_begin
	want=0
	try_bad_inputs "$E/$e" "$LH_TMP/bad" same_value
	[ "$(lh_status_field "$e" enabled)" = 0 ] ||
		lh_err "status $e: enabled after rejected writes"
	lh_case_end "enable_${e}_rejects_invalid_writes_while_off"
done

lh_case_begin
lh_expect_write_ok "$E/wakeup" 1
want=1
try_bad_inputs "$E/wakeup" "$LH_TMP/bad" same_value
lh_expect_write_ok "$E/wakeup" 0
lh_case_end enable_wakeup_rejects_invalid_writes_while_on

# A switch that needs others, with them on: still 0 after each bad write.
for e in $DEP; do
	lh_case_begin
	lh_enable_needs "$e"
	want=0
	try_bad_inputs "$E/$e" "$LH_TMP/bad" same_value
	lh_disable_all
	lh_case_end "enable_${e}_rejects_invalid_writes"
done

lh_case_begin
cp "$LH_TMP/bad" "$LH_TMP/bad.threshold"
printf '|2147483648\n' >>"$LH_TMP/bad.threshold"
for hist in $LH_HISTS; do
	lh_expect_write_ok "$LH_DIR/$hist/threshold" 500
	want=500
	try_bad_inputs "$LH_DIR/$hist/threshold" "$LH_TMP/bad.threshold" same_value
	lh_expect_write_ok "$LH_DIR/$hist/threshold" 0
	lh_expect_content "$LH_DIR/$hist/threshold" 0
done
lh_case_end threshold_files_reject_invalid_writes

for d in $LH_PID_DIRS; do
	lh_case_begin
	lh_expect_write_ok "$LH_DIR/$d/pid" 7
	want=7
	try_bad_inputs "$LH_DIR/$d/pid" "$LH_TMP/bad.pid" same_value
	lh_expect_write_ok "$LH_DIR/$d/pid" 0
	lh_case_end "${d}_pid_rejects_invalid_writes"
done

hl_empty_cpux >"$LH_TMP/empty"
for hist in $LH_HISTS; do
	lh_case_begin
	heads_before=$(hist_heads "$hist")
	for c in $LH_CPUS; do
		cat "$LH_DIR/$hist/CPU$c"
	done >"$LH_TMP/full.before"
	try_bad_inputs "$LH_DIR/$hist/reset" "$LH_TMP/bad" same_hist
	for c in $LH_CPUS; do
		cat "$LH_DIR/$hist/CPU$c"
	done >"$LH_TMP/full.after"
	cmp -s "$LH_TMP/full.before" "$LH_TMP/full.after" ||
		lh_err "$hist: CPU files changed by rejected reset writes"
	# and a valid reset still works afterwards
	lh_expect_write_ok "$LH_DIR/$hist/reset" 1
	for c in $LH_CPUS; do
		lh_same_bytes "$LH_TMP/empty" "$LH_DIR/$hist/CPU$c" ||
			lh_err "$hist/CPU$c: not empty after a valid reset"
	done
	lh_case_end "$(echo "$hist" | tr / _)_reset_rejects_invalid_writes"
done

# The limit is ">= 64 bytes": 63 bytes are still a valid number.
lh_case_begin
lh_expect_write_ok "$E/wakeup" "$(zeros 62)1"
lh_expect_content "$E/wakeup" 1
lh_write "$E/wakeup" "$(zeros 61)0\\n" -e ||
	lh_err "enable/wakeup: 63-byte '0...0\\n' refused: $LH_RESULT"
lh_expect_content "$E/wakeup" 0
lh_expect_write_ok "$LH_DIR/wakeup/pid" "$(zeros 59)1234"
lh_expect_content "$LH_DIR/wakeup/pid" 1234
lh_expect_write_ok "$LH_DIR/wakeup/pid" 0
lh_expect_write_ok "$LH_DIR/wakeup/reset" "$(zeros 62)1"
lh_case_end writes_of_63_bytes_are_accepted

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
