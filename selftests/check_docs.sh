#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC3043,SC2034,SC2016,SC2015 # local: dash, busybox ash, bash; LH_TESTDIR is lib.sh's; rst backquotes; A && B || C reports
#
# check_docs.sh - host test: Documentation/latency_hist.rst names every type
# of the module's type table where it lists them all
#
# The module's types are include/latency_hist/type_list.h: its switches
# (LH_SWITCH, the files of enable/ and the enable_<switch> module
# parameters) and its histograms (LH_HIST, in the order that numbers them in
# status and in the lh_sample event's raw "type"). The reference lists each
# in three places a new type must be added to by hand:
#  1. the tree under "Where the files are": enable/{...} holds every switch,
#     in the table's order;
#  2. the module parameter list: an ``enable_<switch>`` item per switch;
#  3. the lh_sample event's raw numbers, "(0 irqsoff, 1 preemptoff, ...)":
#     every histogram, numbered in the table's order.
# The check also runs on a copy of the reference with the last type taken
# out of each list, and must fail there.
#
# Usage: sh selftests/check_docs.sh   (no root, nothing is loaded)
# Prints KTAP, "# Totals:" last; exit 1 if a case failed.

CD_DIR=$(cd "$(dirname "$0")" && pwd)
LH_TESTDIR=$CD_DIR
. "$CD_DIR/lib.sh"

CD_TOP=$CD_DIR/..
CD_TYPES=$CD_TOP/include/latency_hist/type_list.h
CD_DOC=$CD_TOP/Documentation/latency_hist.rst
CD_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lh-check-docs.XXXXXX") || exit 1
trap 'rm -rf "$CD_TMP"' EXIT

# the switches and the histograms of the type table, in order, one a line
sed -n 's/^LH_SWITCH([A-Z_]*, *\([a-z_]*\),.*/\1/p' "$CD_TYPES" >"$CD_TMP/switches"
sed -n 's/^LH_HIST([A-Z_]*, *"\([a-z_/]*\)",.*/\1/p' "$CD_TYPES" >"$CD_TMP/hists"

# cd_tree_enable DOC - print the switches of DOC's enable/{...}, one a line
cd_tree_enable()
{
	awk '/enable\/\{/ { on = 1 }
	on {
		s = $0
		sub(/.*enable\/\{/, "", s)
		sub(/^[ \t│]*/, "", s)
		done = sub(/\}.*/, "", s)
		n = split(s, w, ",")
		for (i = 1; i <= n; i++) {
			gsub(/[ \t]/, "", w[i])
			if (w[i] != "")
				print w[i]
		}
		if (done)
			exit
	}' "$1"
}

# cd_param_enable DOC - print the switches of DOC's enable_<switch> rows
cd_param_enable()
{
	sed -n 's/^``enable_\([a-z_]*\)``\( .*\)\{0,1\}$/\1/p' "$1"
}

# cd_raw_numbers DOC - print "N name" of DOC's raw type numbers, one a line
cd_raw_numbers()
{
	awk '/is a number in the raw event \(/ { on = 1 }
	on {
		text = text " " $0
		if (index($0, ")"))
			exit
	}
	END {
		sub(/.*raw event \(/, "", text)
		sub(/\).*/, "", text)
		sub(/:.*/, "", text)
		n = split(text, w, ",")
		for (i = 1; i <= n; i++) {
			gsub(/^[ \t]+|[ \t]+$/, "", w[i])
			gsub(/[ \t]+/, " ", w[i])
			print w[i]
		}
	}' "$1"
}

# cd_check DOC - print a line per list of DOC that is not the type table's;
# false if there is one
cd_check()
{
	local bad=0
	cd_tree_enable "$1" >"$CD_TMP/got"
	if ! cmp -s "$CD_TMP/switches" "$CD_TMP/got"; then
		echo "enable/{...} in the tree lists $(tr '\n' ' ' <"$CD_TMP/got"); the type table's switches: $(tr '\n' ' ' <"$CD_TMP/switches")"
		bad=1
	fi
	cd_param_enable "$1" >"$CD_TMP/got"
	if ! cmp -s "$CD_TMP/switches" "$CD_TMP/got"; then
		echo "the parameter table has enable_ rows for $(tr '\n' ' ' <"$CD_TMP/got"); the type table's switches: $(tr '\n' ' ' <"$CD_TMP/switches")"
		bad=1
	fi
	cd_raw_numbers "$1" >"$CD_TMP/got"
	awk '{ print NR - 1 " " $0 }' "$CD_TMP/hists" >"$CD_TMP/want"
	if ! cmp -s "$CD_TMP/want" "$CD_TMP/got"; then
		echo "lh_sample's raw numbers are $(tr '\n' ',' <"$CD_TMP/got"); the type table's: $(tr '\n' ',' <"$CD_TMP/want")"
		bad=1
	fi
	return $bad
}

lh_plan 2

lh_case_begin
[ -s "$CD_TMP/switches" ] && [ -s "$CD_TMP/hists" ] ||
	lh_err "no LH_SWITCH or LH_HIST line read from $CD_TYPES"
if ! cd_check "$CD_DOC" >"$CD_TMP/out"; then
	while IFS= read -r line; do
		lh_err "$line"
	done <"$CD_TMP/out"
fi
lh_diag "$(wc -l <"$CD_TMP/switches") switches, $(wc -l <"$CD_TMP/hists") histograms checked"
lh_case_end reference_lists_every_type

lh_case_begin
# the last switch and histogram out of each list: each list must fail
last_sw=$(tail -n 1 "$CD_TMP/switches")
last_h=$(tail -n 1 "$CD_TMP/hists")
sed -e "s/,$last_sw}/}/" -e "/^\`\`enable_$last_sw\`\`/d" \
	-e "s/, [0-9]* $last_h:/:/" "$CD_DOC" >"$CD_TMP/doc.rst"
cd_check "$CD_TMP/doc.rst" >"$CD_TMP/out" && lh_err "a reference without $last_sw and $last_h passed"
n=$(wc -l <"$CD_TMP/out")
[ "$n" = 3 ] || lh_err "$n of the 3 lists failed without $last_sw and $last_h: $(cat "$CD_TMP/out")"
lh_case_end a_list_without_a_type_fails

lh_finished
