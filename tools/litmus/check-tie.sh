#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-tie.sh - tie each litmus test of tools/litmus/ to the code it models: every barrier a test's
# header names must still be in the function it names. A barrier deleted from the module (or a
# function renamed or moved) then fails here, on the host, without herd7.
#
# Each tools/litmus/*.litmus has, in its header comment, one line or more of the fixed form
#
#    * Code: PATH FUNCTION() BARRIER...
#
# PATH a C file or header of the tree (module/*.c, include/latency_hist/*.h), FUNCTION() a function
# defined there (or a macro: #define FUNCTION(...)), each BARRIER an identifier that must be called in
# that function's body, comments left out: smp_store_release, smp_load_acquire, READ_ONCE,
# WRITE_ONCE, smp_mb, smp_rmb, smp_wmb, a fully ordered or _release/_acquire atomic, a lock function
# (lh_hist_lock, arch_spin_lock...), rcu_assign_pointer, tracepoint_synchronize_unregister... One
# test point per Code line; a test without a Code line fails. tools/litmus/races/ models races the
# code has or had and is not tied.
#
# Usage: check-tie.sh [TEST.litmus...]   (default: every tools/litmus/*.litmus)
# Output: KTAP, ending with "# Totals:". Exit status: 0 if every line held.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# body FILE FUNCTION - print the body of FUNCTION in FILE (from its definition, a line at column 0
# naming it and followed by a "{" line before any ";", to the "}" at column 0; or its #define and
# the continuation lines), comments removed; nothing if FILE does not define it
body() {
	awk -v fn="$2" '
		function decomment(s,    out, i) {
			out = ""
			while (s != "") {
				if (incomment) {
					i = index(s, "*/")
					if (!i) return out
					s = substr(s, i + 2); incomment = 0
					continue
				}
				i = index(s, "/*")
				j = index(s, "//")
				if (j && (!i || j < i)) return out substr(s, 1, j - 1)
				if (!i) return out s
				out = out substr(s, 1, i - 1); s = substr(s, i + 2); incomment = 1
			}
			return out
		}
		{ line = decomment($0) }
		state == "macro" { print line; if ($0 !~ /\\$/) exit; next }
		state == "body" { print line; if ($0 ~ /^}/) exit; next }
		state == "head" && $0 ~ /^{/ { state = "body"; print line; next }
		state == "head" && line ~ /;[[:space:]]*$/ { state = "" }
		state == "" && line ~ ("^#define[[:space:]]+" fn "\\(") {
			state = "macro"; print line; if ($0 !~ /\\$/) exit; next
		}
		state == "" && line ~ /^[A-Za-z_]/ && line ~ ("(^|[^A-Za-z0-9_])" fn "\\(") {
			state = "head"
			if (line ~ /;[[:space:]]*$/) state = ""
		}' "$1"
}

main() {
	local t name n=0 pass=0 fail=0 path fn b body_text missing lines
	local -a tests
	shopt -s nullglob
	if [ $# -gt 0 ]; then tests=("$@"); else tests=("$TOP"/tools/litmus/*.litmus); fi
	lines=$(for t in "${tests[@]}"; do
		grep -c '^ \* Code: ' "$t" || echo 1	# a test without Code lines is one point, failed
	done | awk '{ s += $1 } END { print s + 0 }')
	echo "KTAP version 1"
	echo "1..$lines"
	for t in "${tests[@]}"; do
		name=$(basename "$t" .litmus)
		if ! grep -q '^ \* Code: ' "$t"; then
			n=$((n + 1)); fail=$((fail + 1))
			echo "not ok $n $name # no \" * Code: PATH FUNCTION() BARRIER...\" line in its header"
			continue
		fi
		while read -r _ _ path fn barriers; do
			n=$((n + 1))
			fn=${fn%()}
			if [ ! -f "$TOP/$path" ]; then
				fail=$((fail + 1))
				echo "not ok $n $name $path $fn() # $path: no such file"
				continue
			fi
			body_text=$(body "$TOP/$path" "$fn")
			if [ -z "$body_text" ]; then
				fail=$((fail + 1))
				echo "not ok $n $name $path $fn() # $path defines no $fn()"
				continue
			fi
			missing=""
			for b in $barriers; do
				grep -Eq "(^|[^A-Za-z0-9_])${b}[[:space:]]*\(" <<< "$body_text" || missing="$missing $b"
			done
			if [ -n "$missing" ]; then
				fail=$((fail + 1))
				echo "not ok $n $name $path $fn() # no longer calls:$missing"
			else
				pass=$((pass + 1))
				echo "ok $n $name $path $fn() # calls $barriers"
			fi
		done < <(grep '^ \* Code: ' "$t")
	done
	echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
	[ "$fail" = 0 ]
}

main "$@"
