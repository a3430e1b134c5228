#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_man.sh - host test of the installed man pages (issue 47, item 8): each
# page the packages install (debian/latency-hist-tools.manpages, the same as
# the RPM spec's), made as the packages make it (scripts/gen-man.sh piped to
# rst2man --halt=warning), has NAME, DESCRIPTION, FILES and SEE ALSO, a
# section 1 page SYNOPSIS, OPTIONS and EXIT STATUS too, each once; no page
# gives its exit statuses twice (a subsection "Exit status" beside EXIT
# STATUS) or has the developer-only TESTS or SOURCE LAYOUT (Documentation/testing.rst
# holds them); and groff renders each at 80 columns, as man does
# (groff -k -t -man -Tutf8 -rLL=80n -ww), without a single warning of troff,
# tbl or grotty ("table wider than line width", "cannot adjust line",
# "character above first line discarded" of a boxed table across a page).
#
# Usage: sh selftests/lh_host/test_man.sh
# Prints KTAP: one "ok N page: case" line per case, then the plan and the
# kselftest "# Totals:" line; exit 1 if any failed. Skips, saying so, where
# rst2man or groff is not installed.

LT_DIR=$(cd "$(dirname "$0")" && pwd)
. "$LT_DIR/host_lib.sh"
TOP=$(cd "$LT_DIR/../.." && pwd)
LC_ALL=C
export LC_ALL

echo "TAP version 13"
pages=$(sed -n 's|^debian/man/||p' "$TOP/debian/latency-hist-tools.manpages")
FLAVOUR=packaging
[ -n "$pages" ] || err "no page in debian/latency-hist-tools.manpages"
for p in $pages; do
	grep -q "%{_mandir}/man${p##*.}/$p\*\$" "$TOP/latency-hist.spec" ||
		err "latency-hist.spec does not install $p, which the Debian package does"
done
n=$(grep -c '^%{_mandir}/' "$TOP/latency-hist.spec")
[ "$n" -eq "$(echo "$pages" | wc -w)" ] || err "latency-hist.spec installs $n man pages, the Debian package $(echo "$pages" | wc -w)"
case_end debian_and_rpm_install_the_same_pages

for p in $pages; do
	FLAVOUR=$p
	name=${p%.*} section=${p##*.}
	if ! command -v rst2man >/dev/null 2>&1 || ! command -v groff >/dev/null 2>&1; then
		skip sections "rst2man or groff is not installed"
		skip no_warnings_at_80_columns "rst2man or groff is not installed"
		continue
	fi
	if ! sh "$TOP/scripts/gen-man.sh" "$TOP/Documentation/$name.rst" "$name" "$section" "a test" >"$TMP/$p.rst" 2>"$TMP/err" ||
		! rst2man --halt=warning "$TMP/$p.rst" >"$TMP/$p" 2>>"$TMP/err"; then
		err "gen-man.sh | rst2man failed: $(tr '\n' ' ' <"$TMP/err")"
	fi
	want="NAME DESCRIPTION FILES SEE_ALSO"
	[ "$section" != 1 ] || want="NAME SYNOPSIS DESCRIPTION OPTIONS EXIT_STATUS FILES SEE_ALSO"
	for s in $want; do
		s=$(echo "$s" | tr _ ' ')
		n=$(grep -c "^\.SH \"\{0,1\}$s\"\{0,1\}\$" "$TMP/$p")
		[ "$n" -eq 1 ] || err "$p has $n sections $s (want 1)"
	done
	for s in TESTS "SOURCE LAYOUT"; do
		! grep -q "^\.SH \"\{0,1\}$s\"\{0,1\}\$" "$TMP/$p" || err "$p has a developer-only section $s"
	done
	n=$(grep -ci '^\.S[HS] "\{0,1\}exit status"\{0,1\}$' "$TMP/$p")
	[ "$n" -le 1 ] || err "$p gives its exit statuses $n times (sections or subsections EXIT STATUS)"
	case_end sections

	groff -k -t -man -Tutf8 -rLL=80n -ww "$TMP/$p" >/dev/null 2>"$TMP/warn"
	if [ -s "$TMP/warn" ]; then
		err "groff warns at 80 columns ($(wc -l <"$TMP/warn") lines), the first:"
		head -n 8 "$TMP/warn" | sed 's/^/#   /'
	fi
	case_end no_warnings_at_80_columns
done

echo "1..$ntest"
echo "# Totals: pass:$npass fail:$nfail xfail:0 xpass:0 skip:$nskip error:0"
[ "$nfail" -eq 0 ]
