# SPDX-License-Identifier: GPL-2.0
#
# series.awk - LH_SERIES_AWK, the reader of the series of lh monitor (any
# JSON layout of its records) for lh report and lh plot --over-time.
# 90-report.sh includes it into a single-quoted shell word: no single quote
# below this header. A part of scripts/lh: see assemble.sh.

# sfield - the value of key in a series line: a number, null, or a string
# without its quotes; "" if the line has no such key
function sfield(line, key,    i, s, j) {
	i = index(line, "\"" key "\": ")
	if (!i) return ""
	s = substr(line, i + length(key) + 4)
	if (substr(s, 1, 1) == "\"") {
		s = substr(s, 2)
		return substr(s, 1, index(s, "\"") - 1)
	}
	j = match(s, /[,}]/)
	return j ? substr(s, 1, j - 1) : s
}
# snum - an interval value as a number for ordering: <0 is -1, >=10240 is
# 10240, null is -2
function snum(v) { return v == "null" || v == "" ? -2 : v == "<0" ? -1 : v == ">=10240" ? 10240 : v + 0 }
# torn - warn that the record begun at line sr_at of the piece sr_piece was
# cut short, and forget it
function torn() {
	printf "lh: warning: %s: line %d: a record cut short (a full disk?) is skipped\n", sr_piece, sr_at > "/dev/stderr"
	sr_buf = ""; sr_depth = 0; sr_str = 0; sr_esc = 0
}
# series_scan - add the text s to the record being read, re-laid out;
# returns 1 when the record is complete (the rest of s is dropped). Without
# a backslash, every quote starts or ends a string: only the text between
# strings is walked, a character at a time.
function series_scan(s,    i, n, c, q, k, nq, o, t, nopen, nclose) {
	if (index(s, "\\")) return series_scan_chars(s)
	nq = split(s, q, "\"")
	for (k = 1; k <= nq; k++) {
		if (k > 1) { sr_buf = sr_buf "\""; sr_str = !sr_str }
		if (sr_str) { sr_buf = sr_buf q[k]; continue }
		o = q[k]
		gsub(/[ \t\r]+/, "", o)
		t = o; nopen = gsub(/[[{]/, "", t)
		t = o; nclose = gsub(/[]}]/, "", t)
		# (a piece that cannot close the record is taken whole)
		if (sr_depth - nclose > 0) {
			gsub(/:/, ": ", o); gsub(/,/, ", ", o)
			sr_buf = sr_buf o; sr_depth += nopen - nclose
			continue
		}
		n = length(o)
		for (i = 1; i <= n; i++) {
			c = substr(o, i, 1)
			if (c == " " || c == "\t" || c == "\r") continue
			if (c == "{" || c == "[") sr_depth++
			else if (c == "}" || c == "]") sr_depth--
			sr_buf = sr_buf c (c == ":" || c == "," ? " " : "")
			if (sr_depth == 0) return 1
		}
	}
	return 0
}
# series_scan_chars - series_scan a character at a time (s has escapes)
function series_scan_chars(s,    i, n, c) {
	n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (sr_str) {
			sr_buf = sr_buf c
			if (sr_esc) sr_esc = 0
			else if (c == "\\") sr_esc = 1
			else if (c == "\"") sr_str = 0
			continue
		}
		if (c == " " || c == "\t" || c == "\r") continue
		if (c == "\"") sr_str = 1
		else if (c == "{" || c == "[") sr_depth++
		else if (c == "}" || c == "]") sr_depth--
		sr_buf = sr_buf c (c == ":" || c == "," ? " " : "")
		if (sr_depth == 0) return 1
	}
	return 0
}
# series_take - take the line $0 into the record being read: 1 with a
# complete record in $0, else 0 (the caller goes to the next line). A line
# "#lh-piece PATH" (series_cat) starts a piece.
function series_take(    line, i, o, c) {
	line = $0
	if (substr(line, 1, 10) == "#lh-piece ") {
		if (sr_buf != "") torn()
		sr_piece = substr(line, 11); sr_ln = 0; sr_at = 0
		return 0
	}
	if (substr(line, 1, 8) == "#lh-bad ") {
		printf "lh: error: %s\n", substr(line, 9) > "/dev/stderr"
		lh_failed = 1
		exit 2
	}
	sr_ln++
	# a record lh monitor wrote after one that was cut short, on its line
	i = index(line, "{\"time\": \"")
	if (i > 1 && sr_buf == "") { sr_at = sr_ln; torn(); line = substr(line, i) }
	# the fast path: a whole record in lh layout
	if (sr_buf == "" && i == 1 && substr(line, length(line)) == "}") {
		o = line; c = line
		if (gsub(/[{]/, "", o) == gsub(/[}]/, "", c)) return 1
	}
	if (sr_buf != "" && substr(line, 1, 1) == "{") torn()
	if (sr_buf == "") {
		if (line ~ /^[ \t\r]*$/) return 0
		if (line !~ /^[ \t\r]*\{/) { sr_at = sr_ln; sr_buf = "x"; torn(); return 0 }
		sr_at = sr_ln
	}
	if (!series_scan(line)) return 0
	$0 = sr_buf
	sr_buf = ""
	return 1
}
{ if (!series_take()) next }
END {
	if (lh_failed) exit 2
	if (sr_buf != "") torn()
}
