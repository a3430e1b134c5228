#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2046 # optional lh_load_or_bail args; $(summaries) splits into -w options
#
# fuzz_input.sh - a thousand malformed writes to every control change nothing
#
# Proves (Documentation/stress.rst, "Bad input"): every writable debugfs
# file and every module parameter receives LH_FUZZ_WRITES (default 1000)
# writes its grammar rejects, drawn by lh_fuzz from random bytes, huge
# numbers, negatives, signs, blanks, junk after digits, hex and other odd
# forms, embedded NULs, empty writes, 64 bytes and more, writes at an offset
# (debugfs: valid values too) and buffers that run into an unmapped page;
# each fails with EINVAL (EFAULT for the unmapped page) and leaves the
# file's value, or for a reset the histograms' summaries, as it was. The
# histograms hold samples and every switch is off, so a lax parser would
# show. Then every readable file reads the same whole, by pread() at random
# offsets and sizes, and in chunks of 1, 7, 13, 64, 4093 and 4097 bytes.
# LH_FUZZ_SEED (default: the time) makes a run reproducible; it is logged.
#
# requires: lh_fuzz

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

FUZZ=$LH_BINDIR/lh_fuzz
WRITES=${LH_FUZZ_WRITES:-1000}
SEED=${LH_FUZZ_SEED:-$(date +%s)}
U64_MAX=18446744073709551615
PID_MAX=4194304		# PID_MAX_LIMIT on 64-bit
INT_MAX=2147483647
P=$LH_SYSMOD/parameters

lh_setup
lh_plan 4
lh_load_or_bail

# fuzz FILE GRAMMAR [lh_fuzz options] - LH_FUZZ_WRITES writes; errors to lh_err
fuzz()
{
	fz_file=$1
	fz_grammar=$2
	shift 2
	SEED=$((SEED + 1))
	if ! "$FUZZ" -g "$fz_grammar" -n "$WRITES" -s $SEED "$@" "$fz_file" \
		>"$LH_TMP/fuzz" 2>&1; then
		lh_err "$fz_file: a malformed write was accepted, failed otherwise or changed something (seed $SEED)"
	fi
	while IFS= read -r fz_line; do
		lh_diag "${fz_line#\# }"
	done <"$LH_TMP/fuzz"
}

# summaries - -w options naming every summary file
summaries()
{
	for sm_h in $LH_HISTS; do
		printf ' -w %s' "$LH_DIR/$sm_h/summary"
	done
}

# Samples in the histograms, a pid and a threshold that are not the
# defaults, every switch off.
lh_enable_available
lh_activity
lh_disable_all
lh_expect_write_ok "$LH_DIR/wakeup/pid" 7
lh_expect_write_ok "$LH_DIR/wakeup/threshold" 12345
lh_diag "seed $SEED, $WRITES writes per file, $(hl_samples_sum) samples held"

lh_case_begin
for f in "$LH_DIR"/enable/*; do
	fuzz "$f" uint:$U64_MAX -d -w "$f" -w "$LH_DIR/status"
done
for h in $LH_PID_DIRS; do
	fuzz "$LH_DIR/$h/pid" uint:$PID_MAX -d -w "$LH_DIR/$h/pid"
done
for h in $LH_HISTS; do
	fuzz "$LH_DIR/$h/threshold" uint:$INT_MAX -d -w "$LH_DIR/$h/threshold"
	fuzz "$LH_DIR/$h/reset" uint:$U64_MAX -d $(summaries)
done
fuzz "$LH_DIR/counters/enable" uint:1 -d -w "$LH_DIR/counters/enable"
fuzz "$LH_DIR/counters/events" events -l 512 -d -w "$LH_DIR/counters/events"
fuzz "$LH_DIR/explain/enable" uint:1 -d -w "$LH_DIR/explain/enable"
lh_case_end debugfs_controls_refuse_malformed_writes_and_change_nothing

lh_case_begin
names=all
for h in $LH_HISTS; do
	names=$names,$h
done
for f in "$P"/*; do
	case ${f##*/} in
	enable_*)	fuzz "$f" uint:$U64_MAX -w "$f" -w "$LH_DIR/status" ;;
	*_pid)		fuzz "$f" uint:$PID_MAX -w "$f" ;;
	threshold_* | outlier_*) fuzz "$f" uint:$INT_MAX -w "$f" ;;
	reset)		fuzz "$f" "names:$names" $(summaries) ;;
	counters | explain) fuzz "$f" uint:1 -w "$f" ;;
	counter_events)	fuzz "$f" events -l 512 -w "$f" ;;
	task_view_*)	fuzz "$f" uint:65536 -w "$f" ;;
	*)		lh_err "parameter ${f##*/} has no grammar here: add it" ;;
	esac
done
lh_case_end module_parameters_refuse_malformed_writes_and_change_nothing

lh_case_begin
find "$LH_DIR" -type f -perm -0400 | sort >"$LH_TMP/readable"
for f in "$P"/*; do
	echo "$f"
done >>"$LH_TMP/readable"
"$FUZZ" -r -s "$SEED" $(cat "$LH_TMP/readable") >"$LH_TMP/reads" 2>&1 ||
	lh_err "a file read differently at odd offsets or sizes (seed $SEED)"
grep '^#' "$LH_TMP/reads" | while IFS= read -r line; do
	lh_diag "${line#\# }"
done
lh_diag "$(grep -c 'odd reads agree' "$LH_TMP/reads") of $(wc -l <"$LH_TMP/readable") files read the same at odd offsets and sizes"
lh_case_end reads_at_odd_offsets_and_sizes_agree

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
