#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_lh_cli.sh - host tests of lh's command line as rtla and cyclictest
# users type it (issue 47, item 8): CPU lists (-c 0-3,5) and durations with
# units (30s, 5m, 2h, 1d, 2000ms) in every command that takes a CPU or a
# duration, bad values refused with exit 2, a message naming the option and
# the value, and nothing changed; each command's --help listing every option
# it takes and its exit statuses; and no drift between the one table of
# options (lh help --options), the parsers, the help, the man page's
# SYNOPSIS/OPTIONS/EXIT STATUS (scripts/gen-man.sh) and the bash completion
# (contrib/bash-completion/lh, scripts/gen-completion.sh).
#
# lh runs with LH_ROOT on a tree of 6 CPUs made here by fixture.awk, once per
# flavour of the tools lh may meet on a rig (gawk, mawk, busybox: see
# host_lib.sh); a flavour whose tools are missing is skipped. The completion
# is exercised in bash, where bash is installed.
#
# Usage: sh selftests/lh_host/test_lh_cli.sh [FLAVOUR..]
# Prints KTAP: one "ok N flavour: case" line per case, then the plan and the
# kselftest "# Totals:" line; exit 1 if any failed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LT_DIR/host_lib.sh"
TOP=$(cd "$LT_DIR/../.." && pwd)
LC_ALL=C
export LC_ALL

# make_tree DIR - 6 CPUs with wakeup samples of 10+CPU us, wakeup on, an
# outlier budget with records on CPUs 1, 2 and 5, an explained window on
# every CPU
make_tree()
{
	rm -rf "$1"
	cat >"$TMP/spec" <<'EOF'
cpus 6
samples wakeup 0 10:5
samples wakeup 1 11:5
samples wakeup 2 12:5
samples wakeup 3 13:5
samples wakeup 4 14:5
samples wakeup 5 15:5
enable wakeup 1
status wakeup available=1 enabled=1 bytes=0 explain=1 outliers=1
budget wakeup 4000
outlier wakeup 1 1 2073374100 7702 hardirq vector 236 local_timer
outlier wakeup 2 1 2173374100 5702 hardirq vector 236 local_timer
outlier wakeup 5 1 2273374100 6702 thread thread 77 lh_spin
EOF
	awk -v out="$1" -f "$LT_DIR/fixture.awk" "$TMP/spec" || err "fixture.awk failed"
	mkdir -p "$1/explain"
	echo 1 >"$1/explain/enable"
	for c in 0 1 2 3 4 5; do
		printf 'hardirq 7709363 1\nsoftirq 0 0\nnmi 0 0\nthread 0 0\nother 61371 1\nwindow 7770734\n  vector 236 local_timer 1 7709363\n  idle 61371\n' \
			>"$1/wakeup/explain-CPU$c"
	done
}

# tree_sum - a checksum of every file of the tree and its names
tree_sum()
{
	(cd "$LH_ROOT" && find . | sort && find . -type f | sort | xargs cat) | cksum
}

# cpus_of COLUMN - the CPU column (field COLUMN) of the last lh's output
# rows after the header, space separated
cpus_of()
{
	awk -v k="$1" 'NR > 1 && NF { printf "%s%s", s, $k; s = " " }' "$TMP/out"
}

