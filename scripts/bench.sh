#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - the latency_hist benchmark: overhead against the floor and the peers, memory, read cost.
#
# For each kernel: build latency_hist.ko and the benchmark modules in a copy of the tree, boot the
# kernel ONCE under qemu with -icount shift=0,sleep=off (guest time = executed instructions, so a figure
# is a deterministic instruction count, not host-load noise) and run bench/guest-bench.sh there:
# alternating rounds of every configuration (unloaded; loaded, nothing enabled; empty probes; each type
# alone; wakeup+missed_timer_offsets+timerandwakeup; all; the hist-trigger recipe; trace-event
# recording) under four workloads (bench/rt_pingpong, perf bench sched pipe, hackbench, perf bench
# syscall basic: the price of switchtime's slow system-call path), then the in-kernel probe
# microbenchmark (bench/lh_probe_bench.c) and memory. A kernel whose arch boots busybox (arm64, armhf:
# no bash, no perf) runs the microbenchmark alone, bench/guest-micro.sh, with the default clock and
# clock=kernel in the same boot. Optionally one more boot with
# many vCPUs measures memory and the cost of reading every CPUx file. bench/report.awk writes
# the markdown report with medians, spread and the budget ratios of issue 8.
#
# This is a benchmark, not a test: it is not part of scripts/run-tests.sh.
#
# Usage: scripts/bench.sh [options]
#   --kernels "K..."   kernels (flavour, release or build tree; default: the "bench" suite of
#                      scripts/matrix.conf: 6.12, 6.12-rt, 6.12-rt-arm64, 6.1-rt-armhf)
#   --smp "N..."       vCPUs of the benchmark boots (default 2): each kernel boots once per count, and
#                      the report compares the per-sample cost across them (scale, issue 19); a boot
#                      with N != 2 writes <release>-cpuN.out
#   --smp-mem N        also boot the first kernel with N vCPUs for memory/read cost (0 = skip; default 0;
#                      not a busybox guest's: its guest runs the microbenchmark alone)
#   --rounds N         measured rounds after one warm-up round (default 3)
#   --quick            tiny sizes, one round: checks that everything runs (about 1/10 of the time)
#   --micro-only       run only the probe microbenchmark in each boot
#   --out DIR          results (default build/bench); the report is DIR/report.md
#   --append STR       extra guest kernel command line (e.g. tsc=reliable: the TSC clock of the module)
# Environment passed to the guest: PP_LOOPS PERF_LOOPS HB_LOOPS SYS_LOOPS MICRO_CALLS CONFIGS WORKLOADS
#   WAKER_GAP MICRO_ONLY (bench/guest-bench.sh).
# Exit status: 0 if every boot ran to the end with a clean dmesg, 1 otherwise.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# From a path kbuild cannot build in (white space), go on from a copy; results stay in this checkout.
lh_safe_checkout "$@"
kernels=$(lh_matrix_kernels bench)
smp_mem=0
smp_list=2
rounds=3
quick=0
mode=run
append=()
out=$(dirname "$LH_LOGS")/bench

# usage - print the header of this script
usage() {
	sed -n '3,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

while [ $# -gt 0 ]; do
	case $1 in
	--kernels) kernels=$2; shift 2 ;;
	--smp) smp_list=$2; shift 2 ;;
	--smp-mem) smp_mem=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--micro-only) mode=micro; shift ;;
	--out) out=$2; shift 2 ;;
	--append) append+=(--append "$2"); shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
done

for n in $smp_list $smp_mem; do
	case $n in
	''|*[!0-9]*) echo "bench.sh: --smp and --smp-mem take vCPU counts, not '$n'" >&2; exit 2 ;;
	esac
done
for n in $smp_list; do
	[ "$n" -ge 1 ] || { echo "bench.sh: --smp: at least 1 vCPU" >&2; exit 2; }
done

mkdir -p "$out"
out=$(cd "$out" && pwd)
make -s -C "$LH_TOP/bench" >/dev/null

# build_for SRC KDIR BUSYBOX - build latency_hist.ko and the bench modules for one kernel in a tree
# copy, with the kernel's make arguments ($LH_KMAKE: cross builds, 5.10's gcc-10); the bench's user
# programs too unless the guest boots busybox (it runs guest-micro.sh, which needs none)
build_for() {
	local src=$1 kdir=$2 busybox=$3
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
	# shellcheck disable=SC2086 # LH_KMAKE is a list of make arguments
	make -C "$src" KDIR="$kdir" $LH_KMAKE && make -C "$src/bench" KDIR="$kdir" $LH_KMAKE modules &&
		{ [ "$busybox" = 1 ] || make -s -C "$src/bench"; }
}

