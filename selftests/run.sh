#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - run every latency_hist selftest and sum the results
#
# Runs the TEST_PROGS of ./Makefile in order (or the names in LH_TESTS), each
# as a KTAP subtest under "timeout" (settings: timeout=SECONDS, or
# LH_TEST_TIMEOUT), indenting its output with "# " as kselftest's runner does.
# LH_SKIP_TESTS holds one "NAME REASON..." per line: those tests are not run
# and are reported as "ok N selftests: latency_hist: NAME # SKIP REASON".
# Nor is a test whose "# requires:" line (lib.sh, "requirements") asks for
# something missing here: "ok N ... NAME # SKIP REASON" with the reason of
# its first unmet requirement, counted as the test's own whole-test skip
# would be; the type: words need the module loaded and are the test's to check.
# Ends with one "N passed, N failed, N skipped" summary line for CI and the
# kselftest "# Totals:" line that sums every subtest's own totals. A test that
# dies, times out or prints no totals line counts as one error.
#
# Exit code: 0 if nothing failed, 1 otherwise (4 if every test skipped).
#
# Usage (as root): sh run.sh       environment: see lib.sh and README.md;
# LH_TESTS="a.sh b.sh" picks tests, LH_SKIP_TESTS skips some (see above),
# LH_SHELL runs them with another shell.

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
cd "$LH_TESTDIR" || exit 1
# shellcheck source=lib.sh
. "$LH_TESTDIR/lib.sh"

if [ -n "${LH_TESTS:-}" ]; then
	tests=$LH_TESTS
else
	tests=$(awk '/^TEST_PROGS[ \t]*[:+]?=/ { sub(/^[^=]*=/, ""); print }' Makefile)
fi

timeout_s=${LH_TEST_TIMEOUT:-$(sed -n 's/^timeout=//p' settings 2>/dev/null)}
timeout_s=${timeout_s:-900}
if command -v timeout >/dev/null 2>&1; then
	with_timeout="timeout $timeout_s"
else
	with_timeout=
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/lh-run.XXXXXX") || exit 1
# the requirement checks read debugfs (failslab, kmemleak, tracing)
lh_find_debugfs
trap 'rm -rf "$tmp"; [ -z "$LH_MOUNTED_DEBUGFS" ] || umount "$LH_DEBUGFS" 2>/dev/null' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ntests=0
for t in $tests; do
	ntests=$((ntests + 1))
done

# skip_reason NAME - print why NAME is in LH_SKIP_TESTS; false if it is not
skip_reason() {
	printf '%s\n' "${LH_SKIP_TESTS:-}" | awk -v t="$1" '
		$1 == t && !found { found = 1; $1 = ""; sub(/^ +/, ""); print }
		END { exit !found }'
}

# unmet NAME - true if a requirement of test NAME is not met here (LH_REQ_WHY
# says which), 2 if its "# requires:" line has a word that is none, false if
# every one is met (as far as can be told without the module)
unmet() {
	lh_req_header "$1" || return 1
	for w in $LH_REQ; do
		case $w in type:*) continue ;; esac
		lh_req_met "$w" && continue
		[ $? -ne 2 ] || return 2
		return 0
	done
	return 1
}

echo "TAP version 13"
echo "1..$ntests"

n=0
pass=0 fail=0 skip=0 error=0
tests_ok=0 tests_failed=0 tests_skipped=0
for t in $tests; do
	n=$((n + 1))
	if reason=$(skip_reason "$t"); then
		echo "ok $n selftests: latency_hist: $t # SKIP ${reason:-left out of this run}"
		skip=$((skip + 1))
		tests_skipped=$((tests_skipped + 1))
		continue
	fi
	echo "# selftests: latency_hist: $t"
	if [ ! -f "$t" ]; then
		echo "not ok $n selftests: latency_hist: $t # missing"
		error=$((error + 1))
		tests_failed=$((tests_failed + 1))
		continue
	fi
	unmet "$t"
	case $? in
	1) ;;
	2)
		echo "not ok $n selftests: latency_hist: $t # $LH_REQ_WHY"
		error=$((error + 1))
		tests_failed=$((tests_failed + 1))
		continue
		;;
	*)
		# as the test's lh_skip_all: its plan, no subtest counted
		echo "# 1..0 # SKIP $LH_REQ_WHY"
		echo "ok $n selftests: latency_hist: $t # SKIP $LH_REQ_WHY"
		tests_skipped=$((tests_skipped + 1))
		continue
		;;
	esac
	# The subtest's output streams through (so a hang shows how far it got)
	# and is kept for its totals line.
	: >"$tmp/out"
	t_start=$(date +%s)
	{
		# shellcheck disable=SC2086 # $with_timeout is a command and an argument
		$with_timeout ${LH_SHELL:-sh} "./$t" 2>&1
		echo "$?" >"$tmp/rc"
	} | while IFS= read -r line; do
		printf '%s\n' "$line" >>"$tmp/out"
		printf '# %s\n' "$line"
	done
	rc=$(cat "$tmp/rc" 2>/dev/null)
	rc=${rc:-1}
	echo "# selftests: latency_hist: $t: $(($(date +%s) - t_start)) s"

	totals=$(grep '^# Totals: ' "$tmp/out" | tail -n 1)
	if [ -n "$totals" ]; then
		p=$(echo "$totals" | sed -n 's/.* pass:\([0-9]*\).*/\1/p')
		f=$(echo "$totals" | sed -n 's/.* fail:\([0-9]*\).*/\1/p')
		s=$(echo "$totals" | sed -n 's/.* skip:\([0-9]*\).*/\1/p')
		e=$(echo "$totals" | sed -n 's/.* error:\([0-9]*\).*/\1/p')
		pass=$((pass + ${p:-0}))
		fail=$((fail + ${f:-0}))
		skip=$((skip + ${s:-0}))
		error=$((error + ${e:-0}))
	fi

	case $rc in
	0)
		echo "ok $n selftests: latency_hist: $t"
		tests_ok=$((tests_ok + 1))
		;;
	4)
		echo "ok $n selftests: latency_hist: $t # SKIP"
		tests_skipped=$((tests_skipped + 1))
		;;
	124 | 137 | 143)
		echo "not ok $n selftests: latency_hist: $t # TIMEOUT $timeout_s seconds"
		error=$((error + 1))
		tests_failed=$((tests_failed + 1))
		;;
	*)
		echo "not ok $n selftests: latency_hist: $t # exit=$rc"
		# a crash without a failed case still has to count
		if [ -z "$totals" ] || [ "${f:-0}" -eq 0 ]; then
			error=$((error + 1))
		fi
		tests_failed=$((tests_failed + 1))
		;;
	esac
done

echo "$tests_ok passed, $tests_failed failed, $tests_skipped skipped"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:$error"

if [ "$tests_failed" -ne 0 ] || [ "$fail" -ne 0 ] || [ "$error" -ne 0 ]; then
	exit 1
fi
if [ "$tests_ok" -eq 0 ] && [ "$tests_skipped" -gt 0 ]; then
	exit 4
fi
exit 0
