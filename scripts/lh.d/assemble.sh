#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# assemble.sh - print scripts/lh, the one file rigs copy and the packages install, made from its
# sources in this directory. `make lh` writes it to scripts/lh, which stays committed;
# selftests/lh_host/test_lh_source.sh fails when the two differ.
#
# Usage: sh scripts/lh.d/assemble.sh > lh
#
# The parts NN-NAME.sh go end to end in the order of their numbers (00-head.sh first, 99-main.sh,
# whose last line runs lh, last); a new command is a new part (Documentation/testing.rst, "The
# sources of lh"). Every source file opens with a header of its own, the SPDX line and comment
# lines up to the first empty line, which is left out: scripts/lh is the parts' bodies. In a part,
# a line
#     #lh-include NAME.awk
# stands for the body of that awk file. It sits inside a single-quoted shell word
# (LH_AWK_BASE='...'), so an awk file may hold no single quote. POSIX sh and awk only, as lh.

set -eu

dir=$(dirname "$0")
LC_ALL=C
export LC_ALL
set -- "$dir"/[0-9][0-9]-*.sh
[ -e "$1" ] || { echo "assemble.sh: no parts NN-*.sh in $dir" >&2; exit 1; }

awk -v dir="$dir" '
# fail - say why on stderr and end with status 1
function fail(msg) {
	printf "assemble.sh: %s\n", msg > "/dev/stderr"
	failed = 1
	exit 1
}
# in_header - whether line n (text s) of the source file f is part of its header, which ends at
# its first empty line; fails if f does not open with the SPDX line
function in_header(f, n, s) {
	if (n == 1) {
		if (s != "# SPDX-License-Identifier: GPL-2.0") fail(f ": line 1 is not the SPDX line")
		head = 1
	} else if (head && s == "") {
		head = 0
		return 1
	} else if (head && s !~ /^#/) {
		fail(f ":" n ": the header ends at an empty line, before the code")
	}
	return head
}
# include - print the body of the awk file name (line ln of the part that names it)
function include(name,    f, s, n, r) {
	if (name !~ /^[A-Za-z0-9_-]+\.awk$/) fail(FILENAME ":" FNR ": not an awk file: " name)
	f = dir "/" name
	n = 0
	while ((r = (getline s < f)) > 0) {
		if (in_header(f, ++n, s)) continue
		if (index(s, "\047")) fail(f ":" n ": a single quote (the file goes in a single-quoted word)")
		out[++nout] = s
	}
	close(f)
	if (r < 0) fail(FILENAME ":" FNR ": cannot read " f)
	if (n == 0) fail(f ": empty")
	if (head) fail(f ": no empty line after its header")
}
FNR == 1 && NR > 1 && head { fail(prev ": no empty line after its header") }
{ prev = FILENAME }
in_header(FILENAME, FNR, $0) { next }
/^#lh-include / { include($2); next }
{ out[++nout] = $0 }
# (printed at the end, when every source passed: a broken one prints nothing)
END {
	if (failed) exit 1
	if (head) fail(prev ": no empty line after its header")
	for (i = 1; i <= nout; i++) print out[i]
}
' "$@"
