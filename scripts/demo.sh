#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - see latency_hist work: build it for a Debian PREEMPT_RT kernel, boot that kernel in qemu,
# load the module, run a short cyclictest and print the histograms it recorded.
#
# The module is never loaded on this machine: the demo runs in a VM (scripts/vm-run.sh, TCG, so the
# latency values are those of an emulated CPU, far above real hardware; the shape of the output is the
# point). Inside the VM this same script runs with --in-guest.
#
# Usage: demo.sh [--kernel FLAVOUR] [--loops N] [--pid-filter]
#   --kernel      kernel to boot (default 6.12-rt)
#   --loops N     cyclictest loops per thread at 1000 us (default 2000, i.e. about 2 s)
#   --pid-filter  record wakeup latencies of the first cyclictest thread only (wakeup/pid)
# Prints, per CPU and histogram: total samples, min, avg and max (from the header lines) and the
# first non-zero rows; then the status file and the max_latency-CPUx files.
# Works from any directory (/tmp, paths with spaces), as root or as a user with sudo (only to install
# missing tools). Logs: build/logs/R.demo-build.log and R.demo.{log,out,dmesg,result}.
# Exit status: 0 when the histograms were shown; otherwise non-zero after a one-line error.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LH_DEBUGFS=/sys/kernel/debug/latency_hist

# show_hist_dir - print the per-CPU summary of one histogram directory
show_hist_dir() {
	local dir=$1 f cpu total min avg max
	[ -d "$LH_DEBUGFS/$dir" ] || return 0
	echo "== $dir"
	for f in "$LH_DEBUGFS/$dir"/CPU*; do
		cpu=${f##*/}
		total=$(sed -n 's/^#Total samples: //p' "$f")
		min=$(sed -n 's/^#Minimum latency: \([^ ]*\).*/\1/p' "$f")
		avg=$(sed -n 's/^#Average latency: \([^ ]*\).*/\1/p' "$f")
		max=$(sed -n 's/^#Maximum latency: \([^ ]*\).*/\1/p' "$f")
		printf '%-6s total=%s min=%s avg=%s max=%s (microseconds)\n' "$cpu" "$total" "$min" "$avg" "$max"
		if [ "${total:-0}" != 0 ]; then
			echo "       usecs  samples (first non-zero rows)"
			# the rows with a count other than 0 (the `grep -v " 0$" | head` view), without a pipe
			awk '!/^#/ && $2 != 0 { printf "       %5d  %d\n", $1, $2; if (++n == 8) exit }' "$f"
		fi
	done
	for f in "$LH_DEBUGFS/$dir"/max_latency-CPU*; do
		[ -e "$f" ] || continue
		printf '%-22s %s\n' "${f##*/}:" "$(cat "$f")"
	done
}

# enable - write 1 to an enable switch; report (and continue) if this kernel cannot provide it
enable() {
	if echo 1 > "$LH_DEBUGFS/enable/$1" 2>/dev/null; then
		echo "enabled $1"
	else
		echo "cannot enable $1 on this kernel (see status)"
	fi
}

# guest_main - the part that runs inside the VM: load, measure, print, unload
guest_main() {
	local loops=$1 pid_filter=$2 module=${LH_MODULE:?LH_MODULE must name latency_hist.ko} ct_pid
	echo "kernel: $(uname -r)   cpus: $(nproc)"
	insmod "$module" || die "insmod $module failed"
	[ -d "$LH_DEBUGFS" ] || die "$LH_DEBUGFS does not exist after insmod"
	enable wakeup
	enable missed_timer_offsets
	enable timerandwakeup

	# One SCHED_FIFO 90 thread per CPU, pinned (-S = -a -t), all at 1000 us (-d 0), memory locked.
	echo "running: cyclictest -m -S -p 90 -i 1000 -d 0 -l $loops -q"
	cyclictest -m -S -p 90 -i 1000 -d 0 -l "$loops" -q > /tmp/cyclictest.out 2>&1 &
	ct_pid=$!
	if [ "$pid_filter" = 1 ]; then
		# The measuring threads are the children of the main cyclictest thread: filter on the first.
		local tid="" tries=0 t
		while [ -z "$tid" ] && [ "$tries" -lt 50 ]; do
			for t in /proc/"$ct_pid"/task/*; do
				t=${t##*/}
				[ "$t" != "$ct_pid" ] && [ "$t" != "*" ] && { tid=$t; break; }
			done
			tries=$((tries + 1))
			[ -n "$tid" ] || sleep 0.1
		done
		if [ -n "$tid" ]; then
			# Drop what was recorded before the filter was set, so the histogram shows that thread only.
			echo "$tid" > "$LH_DEBUGFS/wakeup/pid" && echo 1 > "$LH_DEBUGFS/wakeup/reset" &&
				echo "wakeup pid filter: $tid (wakeup histogram reset)"
		fi
	fi
	wait "$ct_pid" || echo "cyclictest exited with $?"
	echo "cyclictest (emulated CPU, values are not those of real hardware):"
	sed 's/^/    /' /tmp/cyclictest.out
	echo

	show_hist_dir wakeup
	show_hist_dir wakeup/sharedprio
	show_hist_dir missed_timer_offsets
	show_hist_dir timerandwakeup
	echo "== status"
	cat "$LH_DEBUGFS/status"

	echo 0 > "$LH_DEBUGFS/enable/timerandwakeup" || true
	echo 0 > "$LH_DEBUGFS/enable/missed_timer_offsets" || true
	echo 0 > "$LH_DEBUGFS/enable/wakeup" || true
	rmmod latency_hist || die "rmmod latency_hist failed"
	echo "module unloaded"
}

