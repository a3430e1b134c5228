#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# validate.sh - cross-check latency_hist against tools nobody here wrote, in the same VMs as the
# selftests, and print one table of every check with its figures.
#
# Usage: validate.sh [--kernels "6.12 6.12-rt 6.12-preempt"] [--timeout S] [--no-icount]
#
# The guests run with -icount shift=0,sleep=off (LH_VM_ICOUNT=1): guest time is executed
# instructions, so two probes of one tracepoint are always the same few hundred ns apart and the
# comparisons are not drowned in emulation noise (a vCPU stalled between two probes moves one tool's
# timestamp by milliseconds). The 6.1 kernels hang in that mode: give them with --no-icount, where
# only the checks that do not compare timestamps of different probes hold.
#
# Runs the validate_*.sh selftests listed as TEST_PROGS_EXTENDED in selftests/Makefile (cyclictest,
# hist triggers, injected latencies) through scripts/run-tests.sh on each kernel, then prints, from the "# table:" lines
# they wrote, one row per kernel and check: tool, check, figures, PASS/FAIL. What each check proves
# and why its tolerance is what it is: Documentation/validation.rst.
# Exit status: that of run-tests.sh (0 only if every check passed).

set -euo pipefail

LH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kernels="6.12 6.12-rt 6.12-preempt"
timeout=()
icount=1

while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--timeout) timeout=(--timeout "$2"); shift 2 ;;
	--no-icount) icount=0; shift ;;
	*) echo "validate.sh: unknown argument '$1' (see the usage in $0)" >&2; exit 2 ;;
	esac
done

tests=$(awk '/^TEST_PROGS_EXTENDED[ \t]*[:+]?=/ && /validate_/ { sub(/^[^=]*=/, ""); printf "%s ", $0 }' \
	"$LH_TOP/selftests/Makefile")
[ -n "$tests" ] || { echo "validate.sh: no TEST_PROGS_EXTENDED in selftests/Makefile" >&2; exit 2; }

status=0
rm -f "$LH_TOP"/build/logs/*.out	# the table is of this run only
LH_VM_ICOUNT=$icount LH_TESTS=$tests bash "$LH_TOP/scripts/run-tests.sh" --kernels "$kernels" "${timeout[@]}" || status=$?

echo
echo "== validation table"
printf '%-26s | %-13s | %-46s | %-48s | %s\n' kernel tool check figures result
for out in "$LH_TOP"/build/logs/*.out; do
	[ -e "$out" ] || continue
	rel=$(basename "$out" .out)
	sed -n 's/^# # table: //p' "$out" | awk -F' [|] ' -v rel="$rel" '{
		split($1, tc, ": ")
		printf "%-26s | %-13s | %-46s | %-48s | %s\n", rel, tc[1], tc[2], $2, $3 }'
done
exit "$status"
