# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034 # the counters and FLAVOUR are read by the tests that source this
#
# host_lib.sh - the KTAP harness of the host tests of scripts/lh (test_lh.sh, test_monitor.sh,
# test_explain.sh): cases and skips, running lh in one flavour of the tools a rig may have (gawk
# or mawk with /bin/sh; busybox sh with nothing but busybox applets in PATH), and what a case
# expects of it. Sourced after the test sets LT_DIR; it makes $TMP, removed at exit.

LH=$(cd "$LT_DIR/../../scripts" && pwd)/lh
HOSTPATH=$PATH
ntest=0
npass=0
nfail=0
nskip=0
errs=0

TMP=$(mktemp -d "${TMPDIR:-/tmp}/lh_host.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

# err - record one problem of the current case
err()
{
	echo "# $*"
	errs=$((errs + 1))
}

# case_end NAME - report the current case: ok unless err was called
case_end()
{
	ntest=$((ntest + 1))
	if [ "$errs" -eq 0 ]; then
		echo "ok $ntest $FLAVOUR: $1"
		npass=$((npass + 1))
	else
		echo "not ok $ntest $FLAVOUR: $1"
		nfail=$((nfail + 1))
	fi
	errs=0
}

# skip NAME WHY - report a skipped case
skip()
{
	ntest=$((ntest + 1))
	echo "ok $ntest $FLAVOUR: $1 # SKIP $2"
	nskip=$((nskip + 1))
	errs=0
}

# lh ARGS.. - run lh in the current flavour; stdout to $TMP/out, stderr to
# $TMP/err, exit status in rc
lh()
{
	PATH=$FPATH $FSH "$LH" "$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# expect_rc N WHAT - err unless the last lh exited N
expect_rc()
{
	[ "$rc" = "$1" ] || err "$2: exit $rc, expected $1; stderr: $(head -c 300 "$TMP/err")"
}

# expect_err TEXT WHAT - err unless the last lh's stderr contains TEXT
expect_err()
{
	grep -qF -- "$1" "$TMP/err" || err "$2: stderr lacks '$1': $(head -c 300 "$TMP/err")"
}

# flavour NAME - set FLAVOUR, FSH and FPATH for NAME; returns 1 if its tools are missing. The
# busybox flavour has gnuplot only where the test sets BUSYBOX_GNUPLOT (test_lh.sh leaves it
# unset: there it checks what lh plot says without gnuplot).
flavour()
{
	FLAVOUR=$1
	FSH=/bin/sh
	FBIN=$TMP/bin-$1
	rm -rf "$FBIN"
	mkdir -p "$FBIN"
	case $1 in
	gawk | mawk)
		command -v "$1" >/dev/null 2>&1 || return 1
		ln -s "$(command -v "$1")" "$FBIN/awk"
		FPATH=$FBIN:$HOSTPATH
		;;
	busybox)
		BB=$(command -v busybox 2>/dev/null) || return 1
		for a in $("$BB" --list); do
			ln -s "$BB" "$FBIN/$a"
		done
		[ -z "${BUSYBOX_GNUPLOT:-}" ] || ln -s "$BUSYBOX_GNUPLOT" "$FBIN/gnuplot"
		FSH="$BB sh"
		FPATH=$FBIN
		;;
	*)
		echo "unknown flavour $1" >&2
		return 1
		;;
	esac
}