# case_cpu_lists - -c/--cpu take rtla's CPU lists in summary, explain and
# outliers, each CPU once, in the tree's order
case_cpu_lists()
{
	for a in "-c 0-2,4" "--cpu 0-2,4" "--cpu=4,0-2" "-c4,0-2,1"; do
		# shellcheck disable=SC2086 # the arguments are words
		lh summary wakeup $a
		expect_rc 0 "summary $a"
		[ "$(cpus_of 2)" = "0 1 2 4" ] || err "summary $a: CPUs '$(cpus_of 2)', expected '0 1 2 4'"
	done
	lh summary wakeup -c all
	expect_rc 0 "summary -c all"
	[ "$(cpus_of 2)" = all ] || err "summary -c all: CPUs '$(cpus_of 2)', expected the merged line"
	lh summary wakeup -c 3 --json
	expect_rc 0 "summary -c 3 --json"
	grep -q '"3": ' "$TMP/out" && ! grep -q '"2": \|"all": ' "$TMP/out" || err "summary -c 3 --json: $(head -c 300 "$TMP/out")"
	lh outliers -c 1-2,5
	expect_rc 0 "outliers -c 1-2,5"
	[ "$(cpus_of 3)" = "1 2 5" ] || err "outliers -c 1-2,5: CPUs '$(cpus_of 3)'"
	lh outliers wakeup -c 0-1,3-5
	expect_rc 0 "outliers -c 0-1,3-5"
	[ "$(cpus_of 3)" = "1 5" ] || err "outliers -c 0-1,3-5: CPUs '$(cpus_of 3)'"
	lh explain wakeup -c 1,3-4
	expect_rc 0 "explain -c 1,3-4"
	[ "$(sed -n 's/^wakeup on CPU\([0-9]*\):.*/\1/p' "$TMP/out" | tr '\n' ' ')" = "1 3 4 " ] ||
		err "explain -c 1,3-4: $(head -c 300 "$TMP/out")"
	lh explain wakeup -c all
	expect_rc 0 "explain -c all"
	[ "$(grep -c '^wakeup on CPU' "$TMP/out")" = 6 ] || err "explain -c all: $(head -c 300 "$TMP/out")"
	case_end cpu_lists_in_summary_explain_outliers
}

# case_durations - durations with units: outliers --since, monitor -i and -d,
# run -d
case_durations()
{
	lh outliers --since 120s
	cp "$TMP/out" "$TMP/since-s"
	for a in 2m 120000ms; do
		lh outliers --since "$a"
		expect_rc 0 "outliers --since $a"
		cmp -s "$TMP/out" "$TMP/since-s" || err "outliers --since $a differs from --since 120s"
	done
	grep -q "in the last 120 s" "$TMP/since-s" || err "outliers --since 120s: $(cat "$TMP/since-s")"
	# monitor: 1 s intervals for 2000ms, the same as --count 2: three reads
	rm -rf "$TMP/m"
	lh monitor -i 1s -d 2000ms --out "$TMP/m" --types wakeup
	expect_rc 0 "monitor -i 1s -d 2000ms"
	grep -q '"event": "start".*"interval_s": 1,' "$TMP/m/series.jsonl" 2>/dev/null ||
		err "monitor -i 1s: not every 1 s: $(head -c 300 "$TMP/m/series.jsonl" 2>/dev/null)"
	grep -q '"event": "stop", "reason": "after 2 intervals' "$TMP/m/series.jsonl" 2>/dev/null ||
		err "monitor -d 2000ms did not stop after 2 intervals: $(tail -c 300 "$TMP/m/series.jsonl" 2>/dev/null)"
	rm -rf "$TMP/m"
	lh monitor --interval=1m --count 0 --out "$TMP/m" --types wakeup
	expect_rc 0 "monitor --interval=1m"
	grep -q '"event": "start".*"interval_s": 60,' "$TMP/m/series.jsonl" 2>/dev/null ||
		err "monitor --interval=1m: not every 60 s: $(head -c 300 "$TMP/m/series.jsonl" 2>/dev/null)"
	rm -rf "$TMP/m"
	LH_PROGRESS_S=0 lh run -d 1s --types wakeup
	expect_rc 0 "run -d 1s"
	grep -q "while: sleep 1\$" "$TMP/err" || err "run -d 1s: $(cat "$TMP/err")"
	case_end durations_with_units
}

