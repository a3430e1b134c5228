#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load takes optional module parameters
#
# module_signature.sh - on a kernel that enforces module signatures the
# signed module loads, and an unsigned copy or a copy signed with a key the
# kernel does not trust is refused with the kernel's message, which lh
# explains
#
# Proves (Documentation/stress.rst, "Signed modules"; README.md, "Secure Boot
# and signed modules"), with LH_MODULE signed with a key the kernel trusts
# (the build's own key in the matrix, an enrolled MOK key on a rig) and
# LH_WRONGKEY_MODULE the same module signed with a key it does not trust (as
# DKMS's own key before it is enrolled):
#  - LH_MODULE carries a signature; the unsigned copy (LH_MODULE without it,
#    the module as kbuild built it) does not;
#  - locked down, before signatures are enforced (Debian's Secure Boot):
#    both copies are refused with EPERM and the lockdown message;
#  - module.sig_enforce=Y (booted so, or turned on here: the parameter only
#    goes one way, hence disposable-boot unless the boot has it already, as
#    Ubuntu, Fedora and RHEL under Secure Boot): the unsigned copy is refused
#    with EKEYREJECTED, "Key was rejected by service" from insmod and
#    "Loading of unsigned module is rejected" in the log; the untrusted
#    copy with EKEYREJECTED and "Loading of module with unavailable key is
#    rejected";
#  - lh, with the module not loaded, names the cause (module.sig_enforce=Y,
#    the message, the unsigned module, mokutil) and exits 3;
#  - the signed module loads without the taint E (unsigned) and lh status
#    reads it; the kernel
#    log stays clean.
#
# requires: module-sig module-file lh_write lh-tool

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"

W=$LH_BINDIR/lh_write
LH_TOOL=${LH_TOOL:-$LH_TESTDIR/../scripts/lh}
ENFORCE=/sys/module/module/parameters/sig_enforce
MARKER="~Module signature appended~"

lh_setup
if [ "$(tail -c 28 "$LH_MODULE")" != "$MARKER" ] && [ "$(cat "$ENFORCE")" != Y ] && ! lh_req_met lockdown; then
	lh_skip_all "LH_MODULE is unsigned and this kernel enforces no signatures: sign it (make sign) and boot with lockdown=integrity or module.sig_enforce=1"
fi
if [ "$(cat "$ENFORCE")" != Y ] && ! lh_req_met disposable-boot; then
	lh_skip_all "signatures are not enforced: boot with module.sig_enforce=1, or LH_DISPOSABLE_BOOT=1 (the test turns it on; only a reboot turns it off)"
fi
lh_plan 8
lh_diag "sig_enforce: $(cat "$ENFORCE"); lockdown: $(lh_req_met lockdown && echo "$LH_LOCKDOWN" || echo none)"

# ms_signed FILE - true if FILE ends in a module signature
ms_signed()
{
	[ "$(tail -c 28 "$1")" = "$MARKER" ]
}

# ms_strip IN OUT - OUT is IN without its signature: the signature, then
# struct module_signature (12 bytes, the last 4 the signature's length, big
# endian), then the marker, are what sign-file appended
ms_strip()
{
	MS_SIZE=$(wc -c <"$1")
	# shellcheck disable=SC2046 # four numbers
	set -- "$1" "$2" $(od -An -tu1 -j $((MS_SIZE - 32)) -N4 "$1")
	MS_LEN=$(($3 * 16777216 + $4 * 65536 + $5 * 256 + $6))
	head -c $((MS_SIZE - 28 - 12 - MS_LEN)) "$1" >"$2"
}

# ms_refused FILE ERRNO WHAT [LOG] - loading FILE fails with ERRNO, nothing
# loads, and the kernel logs LOG (if given) while it does. Lockdown's lines
# are rate limited (10 in 5 s, one limit for every reason: lockdown.sh's
# debugfs refusals count), so a missing line is looked for once more after
# 5 s.
ms_refused()
{
	ms_refused_once "$@" && return 0
	sleep 5
	LH_ERRS=$((LH_ERRS - 1))
	ms_refused_once "$@"
}

# ms_refused_once FILE ERRNO WHAT [LOG] - ms_refused, once; false (and an
# lh_err) only for a missing log line
ms_refused_once()
{
	lh_mark "$LH_TEST refuse $3"
	MS_OUT=$("$W" -M "$1" "")
	[ "$MS_OUT" = "$2" ] || lh_err "$3: load gave '$MS_OUT', expected $2"
	if lh_loaded; then
		rmmod "$LH_NAME"
		lh_err "$3: loaded"
	fi
	[ -z "${4:-}" ] || lh_dmesg_since "$LH_MARK" | grep -qF "$4" || {
		lh_err "$3: the kernel did not log '$4': $(lh_dmesg_since "$LH_MARK" | tail -n 3)"
		return 1
	}
}

UNSIGNED=$LH_TMP/unsigned/$LH_NAME.ko
mkdir -p "${UNSIGNED%/*}"

lh_case_begin
if ms_signed "$LH_MODULE"; then
	ms_strip "$LH_MODULE" "$UNSIGNED"
