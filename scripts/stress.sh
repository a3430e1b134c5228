#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stress.sh - the long form of the reliability suite (`make stress`): the stress and fault selftests
# with durations and counts far beyond those of the test command, in 4-CPU guests.
#
# Usage: stress.sh [--kernels LIST] [--minutes M] [--timeout S]
#   --kernels LIST  flavours as for run-tests.sh (default: the "stress" suite of scripts/matrix.conf, the
#                   RT kernel, the two debug kernels and the arm64 RT kernel, in 4-CPU guests)
#   --minutes M     how long stress_races.sh storms on each kernel (default 5)
#   --timeout S     per-kernel VM timeout (default: enough for the storm plus an hour)
#
# Per kernel, through scripts/run-tests.sh --suite stress (so the build, the dmesg check and the verdicts
# are the same as in the test command; the tests are the matrix's set "stress"):
#   load_cycles.sh     100 load/enable/record/unload cycles (LH_CYCLES=100)
#   stress_races.sh    readers of every file against resets, toggles, pid and counter changes under
#                      hackbench and SCHED_FIFO sleepers for M minutes
#   hotplug.sh         50 rounds of CPUs 1-3 going offline and online while recording
#   fuzz_input.sh      5000 malformed writes to every control and parameter
#   fault_inject.sh    every slab allocation of an enable and of the load failed in turn (failslab)
#   kmemleak.sh        100 cycles, then a kmemleak scan (debug kernels)
# What each proves, and the soak (hours on an RT kernel, not part of this): Documentation/stress.rst.
# Exit status: that of run-tests.sh.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
kernels=$(lh_matrix_kernels stress)
minutes=5
timeout=

while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--minutes) minutes=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	*) LH_DIE_STATUS=2 die "unknown argument '$1' (see the usage in $0)" ;;
	esac
done
[[ $minutes =~ ^[1-9][0-9]*$ ]] || LH_DIE_STATUS=2 die "--minutes wants a positive integer"
timeout=${timeout:-$((minutes * 60 + 3600))}

export LH_GUEST_ENV="LH_CYCLES=100 LH_STRESS_SECONDS=$((minutes * 60)) LH_HOTPLUG_ROUNDS=50 LH_FUZZ_WRITES=5000 LH_TEST_TIMEOUT=$timeout"
exec bash "$LH_SCRIPTS/run-tests.sh" --suite stress --kernels "$kernels" --timeout "$timeout"
