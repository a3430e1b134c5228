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
# plain docutils. Table rows too long for a
# terminal make groff warn; the page still renders. The version is ../VERSION's.

set -eu

[ $# -eq 4 ] || { echo "usage: gen-man.sh DOC.rst NAME SECTION DESCRIPTION" >&2; exit 2; }
doc=$1 name=$2 section=$3 description=$4
version=$(cat "$(dirname "$0")/../VERSION")

bar=$(printf '%s' "$name" | sed 's/./=/g')
sub=$(printf '%s' "$description" | sed 's/./-/g')
printf '%s\n%s\n%s\n\n%s\n%s\n%s\n\n' "$bar" "$name" "$bar" "$sub" "$description" "$sub"
printf ':Manual section: %s\n:Manual group: latency-hist\n:Version: %s\n\n' "$section" "$version"
# Skip to the end of the title block (its second === line), then the body,
# without the table of contents (a man pager has none to jump to).
awk '
	/^\.\. contents::/ { next }
	done { print; next }
	/^===+$/ { if (++bars == 2) done = 1; next }
' "$doc" | sed -e 's/:doc:`lh`/lh(1)/g' -e 's/:doc:`latency_hist`/latency_hist(7)/g' \
	-e 's/:doc:`\([a-z_]*\)`/Documentation\/\1.rst/g'