# guest_env - set the array genv to the --env options of the guest script
guest_env() {
	local src=$1 v
	genv=(--env "LH_MODULE=$src/latency_hist.ko" --env "LH_BENCH_DIR=$src/bench")
	if [ "$quick" = 1 ]; then
		genv+=(--env ROUNDS=1 --env PP_LOOPS=2000 --env PERF_LOOPS=2000 --env HB_LOOPS=20
			--env SYS_LOOPS=5000 --env MICRO_CALLS=100000)
	else
		genv+=(--env "ROUNDS=$rounds")
	fi
	for v in PP_LOOPS PERF_LOOPS HB_LOOPS SYS_LOOPS MICRO_CALLS CONFIGS WORKLOADS WAKER_GAP MICRO_ONLY; do
		if [ -n "${!v:-}" ]; then genv+=(--env "$v=${!v}"); fi
	done
}

rc=0
first_src=
first_k=
results=()
genv=()
for k in $kernels; do
	# shellcheck disable=SC2034 # set by eval
	LH_KREL='' LH_VMLINUZ='' LH_KMODDIR='' LH_KDIR='' LH_KROOT=''
	if ! kinfo=$("$LH_SCRIPTS/kernels.sh" fetch "$k"); then
		log "$k: cannot fetch the kernel (see the message above)"
		rc=1
		continue
	fi
	eval "$kinfo"
	src=$LH_TOP/build/bench/$LH_KREL/src
	# A busybox guest (arm64, armhf) has neither bash nor perf: it runs the microbenchmark alone
	# (guest-micro.sh). -icount needs single-threaded TCG: an arch whose guests need more threads
	# (armhf: with 2 vCPUs on one thread its guest stops at the first open of its console) boots
	# its benchmark with 1 vCPU.
	busybox=0 ksmp=$smp_list gscript=(bash ./guest-bench.sh) what=""
	if [ "$(lh_matrix_get arch "$LH_KARCH" root)" = busybox ]; then
		busybox=1 gscript=(sh ./guest-micro.sh) what=", the microbenchmark alone"
		case $(lh_matrix_get arch "$LH_KARCH" accel) in
		*thread=multi*) ksmp=1 ;;
		esac
	fi
	log "== $k ($LH_KREL): build"
	if ! build_for "$src" "$LH_KDIR" "$busybox" > "$out/$LH_KREL.build.log" 2>&1; then
		log "build failed, see $out/$LH_KREL.build.log"
		rc=1
		continue
	fi
	[ -n "$first_src" ] || [ "$busybox" = 1 ] || { first_src=$src; first_k=$k; }
	guest_env "$src"
	for n in $ksmp; do
		name=$LH_KREL gmode=$mode
		# memory and read cost with many vCPUs are --smp-mem's
		[ "$n" = 2 ] || [ "$ksmp" = 1 ] || { name=$LH_KREL-cpu$n; [ "$mode" = micro ] || gmode=scale; }
		log "== $k ($LH_KREL): benchmark boot (-icount, $n vCPUs$what)"
		# many vCPUs boot slowly under TCG: more memory and time
		if ! LH_QEMU_ACCEL=${LH_QEMU_ACCEL:-$([ "$n" = 1 ] && echo tcg,thread=single)} \
			"$LH_SCRIPTS/vm-run.sh" --icount --quiet --smp "$n" --mem $((n > 16 ? 4096 : 2048)) \
			--timeout $((3000 + 60 * n)) --log-dir "$out" --name "$name" "${append[@]}" \
			--cwd "$src/bench" "${genv[@]}" "$k" -- "${gscript[@]}" "$gmode"; then
			log "$k: the $n-vCPU benchmark boot failed (see $out/$name.log)"
			rc=1
		fi
		results+=("$out/$name.out")
	done
done

if [ "$smp_mem" -gt 0 ] && [ -n "$first_src" ]; then
	log "== $first_k: memory and read cost with $smp_mem vCPUs"
	name=$(basename "$(dirname "$first_src")")-smp$smp_mem
	guest_env "$first_src"
	if ! "$LH_SCRIPTS/vm-run.sh" --icount --quiet --smp "$smp_mem" --mem 4096 --timeout 3000 \
		"${append[@]}" --log-dir "$out" --name "$name" --cwd "$first_src/bench" "${genv[@]}" \
		"$first_k" -- bash ./guest-bench.sh mem; then
		log "the $smp_mem-vCPU boot failed (see $out/$name.log)"
		rc=1
	fi
	results+=("$out/$name.out")
fi

[ "${#results[@]}" -gt 0 ] || exit 1
awk -f "$LH_TOP/bench/report.awk" "${results[@]}" > "$out/report.md"
log "report: $out/report.md"
exit "$rc"
