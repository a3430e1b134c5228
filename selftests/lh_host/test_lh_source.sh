#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_lh_source.sh - host tests of scripts/lh's sources (scripts/lh.d/): that the committed
# scripts/lh, the one file rigs copy, is what its sources assemble to (run `make lh` after a
# change there), that the sources keep their shape, and the awk libraries on their own, without a
# tree or a command around them.
#
# The assembly and the libraries run once per flavour of the tools lh may meet on a rig (gawk,
# mawk, busybox: see host_lib.sh); a flavour whose tools are missing is skipped.
#
# Usage: sh selftests/lh_host/test_lh_source.sh [FLAVOUR..]
# Prints KTAP: one "ok N flavour: case" line per case, then the plan and the kselftest
# "# Totals:" line; exit 1 if any failed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LT_DIR/host_lib.sh"
SRC=$(cd "$LT_DIR/../../scripts/lh.d" && pwd)
LC_ALL=C
export LC_ALL

# assemble DIR - run DIR/assemble.sh in the current flavour: stdout to $TMP/out, stderr to
# $TMP/err, exit status in rc
assemble()
{
	PATH=$FPATH $FSH "$1/assemble.sh" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# lib_awk INPUT AWKFILE.. - run the AWKFILEs of scripts/lh.d, one program as lh joins them, and
# then the program on stdin, over the file INPUT, in the current flavour; output as lh() leaves it
lib_awk()
{
	LA_IN=$1
	shift
	{
		for f in "$@"; do
			cat "$SRC/$f"
		done
		cat
	} >"$TMP/prog.awk"
	# shellcheck disable=SC2016 # the inner shell expands them
	PATH=$FPATH $FSH -c 'exec awk -f "$1" "$2"' sh "$TMP/prog.awk" "$LA_IN" >"$TMP/out" 2>"$TMP/err"
	rc=$?
}

# expect_text WHAT - err unless the last output is the text on stdin
expect_text()
{
	cat >"$TMP/want"
	cmp -s "$TMP/want" "$TMP/out" ||
		err "$1: output differs: $(diff "$TMP/want" "$TMP/out" | head -n 12 | tr '\n' '|')"
}

# case_sources - the sources keep the shape Documentation/testing.rst ("The sources of lh") gives them:
# none over 900 lines, each command's help_<cmd> in the file of its cmd_<cmd>
case_sources()
{
	for f in "$SRC"/*; do
		n=$(wc -l <"$f")
		[ "$n" -le 900 ] || err "${f##*/} has $n lines, more than 900: split it"
	done
	cmds=$(sed -n 's/^LH_COMMANDS="\(.*\)"$/\1/p' "$SRC"/[0-9][0-9]-*.sh)
	[ -n "$cmds" ] || err "no LH_COMMANDS= line in the parts"
	for c in $cmds; do
		cf=$(grep -l "^cmd_$c()\$" "$SRC"/[0-9][0-9]-*.sh)
		hf=$(grep -l "^help_$c()\$" "$SRC"/[0-9][0-9]-*.sh)
		[ -n "$cf" ] || err "lh $c: no cmd_$c() in scripts/lh.d"
		[ "$cf" = "$hf" ] || err "lh $c: help_$c() is not beside cmd_$c() (${hf##*/}, ${cf##*/})"
	done
	case_end sources_under_900_lines_and_help_beside_each_command
}

# case_current - the committed scripts/lh is what the sources assemble to, byte for byte
case_current()
{
	assemble "$SRC"
	expect_rc 0 "assemble.sh"
	cmp -s "$LH" "$TMP/out" ||
		err "scripts/lh differs from what scripts/lh.d assembles to (run make lh): $(diff "$LH" "$TMP/out" | head -n 8 | tr '\n' '|')"
	case_end committed_lh_is_the_assembly_of_its_sources
}

# case_refuses - a source that would assemble into a broken lh is an error naming it, and
# prints nothing
case_refuses()
{
	rm -rf "$TMP/d"
	cp -R "$SRC" "$TMP/d"
	echo "# it's" >>"$TMP/d/series.awk"
	assemble "$TMP/d"
	expect_rc 1 "a single quote in an awk file"
	expect_err "series.awk:" "a single quote in an awk file"
	[ ! -s "$TMP/out" ] || err "a single quote in an awk file: printed $(wc -l <"$TMP/out") lines"
	rm -rf "$TMP/d"
	cp -R "$SRC" "$TMP/d"
	sed 1d "$SRC/70-run.sh" >"$TMP/d/70-run.sh"
	assemble "$TMP/d"
	expect_rc 1 "a part without its header"
	expect_err "70-run.sh: line 1 is not the SPDX line" "a part without its header"
	rm -rf "$TMP/d"
	cp -R "$SRC" "$TMP/d"
	sed 's/^#lh-include hist\.awk$/#lh-include gone.awk/' "$SRC/20-read.sh" >"$TMP/d/20-read.sh"
	assemble "$TMP/d"
	expect_rc 1 "an include of a missing file"
	expect_err "cannot read $TMP/d/gone.awk" "an include of a missing file"
	case_end assembly_refuses_a_broken_source
}

