#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gen-man.sh - write the reStructuredText of a man page made from one of
# Documentation/*.rst, for rst2man (python3-docutils), the way rtla builds its
# man pages from rst: the page is the document itself, under a man page's
# header (name, section, one-line description, version).
#
# Usage: sh gen-man.sh DOC.rst NAME SECTION DESCRIPTION | rst2man > NAME.SECTION
#
# The document's own title block goes (the header replaces it), and the
# Sphinx-only :doc:`x` role becomes a man page reference, since rst2man is
# plain docutils. lh(1) gets SYNOPSIS, OPTIONS and EXIT STATUS made from
# lh's table of options (`lh help --options`), in place of the document's
# own "Exit status" (the statuses once); another page gets a DESCRIPTION
# title over its introduction. Every page ends with FILES and SEE ALSO,
# written here. The documents keep tables narrow (a list where a table would
# be wide): selftests/lh_host/test_man.sh fails on any groff warning at 80
# columns. The developer-only parts live in Documentation/testing.rst, which
# is no man page. The version is ../VERSION's.

set -eu

[ $# -eq 4 ] || { echo "usage: gen-man.sh DOC.rst NAME SECTION DESCRIPTION" >&2; exit 2; }
doc=$1 name=$2 section=$3 description=$4
version=$(cat "$(dirname "$0")/../VERSION")

bar=$(printf '%s' "$name" | sed 's/./=/g')
sub=$(printf '%s' "$description" | sed 's/./-/g')
printf '%s\n%s\n%s\n\n%s\n%s\n%s\n\n' "$bar" "$name" "$bar" "$sub" "$description" "$sub"
printf ':Manual section: %s\n:Manual group: latency-hist\n:Version: %s\n\n' "$section" "$version"

# cli_sections - for lh(1): SYNOPSIS, OPTIONS and EXIT STATUS in rst, made
# from lh's table of options (lh help --options, scripts/lh.d/12-cli.sh),
# the table lh's --help and its bash completion are made from too
cli_sections()
{
	CS_TABLE=$(sh "$(dirname "$0")/lh" help --options) || { echo "gen-man.sh: lh help --options failed" >&2; return 1; }
	printf '%s\n' "$CS_TABLE" | awk -F'\t' '
# title - an rst section title, underlined with ch
function title(t, ch,    u) {
	u = t
	gsub(/./, ch, u)
	printf "%s\n%s\n\n", t, u
}
# whom - the commands exit status k is theirs: every command, every one but
# a few, or the few
function whom(k,    i, but, n) {
	if (ncmd[k] == nc) return "every command"
	if (ncmd[k] < nc / 2) return "lh " who[k]
	for (i = 1; i <= nc; i++)
		if (index(", " who[k] ", ", ", " name[i] ", ") == 0) but = but (n++ ? ", " : "") name[i]
	return "every command but " but
}
{ row[NR] = $0 }
$2 == "cmd" { syn[++nc] = "lh " $1 ($4 == "" ? "" : " " $4); name[nc] = $1 }
$2 == "exit" {
	k = $3 SUBSEP $4
	if (!(k in who)) { order[++ne] = k; who[k] = "" }
	who[k] = who[k] (who[k] == "" ? "" : ", ") $1
	ncmd[k]++
}
END {
	title("SYNOPSIS", "=")
	for (i = 1; i <= nc; i++) printf "| ``%s``\n", syn[i]
	print ""
	title("DESCRIPTION", "=")
	print "Every command takes ``-h``, ``--help``: its options and exit statuses."
	print ""
	# (OPTIONS and EXIT STATUS go after the document'"'"'s introduction: see below)
	print "@@OPTIONS@@"
	title("OPTIONS", "=")
	for (i = 1; i <= NR; i++) {
		split(row[i], f, "\t")
		if (f[2] == "cmd") { c = f[1]; head = 0 }
		if (f[2] == "opt" && f[4] != "--help") {
			if (!head++) title("lh " c, "-")
			a = (f[5] == "" ? "" : " " f[5])
			printf "%s``%s%s``\n  %s\n", (f[3] == "" ? "" : "``" f[3] a "``, "), f[4], a, f[7]
		}
		if (f[2] == "more") printf "  %s\n", f[3]
		if ((f[2] == "opt" && f[4] != "--help" || f[2] == "more") && (i == NR || row[i + 1] !~ /^[^\t]*\tmore\t/)) print ""
	}
	title("EXIT STATUS", "=")
	# (in the order of the codes, a word like "other" last)
	for (code = 0; code <= 256; code++)
		for (i = 1; i <= ne; i++) {
			split(order[i], f, SUBSEP)
			if (code < 256 ? f[1] != code "" : f[1] ~ /^[0-9]+$/) continue
			printf "``%s``\n  %s (%s)\n\n", f[1], f[2], whom(order[i])
		}
}'
}

# Skip to the end of the title block (its second === line), then the body,
# without the table of contents (a man pager has none to jump to); for lh(1)
# the sections made from its table of options: SYNOPSIS and DESCRIPTION
# first, OPTIONS and EXIT STATUS after the document's introduction (before
# its first section).
if [ "$name" = lh ]; then
	cli_sections >"${TMPDIR:-/tmp}/gen-man.$$" || { rm -f "${TMPDIR:-/tmp}/gen-man.$$"; exit 1; }
	cli=${TMPDIR:-/tmp}/gen-man.$$
	trap 'rm -f "$cli"' EXIT
	sed '/^@@OPTIONS@@$/,$d' "$cli"
else
	cli=/dev/null
	printf 'DESCRIPTION\n===========\n\n'
fi
awk -v cli="$cli" '
	/^\.\. contents::/ { next }
	# lh(1): the document'"'"'s "Exit status" goes, EXIT STATUS made from
	# the table of options says them (up to the next title: a line over
	# a line of one of - = ~ ^ repeated)
	cli != "/dev/null" && done && last == "Exit status" && /^-+$/ { skip = 1; havelast = 0; next }
	skip && havelast && /^[-=~^]+$/ && length($0) == length(last) && last != "" { skip = 0 }
	skip { last = $0; havelast = 1; next }
	done && /^===+$/ && !opts && cli != "/dev/null" {
		# the line before is the first section title: the table goes before it
		while ((getline l < cli) > 0) if (on) print l; else if (l == "@@OPTIONS@@") on = 1
		opts = 1
	}
	done { if (havelast) print last; last = $0; havelast = 1; next }
	/^===+$/ { if (++bars == 2) done = 1; next }
	END { if (havelast) print last }
' "$doc" | sed -e 's/:doc:`lh`/lh(1)/g' -e 's/:doc:`latency_hist`/latency_hist(7)/g' \
	-e 's/:doc:`\([a-z_]*\)`/Documentation\/\1.rst/g'

# FILES and SEE ALSO, the same on every page (but the page itself)
cat <<'EOF'

FILES
=====

``/sys/kernel/debug/latency_hist/``
  the module's histograms, controls and status (debugfs)
``/sys/module/latency_hist/parameters/``
  the module's parameters, the controls under lockdown
``DIR/series.jsonl``
  the series ``lh monitor --out DIR`` appends to, one interval a line
``/usr/share/bash-completion/completions/lh``
  lh's bash completion
``/usr/share/latency-hist/prometheus/latency_hist.rules.yml``
  Prometheus alert rules for ``lh prom``'s metrics
``/lib/systemd/system/lh-monitor.service``, ``/etc/default/lh-monitor``
  the monitor's service and its options (``/etc/sysconfig/lh-monitor``
  in the RPM)

SEE ALSO
========

EOF
case $name in
lh) printf 'latency_hist(7), ' ;;
*) printf 'lh(1), ' ;;
esac
printf 'cyclictest(8), rtla(1), rtla-timerlat-hist(1), trace-cmd(1)\n'
