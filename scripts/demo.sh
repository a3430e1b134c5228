#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - see latency_hist work: build it for a Debian PREEMPT_RT kernel, boot that kernel in qemu,
# load the module, run a short cyclictest and print the histograms it recorded.
#
# The module is never loaded on this machine: the demo runs in a VM (scripts/vm-run.sh, TCG, so the
# latency values are those of an emulated CPU, far above real hardware; the shape of the output is the
# point). Inside the VM, scripts/demo-guest.sh (POSIX sh) loads the module, runs cyclictest and prints:
# under this machine's root on amd64 kernels, under the busybox user space on arm64 ones, with Debian's
# rt-tests:arm64 from the cache (scripts/kernels.sh cyclictest arm64).
#
# Usage: demo.sh [--kernel FLAVOUR] [--loops N] [--pid-filter]
#   --kernel      kernel to boot (default 6.12-rt; 6.12-rt-arm64 boots the arm64 one under TCG)
#   --loops N     cyclictest loops per thread at 1000 us (default 2000, i.e. about 2 s)
#   --pid-filter  record wakeup latencies of the first cyclictest thread only (wakeup/pid)
# Prints, once cyclictest is done and the types are switched off (so that each histogram and its
# max_latency-CPUx are of the same samples), lh summary of each type (samples, min, mean, percentiles
# and max per CPU), the max_latency-CPUx files and the first non-zero rows of each CPU's histogram;
# then the status file.
# Works from any directory (/tmp, paths with spaces), as root or as a user with sudo (only to install
# missing tools). Logs: build/logs/R.demo-build.log and R.demo.{log,out,dmesg,result}.
# Exit status: 0 when the histograms were shown; otherwise non-zero after a one-line error.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# host_main - set up, build for the kernel, boot it and run guest_main there
host_main() {
	local kernel=$1 loops=$2 pid_filter=$3 kinfo src blog cyclictest
	# setup-host.sh and kernels.sh say what went wrong and what to do themselves
	# (the demo profile: the VM rig and the module's build, not the test rig's services and tools)
	"$LH_SCRIPTS/setup-host.sh" --profile demo "$kernel" || exit 1
	# shellcheck disable=SC2034 # set by eval of kernels.sh output
	local LH_KREL LH_VMLINUZ LH_KMODDIR LH_KDIR LH_KROOT LH_KARCH LH_KMAKE LH_UCC
	kinfo=$("$LH_SCRIPTS/kernels.sh" fetch "$kernel") || exit 1
	eval "$kinfo"
	cyclictest=$("$LH_SCRIPTS/kernels.sh" cyclictest "$LH_KARCH") || exit 1

	src=$LH_TOP/build/$LH_KREL/demo-src
	blog=$LH_LOGS/$LH_KREL.demo-build.log
	mkdir -p "$LH_LOGS" || die "cannot create the log directory $LH_LOGS"
	lh_need_space "$LH_TOP/build" 256 "the module build in $LH_TOP/build"
	echo "demo.sh: building latency_hist for $LH_KREL in $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf - ||
		die "cannot copy the tree to $src (disk full?)"
	# shellcheck disable=SC2086 # LH_KMAKE: ARCH= CROSS_COMPILE= of a cross build, or empty
	make -C "$src" KDIR="$LH_KDIR" $LH_KMAKE > "$blog" 2>&1 ||
		{ tail -n 30 "$blog" >&2; die "build failed (log: $blog)"; }
	[ -f "$src/latency_hist.ko" ] || die "the build produced no $src/latency_hist.ko"

	echo "demo.sh: booting $LH_KREL under qemu (TCG) and running the demo there"
	# The guest runs the copy's demo-guest.sh: the command line is shell code, so no host path goes in it.
	"$LH_SCRIPTS/vm-run.sh" --log-dir "$LH_LOGS" --name "$LH_KREL.demo" --cwd "$src" \
		--env "LH_MODULE=$src/latency_hist.ko" --env "LH_CYCLICTEST=$cyclictest" "$kernel" -- \
		sh scripts/demo-guest.sh --loops "$loops" \
		"$([ "$pid_filter" = 1 ] && echo --pid-filter || echo --no-pid-filter)"
}

# main - parse options and run the demo
main() {
	local kernel=6.12-rt loops=2000 pid_filter=0
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) kernel=$2; shift 2 ;;
		--loops) loops=$2; shift 2 ;;
		--pid-filter) pid_filter=1; shift ;;
		--no-pid-filter) pid_filter=0; shift ;;
		-h | --help) sed -n '3,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
		*) die "unknown argument $1 (see --help)" ;;
		esac
	done
	case $loops in '' | *[!0-9]*) die "--loops wants a number" ;; esac
	# From a path kbuild cannot build in (white space), go on from a copy; logs stay in build/logs.
	lh_safe_checkout "$@"
	host_main "$kernel" "$loops" "$pid_filter"
}

main "$@"
