#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load_or_bail takes optional module parameters
#
# package.sh - the module DKMS built from the latency-hist-dkms package loads
# in the kernel it was built for, and the packaged lh reads it
#
# Proves (the guest half of scripts/test-packages.sh; the matrix's boot
# "package" runs it with LH_MODULE set to the latency_hist.ko DKMS built in
# a fresh Debian 12 root and LH_PKG_LH to that root's /usr/bin/lh): the
# module loads and its version is the tree's VERSION; lh --version says the
# same; lh status reads the tree and lists every type of status; lh enable,
# a wakeup and lh summary go through; the kernel log stays clean.
#
# requires: packaged-lh

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"

lh_setup
lh_plan 4
version=$(cat "$LH_TESTDIR/../VERSION")

lh_case_begin
lh_load || lh_bail "cannot load the DKMS-built $LH_MODULE"
v=$(cat "$LH_SYSMOD/version" 2>/dev/null)
[ "$v" = "$version" ] || lh_err "module version '$v', VERSION is $version"
v=$(sh "$LH_PKG_LH" --version)
case $v in
"lh $version "*) ;;
*) lh_err "the packaged lh --version says '$v', VERSION is $version" ;;
esac
lh_case_end the_dkms_built_module_loads_with_the_version_of_the_tree

lh_case_begin
if sh "$LH_PKG_LH" status >"$LH_TMP/status" 2>&1; then
	for t in $(awk '{ print $1 }' "$LH_DIR/status"); do
		grep -q "^$t " "$LH_TMP/status" || lh_err "lh status does not list $t"
	done
else
	lh_err "lh status failed: $(head -c 300 "$LH_TMP/status")"
fi
lh_case_end the_packaged_lh_status_reads_it

lh_case_begin
sh "$LH_PKG_LH" enable wakeup || lh_err "lh enable wakeup failed"
lh_activity
sh "$LH_PKG_LH" disable wakeup || lh_err "lh disable wakeup failed"
sh "$LH_PKG_LH" summary wakeup >"$LH_TMP/summary" 2>&1 || lh_err "lh summary failed: $(head -c 300 "$LH_TMP/summary")"
lh_case_end the_packaged_lh_drives_it

lh_unload_or_bail
lh_case_dmesg_clean
lh_finished
