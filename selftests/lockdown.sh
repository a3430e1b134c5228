#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# lockdown.sh - under kernel lockdown the signed module loads, its read-only
# files read, and the module parameters are the control path
#
# Proves (Documentation/stress.rst, "Lockdown"), on a kernel booted with
# lockdown=integrity (or confidentiality; elsewhere it skips) and a module
# signed with a key the kernel trusts (its build's key, or a DKMS user's MOK
# key; Documentation/stress.rst says how):
# the module loads; every file without a write bit (CPUx, summary,
# max_latency-CPUx, outliers-CPUx, status, counter statistics) reads;
# debugfs refuses every file with a write bit, for writing and for reading,
# with EPERM; enable, pid and reset through
# /sys/module/latency_hist/parameters still work and recording shows in the
# readable files; a budget set through outlier_wakeup shows in
# wakeup/outliers-CPU0's header, which reads (lh outliers too), while a
# sequence number written to it is refused with EPERM; an unsigned module
# (LH_LOAD_TEST_MODULE, when given) is refused with EPERM (EKEYREJECTED where
# module.sig_enforce=Y as well: module_signature.sh); scripts/lh's
# enable, pid, reset, disable and run fall back to those parameters, say so,
# and its status and summary still read; the kernel log stays clean.
#
# requires: lockdown lh_write

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"

W=$LH_BINDIR/lh_write
LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}
P=$LH_SYSMOD/parameters

lh_setup
lh_plan 8
lh_diag "lockdown: $LH_LOCKDOWN"

lh_case_begin
lh_load || lh_bail "cannot load $LH_MODULE under lockdown: is it signed with a key this kernel trusts?"
lh_case_end the_signed_module_loads

lh_case_begin
n=0
for f in $(find "$LH_DIR" -type f ! -perm /222 | sort); do
	out=$("$W" -R "$f")
	case $out in
	"OK "*) n=$((n + 1)) ;;
	*) lh_err "${f#"$LH_DIR"/} (read-only) cannot be read: $out" ;;
	esac
done
[ "$n" -gt 0 ] || lh_err "no read-only file found"
lh_diag "$n read-only files read"
lh_case_end read_only_files_stay_readable

lh_case_begin
n=0
for f in $(find "$LH_DIR" -type f -perm /222 | sort); do
	rd=$("$W" -R "$f")
	wr=$("$W" "$f" 0)
	[ "$rd" = open:EPERM ] || lh_err "${f#"$LH_DIR"/}: reading gave '$rd', expected open:EPERM"
	[ "$wr" = open:EPERM ] || lh_err "${f#"$LH_DIR"/}: writing gave '$wr', expected open:EPERM"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || lh_err "no file with a write bit found"
lh_diag "$n files with a write bit refused"
lh_case_end files_with_a_write_bit_are_refused_even_for_reading

lh_case_begin
lh_expect_write_ok "$P/wakeup_pid" 0
lh_expect_write_ok "$P/enable_wakeup" 1
lh_status_get wakeup enabled
[ "$LH_FIELD" = 1 ] || lh_err "status: wakeup enabled=$LH_FIELD after enable_wakeup=1"
lh_activity
lh_expect_write_ok "$P/enable_wakeup" 0
[ "$(hl_samples_sum)" -gt 0 ] || lh_err "no sample recorded with enable_wakeup=1"
lh_expect_write_ok "$P/threshold_wakeup" 500
lh_expect_content "$P/threshold_wakeup" 500
lh_expect_write_ok "$P/threshold_wakeup" 0
lh_expect_write_ok "$P/reset" all
[ "$(hl_samples_sum)" -eq 0 ] || lh_err "samples left after reset=all"
lh_case_end module_parameters_still_control_it