# case_base - base.awk: JSON strings of any byte, the status line with and without switch=,
# and a bad line's message
case_base()
{
	lib_awk /dev/null base.awk <<'EOF'
BEGIN {
	print jstr("a\"b\\c\td\001e~\177\303\251")
	print is_uint("12"), is_uint("-1"), is_uint(""), is_int("-1"), is_int("1-")
	$0 = "wakeup/sharedprio available=1 enabled=0 bytes=164560 needs=- pid=1 explain=1"
	status_line()
	$0 = "irq available=0 enabled=0 bytes=0 switch=irq needs=wakeup reason=interrupts are not threaded"
	status_line()
	for (i = 1; i <= st_n; i++) {
		t = st_order[i]
		print t, st_avail[t], st_en[t], st_bytes[t], st_switch[t], st_needs[t], st_pid[t], st_explain[t], "[" st_reason[t] "]"
	}
	rd_file = "status"; rd_ln = 3
	$0 = "wakeup enabled=1"
	status_line()
	print "not reached"
}
EOF
	expect_rc 2 "base.awk"
	expect_text "base.awk" <<'EOF'
"a\"b\\c\u0009d\u0001e~\u007f\u00c3\u00a9"
1 0 0 1 0
wakeup/sharedprio 1 0 164560 wakeup - 1 1 []
irq 0 0 0 irq wakeup 0 0 [interrupts are not threaded]
EOF
	expect_err 'lh: error: status:3: not a status line: "wakeup enabled=1"' "base.awk"
	case_end base_awk_json_strings_and_status_lines
}

# case_hist - hist.awk (with views.awk: LH_AWK_HIST is both): percentiles in and out of range,
# the numeric sort, max records, the Prometheus label and seconds
case_hist()
{
	lib_awk /dev/null base.awk hist.awk views.awk <<'EOF'
BEGIN {
	nq = split("5000 9000 9900 10000", qnum, " ")
	nb = split("1 5 9", b, " "); split("2 5 3", cnt, " ")
	percentiles(nb, b, cnt, 0, 10, nq, qnum, p)
	print p[1], p[2], p[3], p[4]
	nq = split("500 5000 10000", qnum, " ")
	percentiles(nb, b, cnt, 1, 12, nq, qnum, p)
	print p[1], p[2], p[3]
	na = split("10 all 2 1 0", a, " ")
	sort_num(a, na)
	print a[1], a[2], a[3], a[4], a[5]
	print maxrec_json("(none)")
	print maxrec_json("123 95 42 (-7) my task <- 0 120 swapper/1 12345.000001")
	print "[" maxrec_json("123 95 42 (-7) my task <- 0 120 swapper/1 12345.1") "]"
	print esc("a\"b"), secs(1500), jval("-"), jval("-3"), jval("1.5"), jval("<0")
}
EOF
	expect_rc 0 "hist.awk"
	expect_text "hist.awk" <<'EOF'
5 9 9 9
<0 5 >=10240
0 1 2 10 all
null
{"latency": 42, "timeroffset": -7, "victim": {"pid": 123, "prio": 95, "comm": "my task"}, "culprit": {"pid": 0, "prio": 120, "comm": "swapper/1"}, "timestamp": 12345.000001}
[]
a\"b 0.001500 null -3 1.5 "<0"
EOF
	case_end hist_awk_percentiles_sort_and_records
}

# case_series - series.awk: a record spread over lines (jq .) comes out in lh's layout, one cut
# short is skipped with a warning, and sfield reads its keys
case_series()
{
	printf '%s\n' '{' '  "time": "2026-01-01T00:00:00Z",' '  "n": 3,' '  "x": null,' \
		'  "h": {"a": [1, 2]}' '}' '{"time": "2026-01-01T00:01:00Z", "n": 4,' \
		'{"time": "2026-01-01T00:02:00Z", "n": 5, "x": "s"}' >"$TMP/series.jsonl"
	lib_awk "$TMP/series.jsonl" base.awk hist.awk views.awk series.awk <<'EOF'
BEGIN { sr_piece = "p" }
{ print; print sfield($0, "time"), sfield($0, "n"), sfield($0, "x"), "[" sfield($0, "nope") "]" }
EOF
	expect_rc 0 "series.awk"
	expect_text "series.awk" <<'EOF'
{"time": "2026-01-01T00:00:00Z", "n": 3, "x": null, "h": {"a": [1, 2]}}
2026-01-01T00:00:00Z 3 null []
{"time": "2026-01-01T00:02:00Z", "n": 5, "x": "s"}
2026-01-01T00:02:00Z 5 s []
EOF
	expect_err "lh: warning: p: line 7: a record cut short (a full disk?) is skipped" "series.awk"
	case_end series_awk_relays_records_and_skips_a_torn_one
}

echo "TAP version 13"
FLAVOUR=sources
case_sources
for f in ${*:-gawk mawk busybox}; do
	if ! flavour "$f"; then
		FLAVOUR=$f
		skip all "$f is not installed"
		continue
	fi
	case_current
	case_refuses
	case_base
	case_hist
	case_series
done

echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