else
	# what a rig with an unsigned module meets: the cases below show it
	lh_err "LH_MODULE=$LH_MODULE is not signed (sign it: make sign, or scripts/sign-file)"
	cp "$LH_MODULE" "$UNSIGNED"
fi
! ms_signed "$UNSIGNED" || lh_err "the copy without the signature still ends in one"
if [ ! -s "$UNSIGNED" ] || [ "$(wc -c <"$UNSIGNED")" -ge "$(wc -c <"$LH_MODULE")" ]; then
	ms_signed "$LH_MODULE" && lh_err "the unsigned copy has $(wc -c <"$UNSIGNED") bytes, the signed module $(wc -c <"$LH_MODULE")"
fi
if [ -n "${LH_WRONGKEY_MODULE:-}" ]; then
	ms_signed "$LH_WRONGKEY_MODULE" || lh_err "LH_WRONGKEY_MODULE=$LH_WRONGKEY_MODULE is not signed"
	lh_diag "$(wc -c <"$UNSIGNED") bytes unsigned, $(wc -c <"$LH_MODULE") signed, $(wc -c <"$LH_WRONGKEY_MODULE") signed with an untrusted key"
fi
lh_case_end the_module_is_signed_and_its_copy_without_the_signature_is_not

lh_case_begin
if [ "$(cat "$ENFORCE")" = Y ]; then
	lh_skip refused_under_lockdown_before_signatures_are_enforced "booted with module.sig_enforce=1: lockdown's own refusal is not reached"
elif ! lh_req_met lockdown; then
	lh_skip refused_under_lockdown_before_signatures_are_enforced "$LH_REQ_WHY"
else
	ms_refused "$UNSIGNED" EPERM "the unsigned copy under lockdown" "unsigned module loading is restricted"
	[ -z "${LH_WRONGKEY_MODULE:-}" ] ||
		ms_refused "$LH_WRONGKEY_MODULE" EPERM "the copy signed with an untrusted key under lockdown" "unsigned module loading is restricted"
	lh_case_end refused_under_lockdown_before_signatures_are_enforced
fi

lh_case_begin
if [ "$(cat "$ENFORCE")" != Y ]; then
	echo 1 >"$ENFORCE" || lh_err "cannot write 1 to $ENFORCE"
	lh_diag "sig_enforce turned on (module.sig_enforce=1 of the command line is the same switch)"
fi
[ "$(cat "$ENFORCE")" = Y ] || lh_bail "sig_enforce is $(cat "$ENFORCE") after writing 1"
lh_case_end signatures_are_enforced

lh_case_begin
ms_refused "$UNSIGNED" EKEYREJECTED "the unsigned copy" "Loading of unsigned module is rejected"
# what a user sees
out=$(insmod "$UNSIGNED" 2>&1) && { rmmod "$LH_NAME"; lh_err "insmod loaded the unsigned copy"; }
case $out in
*"Key was rejected by service"*) lh_diag "insmod: $out" ;;
*) lh_err "insmod of the unsigned copy: '$out', expected 'Key was rejected by service'" ;;
esac
lh_case_end an_unsigned_copy_is_refused_key_was_rejected

lh_case_begin
if [ -z "${LH_WRONGKEY_MODULE:-}" ]; then
	lh_skip a_copy_signed_with_an_untrusted_key_is_refused "LH_WRONGKEY_MODULE (the module signed with a key the kernel does not trust) is not set"
else
	ms_refused "$LH_WRONGKEY_MODULE" EKEYREJECTED "the copy signed with an untrusted key" "Loading of module with unavailable key is rejected"
	lh_case_end a_copy_signed_with_an_untrusted_key_is_refused
fi

lh_case_begin
sh "$LH_TOOL" status >"$LH_TMP/lh.out" 2>"$LH_TMP/lh.err"
rc=$?
[ "$rc" = 3 ] || lh_err "lh status without the module: exit $rc, expected 3"
for t in "module is not loaded" "module.sig_enforce=Y" '"Key was rejected by service"' "mokutil --import"; do
	grep -qF -- "$t" "$LH_TMP/lh.err" || lh_err "lh status without the module does not say '$t': $(head -c 400 "$LH_TMP/lh.err")"
done
lh_case_end lh_names_the_cause

lh_case_begin
if lh_load 2>"$LH_TMP/insmod.err"; then
	# (O, out of tree, is every such module's; E is an unsigned one's)
	t=$(cat "$LH_SYSMOD/taint" 2>/dev/null)
	case $t in
	*E*) lh_err "the signed module loaded tainted '$t' (E: unsigned or its key unknown)" ;;
	esac
	sh "$LH_TOOL" status >"$LH_TMP/lh.out" 2>&1 || lh_err "lh status: $(head -c 300 "$LH_TMP/lh.out")"
	lh_unload || lh_err "cannot unload $LH_NAME"
else
	lh_err "$LH_MODULE was refused ($(cat "$LH_TMP/insmod.err")): is it signed with a key this kernel trusts?"
fi
lh_case_end the_signed_module_loads

lh_case_dmesg_clean
lh_finished