lh_case_begin
O=$LH_DIR/wakeup/outliers-CPU0
lh_expect_write_ok "$P/outlier_wakeup" 100000
out=$("$W" -R "$O")
case $out in
"OK "*) ;;
*) lh_err "wakeup/outliers-CPU0 cannot be read: $out" ;;
esac
hdr=$(head -n 1 "$O" 2>/dev/null)
case $hdr in
"#outliers budget_us=100000 "*) ;;
*) lh_err "wakeup/outliers-CPU0's header after outlier_wakeup=100000: '$hdr'" ;;
esac
wr=$("$W" "$O" 0)
[ "$wr" = open:EPERM ] || lh_err "writing a sequence number to wakeup/outliers-CPU0 gave '$wr', expected open:EPERM"
if [ -r "$LH_TOOL" ]; then
	sh "$LH_TOOL" outliers wakeup >"$LH_TMP/lh.out" 2>&1 ||
		lh_err "lh outliers wakeup under lockdown: $(head -c 300 "$LH_TMP/lh.out")"
fi
lh_expect_write_ok "$P/outlier_wakeup" 0
lh_case_end the_outlier_log_reads_under_lockdown

lh_case_begin
# lh_fallback WHAT ARGS.. - run lh ARGS: it must succeed and say it used the parameters
lh_fallback()
{
	lf_what=$1
	shift
	if ! sh "$LH_TOOL" "$@" >"$LH_TMP/lh.out" 2>"$LH_TMP/lh.err"; then
		lh_err "lh $*: failed under lockdown: $(head -c 300 "$LH_TMP/lh.err")"
	elif ! grep -q "wrote $lf_what.* to $P instead" "$LH_TMP/lh.err"; then
		lh_err "lh $*: did not say it wrote $lf_what through $P: $(head -c 300 "$LH_TMP/lh.err")"
	fi
}
if [ -r "$LH_TOOL" ]; then
	lh_fallback enable_wakeup=1 enable wakeup
	[ "$(cat "$P/enable_wakeup")" = 1 ] || lh_err "lh enable wakeup: enable_wakeup is $(cat "$P/enable_wakeup")"
	lh_fallback wakeup_pid=0 pid wakeup 0
	sh "$LH_TOOL" pid wakeup >"$LH_TMP/lh.out" 2>&1
	[ "$(cat "$LH_TMP/lh.out")" = 0 ] || lh_err "lh pid wakeup (a read) under lockdown: $(head -c 200 "$LH_TMP/lh.out")"
	lh_activity
	sh "$LH_TOOL" status >"$LH_TMP/lh.out" 2>&1 || lh_err "lh status under lockdown: $(head -c 300 "$LH_TMP/lh.out")"
	grep -q '^wakeup  *yes  *yes ' "$LH_TMP/lh.out" || lh_err "lh status does not show wakeup enabled: $(head -c 400 "$LH_TMP/lh.out")"
	sh "$LH_TOOL" summary wakeup >"$LH_TMP/lh.out" 2>&1 || lh_err "lh summary under lockdown: $(head -c 300 "$LH_TMP/lh.out")"
	lh_fallback enable_wakeup=0 disable wakeup
	lh_fallback reset=wakeup reset wakeup
	# (wakeup only: wakeup/sharedprio is a histogram of its own, which
	# lh_activity's two sleepers of one priority may feed)
	left=$(hl_total_all wakeup)
	[ "$left" -eq 0 ] || { hl_show_totals wakeup; lh_err "$left wakeup samples left after lh reset wakeup"; }
	lh_fallback enable_wakeup=1 run --types wakeup -- sleep 1
	[ "$(cat "$P/enable_wakeup")" = 0 ] || lh_err "lh run left enable_wakeup on"
	lh_case_end lh_falls_back_to_the_module_parameters
else
	lh_err "scripts/lh is not beside the selftests ($LH_TOOL)"
	lh_case_end lh_falls_back_to_the_module_parameters
fi

lh_case_begin
if lh_req_met lh_load_test; then
	# (a boot with module.sig_enforce=1 as well refuses it before lockdown
	# is asked: module_signature.sh)
	want=EPERM
	[ "$(cat /sys/module/module/parameters/sig_enforce 2>/dev/null)" != Y ] || want=EKEYREJECTED
	out=$("$W" -M "$LH_LOAD_TEST_MODULE" "")
	[ "$out" = "$want" ] || lh_err "the unsigned lh_load_test.ko: '$out', expected $want"
	[ ! -d /sys/module/lh_load_test ] || { rmmod lh_load_test; lh_err "an unsigned module loaded"; }
	lh_case_end an_unsigned_module_is_refused
else
	lh_skip an_unsigned_module_is_refused "$LH_REQ_WHY"
fi

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
