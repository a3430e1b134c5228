#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo-guest.sh - the part of scripts/demo.sh that runs inside the VM: load latency_hist, run a short
# cyclictest, print the histograms it recorded, unload.
#
# POSIX sh: it runs under the host's root (amd64 guests) and under the busybox user space of the arm64
# guests alike. Environment: LH_MODULE (latency_hist.ko), LH_CYCLICTEST (the command that runs
# cyclictest there: scripts/kernels.sh cyclictest ARCH; default "cyclictest").
#
# Usage: demo-guest.sh --loops N [--pid-filter]

LH_DEBUGFS=/sys/kernel/debug/latency_hist
# the tree (the guest runs in the host's copy of it: scripts/demo.sh's --cwd)
LH_TREE=$(cd "$(dirname "$0")/.." && pwd)

# die - print an error and exit
die()
{
	echo "demo-guest.sh: $*" >&2
	exit 1
}

# show_hist_dir DIR - print what one histogram directory recorded: lh summary (the tool a rig uses,
# from this tree), each CPU's worst case, and the first non-zero rows of each CPU's histogram
show_hist_dir()
{
	[ -d "$LH_DEBUGFS/$1" ] || return 0
	echo "== $1 (lh summary $1, microseconds)"
	sh "$LH_TREE/scripts/lh" summary "$1" || echo "lh summary $1 failed"
	for f in "$LH_DEBUGFS/$1"/max_latency-CPU*; do
		[ -e "$f" ] || continue
		printf '%-22s %s\n' "${f##*/}:" "$(cat "$f")"
	done
	for f in "$LH_DEBUGFS/$1"/CPU*; do
		awk -v cpu="${f##*/}" '
			!/^#/ && $2 != 0 && n < 8 { row[++n] = sprintf("       %5d  %d", $1, $2) }
			END {
				if (n) print cpu ": usecs  samples (first non-zero rows)"
				for (i = 1; i <= n; i++) print row[i]
			}' "$f"
	done
}

# enable_type TYPE - write 1 to an enable switch; report (and continue) if this kernel cannot provide it
enable_type()
{
	if echo 1 >"$LH_DEBUGFS/enable/$1" 2>/dev/null; then
		echo "enabled $1"
	else
		echo "cannot enable $1 on this kernel (see status)"
	fi
}

# filter_first_thread PID - set the wakeup pid filter to the first measuring thread of cyclictest PID
filter_first_thread()
{
	tid=
	tries=0
	while [ -z "$tid" ] && [ "$tries" -lt 50 ]; do
		for t in /proc/"$1"/task/*; do
			t=${t##*/}
			[ "$t" != "$1" ] && [ "$t" != "*" ] && { tid=$t; break; }
		done
		tries=$((tries + 1))
		[ -n "$tid" ] || sleep 1
	done
	[ -n "$tid" ] || { echo "no cyclictest thread found: no pid filter"; return 0; }
	# drop what was recorded before the filter was set, so the histogram shows that thread only
	echo "$tid" >"$LH_DEBUGFS/wakeup/pid" && echo 1 >"$LH_DEBUGFS/wakeup/reset" &&
		echo "wakeup pid filter: $tid (wakeup histogram reset)"
}

loops=2000
pid_filter=0
while [ $# -gt 0 ]; do
	case $1 in
	--loops) loops=$2; shift 2 ;;
	--pid-filter) pid_filter=1; shift ;;
	--no-pid-filter) pid_filter=0; shift ;;
	*) die "unknown argument $1" ;;
	esac
done
case $loops in '' | *[!0-9]*) die "--loops wants a number" ;; esac
[ -n "$LH_MODULE" ] || die "LH_MODULE must name latency_hist.ko"
cyclictest=${LH_CYCLICTEST:-cyclictest}

echo "kernel: $(uname -r) ($(uname -m))   cpus: $(grep -c '^processor' /proc/cpuinfo)"
insmod "$LH_MODULE" || die "insmod $LH_MODULE failed"
[ -d "$LH_DEBUGFS" ] || die "$LH_DEBUGFS does not exist after insmod"
enable_type wakeup
enable_type missed_timer_offsets
enable_type timerandwakeup

# One SCHED_FIFO 90 thread per CPU, pinned (-S = -a -t), all at 1000 us (-d 0), memory locked.
echo "running: cyclictest -m -S -p 90 -i 1000 -d 0 -l $loops -q"
# shellcheck disable=SC2086 # LH_CYCLICTEST is a command line (a loader and its arguments)
$cyclictest -m -S -p 90 -i 1000 -d 0 -l "$loops" -q >/tmp/cyclictest.out 2>&1 &
ct_pid=$!
[ "$pid_filter" = 0 ] || filter_first_thread "$ct_pid"
wait "$ct_pid" || echo "cyclictest exited with $?"
echo "cyclictest (emulated CPU, values are not those of real hardware):"
sed 's/^/    /' /tmp/cyclictest.out
echo
# Off before printing, dependents first: a histogram still recording could take a sample between
# its rows and its max_latency-CPUx, and the two would disagree.
echo 0 >"$LH_DEBUGFS/enable/timerandwakeup"
echo 0 >"$LH_DEBUGFS/enable/missed_timer_offsets"
echo 0 >"$LH_DEBUGFS/enable/wakeup"
echo "recording switched off"

show_hist_dir wakeup
show_hist_dir wakeup/sharedprio
show_hist_dir missed_timer_offsets
show_hist_dir timerandwakeup
echo "== status"
cat "$LH_DEBUGFS/status"

rmmod latency_hist || die "rmmod latency_hist failed"
echo "module unloaded"
