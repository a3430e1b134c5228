#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stress.sh - the long form of the reliability suite (`make stress`): the stress and fault selftests
# with durations and counts far beyond those of the test command, in 4-CPU guests.
#
# Usage: stress.sh [--kernels "6.12-rt 6.12-preempt 7.3-rt-debug"] [--minutes M] [--timeout S]
#   --kernels LIST  flavours as for run-tests.sh (default: the RT kernel and the two debug kernels)
#   --minutes M     how long stress_races.sh storms on each kernel (default 5)
#   --timeout S     per-kernel VM timeout (default: enough for the storm plus an hour)
#
# Per kernel, through scripts/run-tests.sh (so the build, the dmesg check and the verdicts are the
# same as in the test command):
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

LH_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kernels="6.12-rt 6.12-preempt 7.3-rt-debug"
minutes=5
timeout=

while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--minutes) minutes=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	*) echo "stress.sh: unknown argument '$1' (see the usage in $0)" >&2; exit 2 ;;
	esac
done
[[ $minutes =~ ^[1-9][0-9]*$ ]] || { echo "stress.sh: --minutes wants a positive integer" >&2; exit 2; }
timeout=${timeout:-$((minutes * 60 + 3600))}

export LH_TESTS="load_cycles.sh stress_races.sh hotplug.sh fuzz_input.sh fault_inject.sh kmemleak.sh"
export LH_GUEST_ENV="LH_CYCLES=100 LH_STRESS_SECONDS=$((minutes * 60)) LH_HOTPLUG_ROUNDS=50 LH_FUZZ_WRITES=5000 LH_TEST_TIMEOUT=$timeout"
export LH_VM_SMP=4
exec bash "$LH_TOP/scripts/run-tests.sh" --kernels "$kernels" --timeout "$timeout"