# case_bad_values - a bad CPU list or duration: exit 2, the option and the
# value named on stderr, nothing written to the tree, no monitor directory
case_bad_values()
{
	before=$(tree_sum)
	for args in "summary|-c 1-x|--cpu|x" "summary|-c 3-1|--cpu|3-1" "summary|--cpu 0,,1|--cpu|''" \
		    "summary|-c 9999|--cpu|9999" "summary|--cpu=1,|--cpu|''" "explain|-c 2-x|--cpu|x" \
		    "outliers|--cpu 5-2|--cpu|5-2" "outliers|--cpu=-1|--cpu|-1" "outliers|--since 500ms|--since|500ms" \
		    "outliers|--since 1.5m|--since|1.5m" "outliers|--since 0s|--since|0s" \
		    "monitor|-i 500ms --out $TMP/m|--interval|500ms" "monitor|-i 0 --out $TMP/m|--interval|0" \
		    "monitor|--interval 5x --out $TMP/m|--interval|5x" "monitor|-i 5 -d 0 --out $TMP/m|--duration|0" \
		    "monitor|-i 5 -d 10w --out $TMP/m|--duration|10w" "monitor|-i 5 --duration=1y --out $TMP/m|--duration|1y" \
		    "monitor|-i 5 -d 1h --count 3 --out $TMP/m|--duration|--count" \
		    "run|-d 0|--duration|0" "run|-d 5q|--duration|5q" "run|-d 5 -- true|--duration|a command"; do
		cmd=${args%%|*}
		rest=${args#*|}
		words=${rest%%|*}
		rest=${rest#*|}
		# shellcheck disable=SC2086 # the arguments are words
		lh "$cmd" $words
		expect_rc 2 "$cmd $words"
		expect_err "$cmd: ${rest%%|*}" "$cmd $words"
		expect_err "${rest#*|}" "$cmd $words"
		[ ! -e "$TMP/m" ] || { err "$cmd $words created $TMP/m"; rm -rf "$TMP/m"; }
	done
	[ "$(tree_sum)" = "$before" ] || err "a refused command changed the tree"
	case_end bad_cpu_lists_and_durations_exit_2_and_change_nothing
}

# help_rows - the table of options (lh help --options) into $TMP/table
help_rows()
{
	lh help --options
	expect_rc 0 "lh help --options"
	cp "$TMP/out" "$TMP/table"
	[ -s "$TMP/table" ] || err "lh help --options printed nothing"
}

# case_help - lh CMD --help names every option of the table, short and long,
# and every exit status; no line over 80 columns; -h is --help
case_help()
{
	help_rows
	for c in $(awk -F'\t' '$2 == "cmd" { print $1 }' "$TMP/table"); do
		lh "$c" --help
		expect_rc 0 "lh $c --help"
		cp "$TMP/out" "$TMP/help"
		lh "$c" -h
		cmp -s "$TMP/out" "$TMP/help" || err "lh $c -h differs from lh $c --help"
		awk -F'\t' -v c="$c" '$1 == c && $2 == "opt" { print ($3 == "" ? "-" : $3), $4 }' "$TMP/table" >"$TMP/opts"
		while read -r short long; do
			if [ "$short" != - ]; then
				grep -q -- "^  $short, $long\\b" "$TMP/help" || err "lh $c --help lacks '$short, $long'"
			else
				grep -q -- "^      $long\\b" "$TMP/help" || err "lh $c --help lacks '$long'"
			fi
		done <"$TMP/opts"
		for code in $(awk -F'\t' -v c="$c" '$1 == c && $2 == "exit" { print $3 }' "$TMP/table"); do
			sed -n '/^Exit status:/,$p' "$TMP/help" | grep -q "^  $code " || err "lh $c --help lacks exit status $code"
		done
		awk -v c="$c" 'length > 80 { print "lh " c " --help: a line over 80 columns: " $0 }' "$TMP/help" | head -n 3 |
			while IFS= read -r l; do echo "# $l"; done | grep . && err "lh $c --help: lines over 80 columns"
	done
	lh compare --help
	grep -q "^  --fail-if\|^      --fail-if GATE" "$TMP/out" && grep -q "^  1 " "$TMP/out" ||
		err "lh compare --help names no gate or not its exit status 1: $(cat "$TMP/out")"
	case_end every_command_help_lists_its_options_and_exit_statuses
}

# parser_opts CMD - the options the parser of lh CMD knows, from scripts/lh:
# the patterns of the case of its cmd_CMD (and of prom_opt, when it calls it)
parser_opts()
{
	awk -v f="cmd_$1()" '
$0 == f { on = 1; next }
on && /^}/ { exit }
on && /prom_opt/ { print "--buckets"; print "--host-label" }
on && /^\t+-[^"]*\)( |$)/ {
	pat = $0
	sub(/\).*/, "", pat)
	n = split(pat, w, /[ \t|]+/)
	for (i = 1; i <= n; i++) if (w[i] ~ /^--?[a-z][a-z-]*$/ && w[i] != "--") print w[i]
}
on && /= --[a-z-]+ \]/ { s = $0; sub(/.*= /, "", s); sub(/ \].*/, "", s); print s }' "$LH" | sort -u
}

