# SPDX-License-Identifier: GPL-2.0
#
# base.awk - LH_AWK_BASE, the part of the awk library of lh that a program
# reading only the status file needs: fail and bad, the number checks, JSON
# strings, the reader of the status file. 20-read.sh includes it into a
# single-quoted shell word: no single quote below this header. A part of
# scripts/lh: see assemble.sh.

# fail - say why on stderr ("lh: error: ", or "lh: monitor: " where the
# program sets fail_prefix) and end the program with status 2, nothing written
function fail(msg) {
	printf "lh: %s: %s\n", fail_prefix == "" ? "error" : fail_prefix, msg > "/dev/stderr"
	lh_failed = 1
	exit 2
}
# bad - the line $0 (line rd_ln of the file rd_file, which the caller of a
# reader sets) is not in its format
function bad(what) { fail(rd_file ":" rd_ln ": " what ": \"" $0 "\"") }
function is_uint(s) { return s ~ /^[0-9]+$/ }
function is_int(s) { return s ~ /^-?[0-9]+$/ }
function jstr(s,    out, i, c) {
	if (!lh_ord_ready) {
		for (i = 1; i < 256; i++) lh_ord[sprintf("%c", i)] = i
		lh_ord_ready = 1
	}
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\"" || c == "\\") out = out "\\" c
		else if (lh_ord[c] < 32 || lh_ord[c] > 126) out = out sprintf("\\u%04x", lh_ord[c])
		else out = out c
	}
	return "\"" out "\""
}
# status_line - check the status line $0; keep per type st_avail, st_en,
# st_bytes, st_reason, st_switch, st_needs (comma separated or -), st_pid,
# st_slow (syscall_slow_path=1), st_explain, st_outliers (0 or 1 each), and the types in
# st_order[1..st_n]. A status without the switch= field (a latency_hist
# before it) names the switch of each histogram by its first path component.
function status_line(    k) {
	# (blanks at the end are let pass: an edited file may have them)
	if ($0 !~ /^[a-z_\/]+ available=[01] enabled=[01] bytes=[0-9]+( [a-z_]+=[^ =]+)*( reason=.*| *)$/) bad("not a status line")
	st_avail[$1] = substr($2, 11) + 0; st_en[$1] = substr($3, 9) + 0; st_bytes[$1] = substr($4, 7)
	st_reason[$1] = index($0, " reason=") ? substr($0, index($0, " reason=") + 8) : ""
	st_switch[$1] = $1; sub(/\/.*/, "", st_switch[$1])
	st_needs[$1] = "-"; st_pid[$1] = 0; st_slow[$1] = 0; st_explain[$1] = 0; st_outliers[$1] = 0
	for (k = 5; k <= NF && $k !~ /^reason=/; k++) {
		if ($k ~ /^switch=/) st_switch[$1] = substr($k, 8)
		else if ($k ~ /^needs=/) st_needs[$1] = substr($k, 7)
		else if ($k == "pid=1") st_pid[$1] = 1
		else if ($k == "syscall_slow_path=1") st_slow[$1] = 1
		else if ($k == "explain=1") st_explain[$1] = 1
		else if ($k == "outliers=1") st_outliers[$1] = 1
	}
	st_order[++st_n] = $1
}
# status_read - the status file f through status_line (a program whose input
# is not the tree: lh monitor); fails if it cannot be read or is empty
function status_read(f,    n) {
	rd_file = f; rd_ln = 0
	while ((n = (getline < f)) > 0) { rd_ln++; status_line() }
	close(f)
	if (n < 0 || !st_n) fail(f ": cannot read it (module unloaded?)")
}
