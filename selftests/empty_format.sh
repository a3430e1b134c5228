#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# empty_format.sh - empty histograms are byte-compatible with PREEMPT_RT
#
# Proves: right after load every CPUx file of every histogram is, byte for
# byte, the empty histogram of Documentation/latency_hist.rst (7 header lines with <undef>,
# then 10240 rows "%6ld\t%16llu\n"), also when read in small pieces; every
# max_latency-CPUx reads "(none)"; the seed document's filter
# grep -v " 0$" leaves only header lines (6: "#Total samples: 0" goes
# too); the seed document's
# reset-all loop, run unchanged inside the tree, empties every histogram
# again after samples were taken; reading a reset file fails.
#
# requires: none

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

# check_all_empty - lh_err for every CPUx / max_latency file not empty
check_all_empty()
{
	for f in $(hl_cpu_files); do
		lh_same_bytes "$LH_TMP/empty" "$f" ||
			lh_err "$(lh_name "$f"): differs from the empty histogram: $(lh_first_diff "$LH_TMP/empty")"
	done
	for f in $(hl_maxlat_files); do
		lh_expect_content "$f" "(none)"
	done
}

lh_setup
lh_plan 7
lh_load_or_bail

hl_empty_cpux >"$LH_TMP/empty"
# "#Total samples: 0" ends in " 0" too, so on an empty histogram the filter
# keeps 6 of the 7 header lines and must drop every one of the 10240 rows.
grep -v " 0$" "$LH_TMP/empty" >"$LH_TMP/header"

lh_case_begin
for f in $(hl_cpu_files); do
	lh_same_bytes "$LH_TMP/empty" "$f" ||
		lh_err "$(lh_name "$f"): $(lh_first_diff "$LH_TMP/empty")"
done
lh_case_end every_cpu_file_is_the_empty_histogram

# seq_file must restart cleanly at any offset: read in 1000-byte pieces
lh_case_begin
cpu=$LH_CPU0
for h in $LH_HISTS; do
	f=$LH_DIR/$h/CPU$cpu
	dd if="$f" of="$LH_TMP/pieces" bs=1000 2>/dev/null ||
		lh_err "$(lh_name "$f"): dd failed"
	cmp -s "$LH_TMP/empty" "$LH_TMP/pieces" ||
		lh_err "$(lh_name "$f"): differs when read in 1000-byte pieces"
done
lh_case_end small_reads_give_the_same_bytes

lh_case_begin
for f in $(hl_maxlat_files); do
	lh_expect_content "$f" "(none)"
done
lh_case_end every_max_latency_reads_none

lh_case_begin
for f in $(hl_cpu_files); do
	grep -v " 0$" "$f" >"$LH_TMP/nonzero"
	cmp -s "$LH_TMP/header" "$LH_TMP/nonzero" ||
		lh_err "$(lh_name "$f"): grep -v \" 0\$\" leaves $(wc -l <"$LH_TMP/nonzero") lines, not the $(wc -l <"$LH_TMP/header") header lines"
done
lh_case_end grep_nonzero_leaves_only_header_lines

# The seed document's reset-all recipe, unchanged but for where the tree
# lives (debugfs root since v4.1) and the shell (bash there; plain sh here).
lh_case_begin
lh_enable_available
lh_diag "enabled:$LH_ENABLED"
lh_activity
lh_disable_all
before=$(hl_samples_sum)
lh_diag "samples before the reset loop: $before"
[ "$before" -gt 0 ] ||
	lh_diag "no samples were recorded, so the loop is only shown to run"
# shellcheck disable=SC2006,SC2086,SC2164 # verbatim from the seed document
(
HISTDIR=$LH_DIR

if test -d $HISTDIR
then
  cd $HISTDIR
  for i in `find . | grep /reset$`
  do
    echo 1 >$i
  done
fi
) 2>"$LH_TMP/loop.err" || lh_err "the reset loop failed: $(cat "$LH_TMP/loop.err")"
check_all_empty
lh_case_end seed_reset_all_loop_empties_every_histogram

lh_case_begin
for h in $LH_HISTS; do
	f=$LH_DIR/$h/reset
	if cat "$f" >/dev/null 2>&1; then
		lh_err "$h/reset: reading succeeded"
	elif lh_have_write_helper; then
		lh_diag "$h/reset: read fails with $("$LH_WRITE_BIN" -R "$f")"
	fi
done
lh_case_end reading_a_reset_file_fails

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