# host_main - set up, build for the kernel, boot it and run guest_main there
host_main() {
	local kernel=$1 loops=$2 pid_filter=$3 kinfo src blog
	# setup-host.sh and kernels.sh say what went wrong and what to do themselves
	"$LH_SCRIPTS/setup-host.sh" "$kernel" || exit 1
	# shellcheck disable=SC2034 # set by eval of kernels.sh output
	local LH_KREL LH_VMLINUZ LH_KMODDIR LH_KDIR LH_KROOT
	kinfo=$("$LH_SCRIPTS/kernels.sh" fetch "$kernel") || exit 1
	eval "$kinfo"

	src=$LH_TOP/build/$LH_KREL/demo-src
	blog=$LH_LOGS/$LH_KREL.demo-build.log
	mkdir -p "$LH_LOGS" || die "cannot create the log directory $LH_LOGS"
	lh_need_space "$LH_TOP/build" 256 "the module build in $LH_TOP/build"
	echo "demo.sh: building latency_hist for $LH_KREL in $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf - ||
		die "cannot copy the tree to $src (disk full?)"
	make -C "$src" KDIR="$LH_KDIR" > "$blog" 2>&1 || { tail -n 30 "$blog" >&2; die "build failed (log: $blog)"; }
	[ -f "$src/latency_hist.ko" ] || die "the build produced no $src/latency_hist.ko"

	echo "demo.sh: booting $LH_KREL under qemu (TCG) and running the demo there"
	# The guest runs the copy's demo.sh: the command line is shell code, so no host path goes in it.
	"$LH_SCRIPTS/vm-run.sh" --log-dir "$LH_LOGS" --name "$LH_KREL.demo" --cwd "$src" \
		--env "LH_MODULE=$src/latency_hist.ko" "$kernel" -- bash scripts/demo.sh --in-guest --loops "$loops" \
		"$([ "$pid_filter" = 1 ] && echo --pid-filter || echo --no-pid-filter)"
}

# main - parse options and run the host or the guest side
main() {
	local kernel=6.12-rt loops=2000 pid_filter=0 in_guest=0
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) kernel=$2; shift 2 ;;
		--loops) loops=$2; shift 2 ;;
		--pid-filter) pid_filter=1; shift ;;
		--no-pid-filter) pid_filter=0; shift ;;
		--in-guest) in_guest=1; shift ;;
		-h | --help) sed -n '3,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
		*) die "unknown argument $1 (see --help)" ;;
		esac
	done
	case $loops in '' | *[!0-9]*) die "--loops wants a number" ;; esac
	if [ "$in_guest" = 1 ]; then
		guest_main "$loops" "$pid_filter"
	else
		# From a path kbuild cannot build in (white space), go on from a copy; logs stay in build/logs.
		lh_safe_checkout "$@"
		host_main "$kernel" "$loops" "$pid_filter"
	fi
}

main "$@"
