#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043,SC2034,SC2086 # local: dash, busybox ash, bash; LH_TESTDIR is lib.sh's; word lists
#
# check_requires.sh - host test: every selftest says what it needs, in
# words lib.sh checks
#
# Every test of the Makefile (TEST_PROGS and TEST_PROGS_EXTENDED) has one
# "# requires:" line in its header (lib.sh, "requirements"), and each of its
# words is one of LH_REQ_WORDS ("none" alone) or type:NAME with NAME a
# documented type (tree.sh's DOC_TYPES). run.sh fails a test whose line has
# another word, but only on a guest; this finds it before any guest boots.
# Every word of LH_REQ_WORDS is one lh_req_met knows. The check is also run
# on made-up tests that break each rule, and must fail there.
#
# Usage: sh selftests/check_requires.sh   (no root, nothing is loaded)
# Prints KTAP, "# Totals:" last; exit 1 if a case failed.

CR_DIR=$(cd "$(dirname "$0")" && pwd)
LH_TESTDIR=$CR_DIR
. "$CR_DIR/lib.sh"

# lh_req_met is only asked whether it knows a word: keep it from mounting
mount()
{
	return 1
}

# the words and the documented types, blank-separated on one line
CR_WORDS=" $(printf '%s ' $LH_REQ_WORDS)"
CR_TYPES=" $(sed -n '/^DOC_TYPES="/,/"$/{ s/^DOC_TYPES="//; s/ .*//; p; }' "$CR_DIR/tree.sh" | tr '\n' ' ')"
CR_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lh-check-requires.XXXXXX") || exit 1
trap 'rm -rf "$CR_TMP"' EXIT

# cr_tests DIR - print the tests DIR's Makefile lists
cr_tests()
{
	awk '/^TEST_PROGS(_EXTENDED)?[ \t]*[:+]?=/ { sub(/^[^=]*=/, ""); print }' "$1/Makefile"
}

# cr_check DIR - print a line per problem of DIR's tests' "# requires:" lines;
# false if there is one
cr_check()
{
	local dir t w n bad
	dir=$1
	bad=0
	for t in $(cr_tests "$dir"); do
		n=$(sed -n '/^[^#]/q; /^# requires:/p' "$dir/$t" | wc -l)
		if [ "$n" -ne 1 ] || ! lh_req_header "$dir/$t"; then
			echo "$t: $n '# requires:' lines in its header, expected one"
			bad=1
			continue
		fi
		[ -n "${LH_REQ# }" ] || { echo "$t: '# requires:' names nothing (say none)"; bad=1; }
		for w in $LH_REQ; do
			case $w in
			none)
				set -- $LH_REQ
				[ $# -eq 1 ] || { echo "$t: none with other words"; bad=1; }
				;;
			type:*)
				case $CR_TYPES in
				*" ${w#type:} "*) ;;
				*) echo "$t: $w: no documented type ${w#type:} (tree.sh DOC_TYPES)"; bad=1 ;;
				esac
				;;
			*)
				case $CR_WORDS in
				*" $w "*) ;;
				*) echo "$t: unknown requirement '$w' (lib.sh: LH_REQ_WORDS)"; bad=1 ;;
				esac
				;;
			esac
		done
	done
	return $bad
}

# cr_fixture NAME REQUIRES_LINE - a directory of one made-up test with that
# header line (nothing if empty); prints its path
cr_fixture()
{
	mkdir "$CR_TMP/$1"
	echo "TEST_PROGS := t.sh" >"$CR_TMP/$1/Makefile"
	{
		echo '#!/bin/sh'
		echo '# t.sh - made up'
		[ -z "$2" ] || echo "$2"
		echo
		echo 'lh_setup'
	} >"$CR_TMP/$1/t.sh"
	echo "$CR_TMP/$1"
}

# cr_case_fails NAME REQUIRES_LINE PROBLEM - the check must fail on a test
# whose header has REQUIRES_LINE, saying PROBLEM
cr_case_fails()
{
	local out
	lh_case_begin
	if out=$(cr_check "$(cr_fixture "$1" "$2")"); then
		lh_err "'$2' passed the check"
	else
		case $out in
		*"$3"*) lh_diag "$out" ;;
		*) lh_err "'$2': '$out', expected '$3'" ;;
		esac
	fi
	lh_case_end "$1"
}

lh_header
lh_plan 8

lh_case_begin
if ! out=$(cr_check "$CR_DIR"); then
	lh_err "$out"
fi
lh_diag "$(cr_tests "$CR_DIR" | wc -w) selftests checked"
lh_case_end every_selftest_requires_only_known_words

lh_case_begin
[ "$CR_TYPES" != " " ] || lh_err "no DOC_TYPES in tree.sh"
for w in $LH_REQ_WORDS; do
	case $w in type:NAME) w=type:wakeup ;; esac
	# in a subshell: a check may set variables, it must not stop here
	(lh_req_met "$w" >/dev/null 2>&1; [ $? -ne 2 ]) ||
		lh_err "lh_req_met does not know $w, which LH_REQ_WORDS lists"
done
lh_case_end lh_req_met_knows_every_word

lh_case_begin
(lh_req_met cpu-1 >/dev/null 2>&1; [ $? -eq 2 ]) || lh_err "lh_req_met takes cpu-1"
lh_case_end lh_req_met_refuses_a_word_it_does_not_know

cr_case_fails a_bad_word_fails "# requires: cpu1 cpu-1 rt_sleeper" "t.sh: unknown requirement 'cpu-1'"
cr_case_fails a_missing_line_fails "" "t.sh: 0 '# requires:' lines"
cr_case_fails an_empty_line_fails "# requires:" "names nothing"
cr_case_fails an_undocumented_type_fails "# requires: type:irqoff" "type:irqoff: no documented type"
cr_case_fails none_with_a_word_fails "# requires: none cpu1" "none with other words"

lh_finished