# case_drift - the table, the parsers, the man page and the completion
# agree: every option of the table is one its command's parser takes and
# every option a parser takes is in the table; the man page has every
# command, option and exit status; the committed completion is what
# gen-completion.sh makes, and in bash completes every command, option and
# type (irq, softirq, wakeup/sharedprio among them)
case_drift()
{
	help_rows
	cmds=$(awk -F'\t' '$2 == "cmd" { print $1 }' "$TMP/table")
	for c in $cmds; do
		awk -F'\t' -v c="$c" '$1 == c && $2 == "opt" && $4 != "--help" { print $4; if ($3 != "") print $3 }' "$TMP/table" |
			sort -u >"$TMP/t-opts"
		case $c in version | help) continue ;; esac
		parser_opts "$c" >"$TMP/p-opts"
		[ -s "$TMP/p-opts" ] || [ ! -s "$TMP/t-opts" ] || err "no options found in cmd_$c of scripts/lh"
		d=$(comm -3 "$TMP/t-opts" "$TMP/p-opts" | tr '\t\n' '  ')
		[ -z "$d" ] || err "lh $c: table and parser differ (table only, then parser only): $d"
		# (on a tree that is not there: the parser runs, then need_tree stops it)
		while read -r o; do
			LH_ROOT=$TMP/nonexistent lh "$c" "$o"
			! grep -q "unknown option\|unknown argument" "$TMP/err" || err "lh $c $o: $(cat "$TMP/err")"
		done <"$TMP/t-opts"
	done
	# the man page and the completion: the same in every flavour, checked once
	if [ -n "$DRIFT_ONCE" ]; then
		case_end table_parsers_help_man_and_completion_agree
		return
	fi
	DRIFT_ONCE=1
	if ! sh "$TOP/scripts/gen-man.sh" "$TOP/Documentation/lh.rst" lh 1 "answers from latency_hist" >"$TMP/man.rst" 2>"$TMP/err"; then
		err "gen-man.sh failed: $(cat "$TMP/err")"
	fi
	for c in $cmds; do
		syn=$(awk -F'\t' -v c="$c" '$1 == c && $2 == "cmd" { print "lh " c ($4 == "" ? "" : " " $4) }' "$TMP/table")
		sed -n '/^SYNOPSIS$/,/^DESCRIPTION$/p' "$TMP/man.rst" | grep -qxF "| \`\`$syn\`\`" ||
			err "man page SYNOPSIS lacks '$syn'"
		awk -F'\t' -v c="$c" '$1 == c && $2 == "opt" && $4 != "--help" { print ($3 == "" ? "-" : $3), $4, $5 }' "$TMP/table" >"$TMP/opts"
		while read -r short long arg; do
			a=${arg:+ $arg}
			t="\`\`$long$a\`\`"
			[ "$short" = - ] || t="\`\`$short$a\`\`, $t"
			sed -n "/^lh $c\$/,/^\$/{p;}; /^lh $c\$/,/^[A-Z]/p" "$TMP/man.rst" | grep -qxF -- "$t" ||
				err "man page OPTIONS of lh $c lacks '$t'"
		done <"$TMP/opts"
		for code in $(awk -F'\t' -v c="$c" '$1 == c && $2 == "exit" { print $3 }' "$TMP/table"); do
			sed -n '/^EXIT STATUS$/,/^Getting/p' "$TMP/man.rst" | grep -qx "\`\`$code\`\`" ||
				err "man page EXIT STATUS lacks $code"
		done
	done
	# the completion
	sh "$TOP/scripts/gen-completion.sh" "$LH" >"$TMP/completion" 2>"$TMP/err" || err "gen-completion.sh failed: $(cat "$TMP/err")"
	cmp -s "$TMP/completion" "$TOP/contrib/bash-completion/lh" ||
		err "contrib/bash-completion/lh is not what gen-completion.sh makes (run make lh): $(diff "$TOP/contrib/bash-completion/lh" "$TMP/completion" | head -n 6 | tr '\n' '|')"
	if ! command -v bash >/dev/null 2>&1; then
		case_end table_parsers_help_man_and_completion_agree
		return
	fi
	for c in $cmds; do
		want=$(awk -F'\t' -v c="$c" '$1 == c && $2 == "opt" { printf "%s%s ", ($3 == "" ? "" : $3 " "), $4 }' "$TMP/table")
		# shellcheck disable=SC2016 # bash expands them
		got=$(LH_ROOT=$TMP/nonexistent bash -c '. "$1"; COMP_WORDS=(lh "$2" -); COMP_CWORD=2; _lh; echo "${COMPREPLY[*]}"' \
			sh "$TOP/contrib/bash-completion/lh" "$c")
		for o in $want; do
			case " $got " in *" $o "*) ;; *) err "completion of 'lh $c -' lacks $o: $got" ;; esac
		done
	done
	# shellcheck disable=SC2016 # bash expands them
	got=$(bash -c '. "$1"; COMP_WORDS=(lh ""); COMP_CWORD=1; _lh; echo "${COMPREPLY[*]}"' sh "$TOP/contrib/bash-completion/lh")
	for c in $cmds; do
		case " $got " in *" $c "*) ;; *) err "completion of 'lh ' lacks $c: $got" ;; esac
	done
	for root in "$TMP/nonexistent" "$LH_ROOT"; do
		# shellcheck disable=SC2016 # bash expands them
		got=$(LH_ROOT=$root bash -c '. "$1"; COMP_WORDS=(lh enable ""); COMP_CWORD=2; _lh; echo "${COMPREPLY[*]}"' \
			sh "$TOP/contrib/bash-completion/lh")
		want="all wakeup wakeup/sharedprio missed_timer_offsets"
		[ "$root" = "$LH_ROOT" ] || want="$want irq softirq irqsoff timerwakeupswitch"
		for t in $want; do
			case " $got " in *" $t "*) ;; *) err "completion of 'lh enable ' (LH_ROOT $root) lacks $t: $got" ;; esac
		done
	done
	# shellcheck disable=SC2016 # bash expands them
	got=$(LH_ROOT=$TMP/nonexistent bash -c '. "$1"; COMP_WORDS=(lh monitor --types wakeup,s); COMP_CWORD=3; _lh; echo "${COMPREPLY[*]}"' \
		sh "$TOP/contrib/bash-completion/lh")
	case " $got " in *" wakeup,softirq "*) ;; *) err "completion of 'lh monitor --types wakeup,s' lacks wakeup,softirq: $got" ;; esac
	case_end table_parsers_help_man_and_completion_agree
}

echo "TAP version 13"
DRIFT_ONCE=
make_tree "$TMP/t"
export LH_ROOT="$TMP/t"
for f in ${*:-gawk mawk busybox}; do
	if ! flavour "$f"; then
		FLAVOUR=$f
		skip all "$f is not installed"
		continue
	fi
	case_cpu_lists
	case_durations
	case_bad_values
	case_help
	case_drift
done

echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
