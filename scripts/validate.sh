#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# validate.sh - cross-check latency_hist against tools nobody here wrote, in the same VMs as the
# selftests, and print one table of every check with its figures.
#
# Usage: validate.sh [--kernels LIST] [--timeout S] [--no-icount]
#   --kernels LIST  default: the "validate" suite of scripts/matrix.conf (6.12, 6.12-rt, 6.12-preempt)
#
# The guests run with -icount shift=0,sleep=off (icount=1 in the matrix; LH_VM_ICOUNT=1 in the guest):
# guest time is executed
# instructions, so two probes of one tracepoint are always the same few hundred ns apart and the
# comparisons are not drowned in emulation noise (a vCPU stalled between two probes moves one tool's
# timestamp by milliseconds). The 6.1 kernels hang in that mode: give them with --no-icount, where
# only the checks that do not compare timestamps of different probes hold.
#
# Runs the validate_*.sh selftests (the matrix's set "validate"; cyclictest, hist triggers, trace-cmd,
# rtla, injected latencies, and every sample of every type against ftrace; the irq type's in a
# threadirqs boot of 6.12) through scripts/run-tests.sh --suite validate on each kernel, then prints,
# from the "# table:" lines they wrote (the extra boots' too), one row per kernel and check: tool,
# check, figures, PASS/FAIL. What each check proves
# and why its tolerance is what it is: Documentation/validation.rst.
# Exit status: that of run-tests.sh (0 only if every check passed).

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
kernels=$(lh_matrix_kernels validate)
args=()
command="${LH_TESTS:+LH_TESTS=\"$LH_TESTS\" }$0 $*"	# the table says which command made it

while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--timeout) args+=(--timeout "$2"); shift 2 ;;
	--no-icount) args+=(--no-icount); shift ;;
	*) LH_DIE_STATUS=2 die "unknown argument '$1' (see the usage in $0)" ;;
	esac
done

# run-tests.sh may go on from a copy of the checkout; its logs stay in this checkout's build/logs
logs=${LH_LOGS:-$LH_TOP/build/logs}
status=0
rm -f "$logs"/*.out	# the table is of this run only
bash "$LH_SCRIPTS/run-tests.sh" --suite validate --kernels "$kernels" "${args[@]}" || status=$?

echo
echo "== validation table ($command, $(date -u +%Y-%m-%d))"
printf '%-26s | %-13s | %-46s | %-48s | %s\n' kernel tool check figures result
for out in "$logs"/*.out; do
	[ -e "$out" ] || continue
	rel=$(basename "$out" .out)
	sed -n 's/^# # table: //p' "$out" | awk -F' [|] ' -v rel="$rel" '{
		split($1, tc, ": ")
		printf "%-26s | %-13s | %-46s | %-48s | %s\n", rel, tc[1], tc[2], $2, $3 }'
done
exit "$status"
