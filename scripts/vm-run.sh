#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh - run one shell command inside a Debian kernel booted under qemu (TCG), and check dmesg.
#
# latency_hist must never be loaded into the kernel of the machine that builds it, so every kernel-side
# test runs in a throw-away VM. KVM is not usable here (and not assumed in CI), so qemu runs with TCG.
#
# Why the host root is shared over 9p: the guest gets the real Debian user space of this machine (bash,
# awk, cyclictest, hackbench, trace-cmd, perf, rtla, the built module and the selftests under the
# checkout) without building or downloading a disk image. The kernel boots a small busybox initramfs
# (scripts/guest-init) that loads the 9p/virtio modules of the booted kernel, mounts the host's / as
# 9p tag "hostroot" and chroots into it.
# What that means:
#   - The guest sees the host filesystem READ-ONLY, as it is at the time of the run. Writable are only
#     the fresh tmpfs mounts /tmp, /run, /var/tmp and /dev/shm (lost at power-off), plus proc, sysfs,
#     devtmpfs, debugfs (/sys/kernel/debug) and tracefs (/sys/kernel/tracing) of the guest kernel.
#   - Those fresh mounts hide the host's /tmp, /run, /var/tmp and /dev: the checkout, the working
#     directory, the cache and every --share DIR under one of them is shared into the guest again, at
#     the same path (read-only, one more 9p device each), so a checkout in /tmp works.
#   - Results must leave the guest on its output: stdout/stderr of the command go to the second serial
#     port and are saved (and streamed) by this script.
#   - /lib/modules/<release> in the guest is the unpacked image from the kernel cache, so modprobe works.
#   - Host daemons, users and network do not exist in the guest; no networking is configured.
#
# Kernels of another architecture (arm64: the matrix's "arch arm64" line with root=busybox): this
# machine's root is amd64, so the guest cannot run it. It gets a busybox-only user space instead: the
# initramfs carries Debian's static busybox of that architecture (busybox-static:arm64, unpacked into
# the cache by `kernels.sh busybox arm64`), guest-init puts it on a fresh tmpfs root, and the checkout,
# the working directory, the cache, the kernel root and every --share DIR are shared into it over 9p at
# their host paths (all of them, not only those under /tmp). Why that is enough, and not an arm64 Debian
# root built with mmdebstrap: the selftests are POSIX sh + awk written for busybox rigs (selftests/lib.sh),
# their programs are static binaries cross-built for the kernel's architecture (run-tests.sh, with the
# LH_UCC of kernels.sh), and what needs a tool busybox lacks (cyclictest, hackbench, trace-cmd, rtla,
# perf) finds it missing and reports a skip saying so, as on a busybox rig. An arm64 Debian root would
# add those tools at the cost of a second-stage debootstrap under qemu-user (minutes on 2 cores, on
# every cold cache) and several hundred MB; the validation suite, which needs them, stays on amd64.
# The command output goes to a virtio console (hvc0): qemu's virt machine has one PL011 serial port,
# which is the kernel console (ttyAMA0). qemu, machine, CPU, console, output device, user space and
# guest modules of each architecture are its arch line in scripts/matrix.conf.
#
# qemu runs (amd64) as: qemu-system-x86_64 -accel tcg,thread=single -cpu max,la57=off -m 2048 -smp 2 -nographic -no-reboot
#   -nic none -kernel <vmlinuz> -initrd <initramfs> -virtfs local,path=/,mount_tag=hostroot,readonly=on,...
#   -serial file:NAME.log (ttyS0, console) -serial file:NAME.out (ttyS1, command output)
#
# Usage: vm-run.sh [options] KERNEL [--] COMMAND...
#   KERNEL         flavour (6.1, 6.1-rt, 6.12, 6.12-rt, 6.12-arm64, ...: scripts/matrix.conf), release, or
#                  kernel build tree (see kernels.sh)
#   COMMAND...     shell code run by /bin/sh in the guest (words are joined with spaces, as ssh does)
# Options:
#   --append STR   extra kernel command line (repeatable); the base is "console=TTY panic=-1 loglevel=4"
#   --icount       add "-icount shift=0,sleep=off" (deterministic-ish instruction timing for benchmarks)
#   --smp N        guest CPUs (default 2)            --mem MB   guest memory (default 2048)
#   --timeout S    kill qemu after S seconds (default $LH_VM_TIMEOUT or 600)
#   --env NAME=VAL environment variable for the command (repeatable)
#   --cwd DIR      working directory of the command (default: the current directory)
#   --log-dir DIR  where logs go (default $LH_LOGS, or <checkout>/build/logs)
#   --share DIR    a host directory the guest must see at the same path (repeatable; needed only under
#                  /tmp, /run, /var/tmp or /dev, and the checkout, --cwd and the cache are shared anyway)
#   --name NAME    base name of the log files (default: the kernel release)
#   --ignore-dmesg ERE   dmesg lines matching ERE are not checked (repeatable)
#   --qemu-arg ARG extra qemu argument (repeatable), e.g. --qemu-arg -cpu --qemu-arg max,la57=off
#   --s3           let an amd64 guest suspend, to RAM (ACPI S3) and to idle, and wake it from here when
#                  it asks (wake_guest below; the guest's tests see LH_VM_WAKE=1, 0 without --s3). No
#                  9p mount works after a resume (its virtio device is reset, and 9p cannot restore
#                  its queue): the guest's user space is busybox in memory, and what it reads after a
#                  resume must be in --ram directories
#   --ram DIR      the guest copies DIR (shared as usual) into its memory at boot, over the 9p mount
#                  (repeatable)
#   --quiet        do not stream the command output to stdout (it is still saved)
# Files written: NAME.log (serial console, incl. the dmesg dump), NAME.out (command output),
#   NAME.dmesg (guest dmesg), NAME.result (key=value summary: status, dmesg, boot_s, elapsed_s, ...).
# Exit status: the command's exit status if the guest ran it and dmesg is clean; 123 if dmesg has
#   warnings/bugs (listed on stderr); 124 on timeout; 125 if the guest did not boot or the rig failed.
# Environment: LH_QEMU (the qemu binary, default: the arch line's qemu=), LH_QEMU_CPU (default: its cpu=),
#   LH_QEMU_ACCEL (below).
#
# The initramfs is cached in $LH_CACHE/initramfs/, keyed by kernel release and the hash of this script
# and guest-init; the command is passed in a second small cpio appended to it for each run.

set -euo pipefail

LH_PROG=vm-run.sh
LH_DIE_STATUS=125
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Lines in the guest dmesg that fail a run (kernel warnings, bugs, lockdep, RCU stalls, kmemleak).
# Lockdep reports start with "WARNING:" or "INFO: possible ..."; the word "lockdep" alone also appears
# in boot banners of lockdep kernels ("RCU lockdep checking is enabled"), so it is not a pattern.
LH_DMESG_BAD='WARNING:|KASAN|UBSAN|(^|[^A-Za-z0-9_])BUG[: ]|Oops|INFO: possible|INFO: trying to register|lockdep is turned off|DEBUG_LOCKS_WARN_ON|INFO: task .* blocked|possible recursive locking|circular locking|inconsistent lock state|sleeping function called|Call Trace:|general protection|[Kk]ernel panic|RCU detected stall|detected stalls|unreferenced object'
# CPU model (the arch line's cpu=). On amd64 "max" with 5-level paging (la57) turned off: under TCG
# every guest page walk costs more with la57, and exec-heavy shell tests ran 2-3x slower with it
# (measured: 100 execs of /bin/cat 25-31 s with plain "max", 10-17 s with la57=off). Override with
# LH_QEMU_CPU.
LH_QEMU_CPU=${LH_QEMU_CPU:-}
# Single-threaded TCG: with one host thread per vCPU (MTTCG) a guest CPU was seen executing a
# stale int3 after the kernel had finished patching a static key (Oops: int3 in enqueue_hrtimer
# while the tests toggled tracepoints); one thread running both vCPUs keeps cross-modifying code
# coherent. It was no slower here (2 host cores, mostly idle guests). An arch line's accel= sets
# another default for its kernels (armhf); override with LH_QEMU_ACCEL.
LH_QEMU_ACCEL=${LH_QEMU_ACCEL:-}
LH_QEMU=${LH_QEMU:-}
# Modules the guest needs to mount the host root (the arch line's modules=; dependencies are resolved
# per kernel, built-in ones are skipped).
LH_GUEST_MODULES=""
# The guest's user space (root=host or busybox), the tty of its kernel console and the device of the
# command output: the arch line of the kernel's architecture sets them.
guest_root=host
guest_console=ttyS0
guest_out=ttyS1

# shq - quote a string for POSIX sh
shq() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# usage - print the header of this script
usage() {
	sed -n '3,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

# module_list - print the .ko paths the guest must insmod, in load order, for an unpacked kernel
module_list() {
	local root=$1 rel=$2 m
	for m in $LH_GUEST_MODULES; do
		# built-in: nothing to load ("builtin NAME")
		modprobe -d "$root" -S "$rel" --show-depends "$m" ||
			die "modprobe --show-depends $m failed for $rel (is 9p a module of this kernel?)"
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }'
}

# build_initramfs - build (or reuse) the cached base initramfs for a kernel; prints its path
build_initramfs() {
	local rel=$1 root=$2 kmoddir=$3 arch=$4 mods key out stage ko base busybox
	mods=$(module_list "$root" "$rel")
	if [ "$arch" = "$(dpkg --print-architecture)" ]; then
		command -v busybox >/dev/null || die "busybox not found: run scripts/setup-host.sh"
		dpkg-query -W -f='${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' ||
			die "busybox-static is not installed: run scripts/setup-host.sh"
		busybox=/bin/busybox
	else
		busybox=$("$LH_SCRIPTS/kernels.sh" busybox "$arch") || exit 125
	fi
	key=$( { cat "$LH_SCRIPTS/guest-init" "${BASH_SOURCE[0]}"; echo "$mods" "$kmoddir" "$guest_root" "$guest_out";
		sha256sum "$busybox"; } | sha256sum | cut -c1-16)
	out=$LH_CACHE/initramfs/$rel-$key.cpio.gz
	if [ -s "$out" ]; then
		touch "$out"
		echo "$out"
		return 0
	fi
	mkdir -p "$LH_CACHE/initramfs"
	stage=$(mktemp -d "$LH_CACHE/initramfs/stage.XXXXXX")
	mkdir -p "$stage/bin" "$stage/dev" "$stage/proc" "$stage/sys" "$stage/newroot" "$stage/lh/modules.d"
	cp "$busybox" "$stage/bin/busybox"
	echo "$guest_root" > "$stage/lh/root"
	echo "$guest_out" > "$stage/lh/outdev"
	cp "$LH_SCRIPTS/guest-init" "$stage/init"
	chmod 755 "$stage/init"
	mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true
	: > "$stage/lh/modules"
	# busybox insmod cannot read compressed modules: decompress .ko.xz/.ko.zst/.ko.gz here.
	for ko in $mods; do
		base=$(basename "$ko")
		case $ko in
		*.ko.xz) base=${base%.xz}; xz -dc "$ko" > "$stage/lh/modules.d/$base" ;;
		*.ko.zst) base=${base%.zst}; zstd -qdc "$ko" > "$stage/lh/modules.d/$base" ;;
		*.ko.gz) base=${base%.gz}; gzip -dc "$ko" > "$stage/lh/modules.d/$base" ;;
		*.ko) cp "$ko" "$stage/lh/modules.d/$base" ;;
		*) die "unexpected module file $ko" ;;
		esac || die "cannot decompress $ko"
		echo "$base" >> "$stage/lh/modules"
	done
	echo "$kmoddir" > "$stage/lh/kmoddir"
	# Guests of one kernel may start at once: each writes its own file and renames it into place.
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) \
		> "$stage.cpio.gz" || die "cpio failed (disk full?)"
	mv "$stage.cpio.gz" "$out"
	rm -rf "$stage"
	# Images of other script versions for this kernel: other checkouts may still use them, so only
	# those unused for a week go.
	find "$LH_CACHE/initramfs" -maxdepth 1 -name "$rel-*.cpio.gz" ! -path "$out" -mtime +7 -delete
	log "built initramfs $out ($(printf '%s\n' "$mods" | grep -c .) modules)"
	echo "$out"
}

# host_tsc_khz - print this machine's TSC rate in kHz (scripts/tsc-khz.c, built once into the cache);
# empty when it cannot be measured (no constant TSC, not x86, no compiler)
host_tsc_khz() {
	local bin=$LH_CACHE/bin/tsc-khz src=$LH_SCRIPTS/tsc-khz.c
	grep -qw constant_tsc /proc/cpuinfo 2> /dev/null || return 0
	if [ ! -x "$bin" ] || [ "$bin" -ot "$src" ]; then
		if ! mkdir -p "$LH_CACHE/bin" || ! gcc -O2 -o "$bin.$$" "$src" 2> /dev/null ||
			! mv "$bin.$$" "$bin"; then
			rm -f "$bin.$$"
			return 0
		fi
	fi
	"$bin" 2> /dev/null || true
}

# write_run_script - write the guest command script (environment, cwd, command) to a file
write_run_script() {
	local file=$1 cwd=$2 cmd=$3 kv
	shift 3
	{
		echo "# generated by scripts/vm-run.sh"
		echo "export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
		echo "export HOME=/root TERM=dumb LC_ALL=C.UTF-8 TMPDIR=/tmp"
		for kv in "$@"; do
			echo "export ${kv%%=*}=$(shq "${kv#*=}")"
		done
		echo "cd $(shq "$cwd") || { echo 'vm-run: the guest cannot see the working directory: share it with --share' >&2; exit 125; }"
		printf '%s\n' "$cmd"
	} > "$file"
}

# make_run_initrd BASE RUNSH SHARES RAMDIRS OUT - append a cpio holding /lh/run.sh, /lh/shares and
# /lh/ramdirs to the base initramfs BASE
make_run_initrd() {
	local base=$1 runsh=$2 shares=$3 ramdirs=$4 out=$5 stage
	stage=$(mktemp -d)
	mkdir -p "$stage/lh"
	cp "$runsh" "$stage/lh/run.sh"
	cp "$shares" "$stage/lh/shares"
	cp "$ramdirs" "$stage/lh/ramdirs"
	{
		cat "$base" || die "cannot read the initramfs $base"
		(cd "$stage" && printf 'lh\nlh/run.sh\nlh/shares\nlh/ramdirs\n' | cpio -o -H newc --quiet -R 0:0 | gzip -1)
	} > "$out" || die "cannot write $out (disk full?)"
	rm -rf "$stage"
}

# guest_hidden - true if a host path is under a directory the guest mounts afresh (so it cannot see it)
guest_hidden() {
	case $1/ in
	/tmp/* | /run/* | /var/tmp/* | /dev/*) return 0 ;;
	esac
	return 1
}

# share_dirs - print the directories of the arguments the guest cannot see, physical, outermost first,
# without those inside another one
# (with guest_root=busybox, every directory of the arguments: the guest has no host root)
share_dirs() {
	local d
	for d in "$@"; do
		[ -d "$d" ] || continue
		d=$(cd "$d" && pwd -P)
		case $d in
		*$'\n'*) die "cannot share a directory with a newline in its name into the guest: $d" ;;
		esac
		if [ "$guest_root" = busybox ] || guest_hidden "$d"; then printf '%s\n' "$d"; fi
	done | LC_ALL=C sort -u |
		awk '{ for (i = 1; i <= n; i++) if (index($0 "/", kept[i] "/") == 1) next; kept[++n] = $0; print }'
}

# qemu_opt_value - escape a value for a qemu "key=value,..." option (a comma is written twice)
qemu_opt_value() {
	printf '%s' "${1//,/,,}"
}

# check_dmesg - print the dmesg lines that indicate a kernel problem (empty if clean)
check_dmesg() {
	local file=$1 ign
	local -a ignores=("${@:2}")
	local lines
	lines=$(grep -E -- "$LH_DMESG_BAD" "$file" || true)
	for ign in "${ignores[@]}"; do
		[ -n "$lines" ] || break
		lines=$(printf '%s\n' "$lines" | grep -Ev -- "$ign" || true)
	done
	printf '%s' "$lines"
}

# wake_guest QEMU_PID OUT MON LOG - wake a --s3 guest that asks for it, until qemu QEMU_PID ends.
# The guest (selftests/lib.sh, lh_suspend) prints "LH-VM-WAKE mode=MODE after=S" on its output OUT
# before it suspends, and "LH-VM-WOKE" once it runs again. S s after the request, and every 5 s
# until the guest says it woke, this presses, on qemu's monitor (the FIFOs MON.in and MON.out, its
# replies logged to LOG): for deep (S3) system_wakeup, which qemu takes only while the machine is
# suspended; for s2idle the ACPI power button (system_powerdown), a fixed event whose SCI is armed
# to wake a kernel suspended to idle (its button driver must be loaded, as lh_suspend sees to).
wake_guest() {
	local qpid=$1 out=$2 mon=$3 log=$4 asked=0 woke n line mode after cmd cpid
	cat "$mon.out" > "$log" 2>/dev/null &
	cpid=$!
	while kill -0 "$qpid" 2>/dev/null; do
		n=$(tr -d '\r' < "$out" | grep -c 'LH-VM-WAKE ' || true)
		if [ "$n" -gt "$asked" ]; then
			asked=$n
			line=$(tr -d '\r' < "$out" | grep 'LH-VM-WAKE ' | tail -n 1)
			mode=$(sed -n 's/.*mode=\([a-z0-9]*\).*/\1/p' <<< "$line")
			after=$(sed -n 's/.*after=\([0-9]*\).*/\1/p' <<< "$line")
			cmd=system_wakeup
			[ "$mode" = s2idle ] && cmd=system_powerdown
			sleep "${after:-5}"
			while kill -0 "$qpid" 2>/dev/null; do
				woke=$(tr -d '\r' < "$out" | grep -c 'LH-VM-WOKE' || true)
				[ "$woke" -lt "$asked" ] || break
				# (a FIFO without a reader would block the open: qemu may just have ended)
				timeout 5 bash -c 'printf "%s\n" "$1" > "$2"' - "$cmd" "$mon.in" || true
				sleep 5
			done
		fi
		sleep 1
	done
	kill "$cpid" 2>/dev/null || true
}

# main - parse options, boot the kernel, run the command, evaluate the results
main() {
	local append="" icount=0 s3=0 ram="" smp=2 mem=2048 timeout=${LH_VM_TIMEOUT:-600} cwd=$PWD
	local logdir=${LH_LOGS:-$LH_TOP/build/logs} name="" quiet=0 kernel cmd
	local -a envs=() ignores=() qextra=() shares=()
	while [ $# -gt 0 ]; do
		case $1 in
		--append) append="$append $2"; shift 2 ;;
		--icount) icount=1; shift ;;
		--s3) s3=1; shift ;;
		--ram) ram="$ram$2"$'\n'; shift 2 ;;
		--smp) smp=$2; shift 2 ;;
		--mem) mem=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		--env) [[ $2 == [A-Za-z_]*=* ]] || die "--env wants NAME=VALUE, got '$2'"; envs+=("$2"); shift 2 ;;
		--cwd) cwd=$2; shift 2 ;;
		--log-dir) logdir=$2; shift 2 ;;
		--name) name=$2; shift 2 ;;
		--ignore-dmesg) ignores+=("$2"); shift 2 ;;
		--qemu-arg) qextra+=("$2"); shift 2 ;;
		--share) shares+=("$2"); shift 2 ;;
		--quiet) quiet=1; shift ;;
		-h | --help) usage; exit 0 ;;
		--) shift; break ;;
		-*) die "unknown option $1 (see --help)" ;;
		*) break ;;
		esac
	done
	[ $# -ge 1 ] || die "no kernel given (see --help)"
	kernel=$1
	shift
	[ "${1:-}" = "--" ] && shift
	[ $# -ge 1 ] || die "no command given (see --help)"
	cmd=$*
	[ -d "$cwd" ] || die "--cwd $cwd is not a directory"
	cwd=$(cd "$cwd" && pwd -P)

	# shellcheck disable=SC2034 # set by eval of kernels.sh output
	local LH_KREL LH_VMLINUZ LH_KMODDIR LH_KDIR LH_KROOT LH_KARCH LH_KMAKE LH_UCC kinfo
	# kernels.sh says what went wrong and what to do itself
	kinfo=$("$LH_SCRIPTS/kernels.sh" fetch "$kernel") || exit 125
	eval "$kinfo"
	# How this architecture boots: its arch line in the matrix.
	local machine tsc_from
	lh_matrix_get arch "$LH_KARCH" qemu | grep -q . ||
		die "scripts/matrix.conf has no arch line for $LH_KARCH (the architecture of $LH_KREL)"
	LH_QEMU=${LH_QEMU:-$(lh_matrix_get arch "$LH_KARCH" qemu)}
	LH_QEMU_CPU=${LH_QEMU_CPU:-$(lh_matrix_get arch "$LH_KARCH" cpu)}
	LH_QEMU_ACCEL=${LH_QEMU_ACCEL:-$(lh_matrix_get arch "$LH_KARCH" accel)}
	LH_QEMU_ACCEL=${LH_QEMU_ACCEL:-tcg,thread=single}
	LH_GUEST_MODULES=$(lh_matrix_get arch "$LH_KARCH" modules | tr ',' ' ')
	machine=$(lh_matrix_get arch "$LH_KARCH" machine)
	guest_root=$(lh_matrix_get arch "$LH_KARCH" root)
	guest_console=$(lh_matrix_get arch "$LH_KARCH" console)
	guest_out=$(lh_matrix_get arch "$LH_KARCH" out)
	tsc_from=$(lh_matrix_get arch "$LH_KARCH" tsc)
	[ "$s3" = 1 ] && guest_root=busybox
	command -v "$LH_QEMU" > /dev/null ||
		die "$LH_QEMU not found: install qemu-system-x86 / qemu-system-arm (scripts/setup-host.sh does)"
	name=${name:-$LH_KREL}
	mkdir -p "$logdir" || die "cannot create the log directory $logdir"
	logdir=$(cd "$logdir" && pwd)

	# Kernels built here (KDIR is their build tree, not a headers package) have lockdep and KASAN:
	# under TCG on a busy host their ACPI interpreter ran into its 30 s AML loop timeout while
	# evaluating the PCI interrupt routing (_PRT), leaving virtio-pci without an interrupt and the
	# 9p root mount hanging. acpi=noirq routes PCI interrupts through the BIOS tables instead.
	[ -e "$LH_KDIR/include/config/kernel.release" ] && append=" acpi=noirq$append"
	# The guest's TSC is this machine's (TCG reads the host TSC), but its kernel calibrates it
	# against the emulated PIT, and when the host is busy that goes wrong: "PIT calibration
	# deviates from HPET: 556639 2591723", the kernel keeps the PIT's 556 MHz, marks the TSC
	# unstable, and local_clock() then stops one tick after the last tick on a CPU with interrupts
	# off, so every irqs-off section reads as at most a tick. Give it the rate (not under -icount,
	# where guest time is instructions). LH_GUEST_TSC_KHZ overrides; 0 leaves it to the guest.
	local tsc_khz=${LH_GUEST_TSC_KHZ:-}
	[ -n "$tsc_khz" ] || [ "$icount" = 1 ] || [ "$tsc_from" != host ] || tsc_khz=$(host_tsc_khz)
	[ -z "$tsc_khz" ] || [ "$tsc_khz" = 0 ] || append=" tsc_early_khz=$tsc_khz$append"

	local base work conlog out dmesg result qerr
	base=$(build_initramfs "$LH_KREL" "$LH_KROOT" "$LH_KMODDIR" "$LH_KARCH")
	work=$(mktemp -d)
	conlog=$logdir/$name.log
	out=$logdir/$name.out
	dmesg=$logdir/$name.dmesg
	result=$logdir/$name.result
	qerr=$work/qemu.stderr
	rm -f "$conlog" "$out" "$dmesg" "$result"
	: > "$conlog"
	: > "$out"
	envs+=("LH_VM_WAKE=$s3")
	write_run_script "$work/run.sh" "$cwd" "$cmd" "${envs[@]}"
	local -a virtfs=()
	local dir n=0
	: > "$work/shares"
	while IFS= read -r dir; do
		virtfs+=(-virtfs "local,path=$(qemu_opt_value "$dir"),mount_tag=lhshare$n,security_model=none,readonly=on,multidevs=remap")
		printf 'lhshare%s %s\n' "$n" "$dir" >> "$work/shares"
		n=$((n + 1))
	done < <(share_dirs "$LH_TOP" "$cwd" "$LH_CACHE" "$LH_KROOT" "${shares[@]}")
	: > "$work/ramdirs"
	while IFS= read -r dir; do
		[ -n "$dir" ] || continue
		[ -d "$dir" ] || die "--ram $dir is not a directory"
		(cd "$dir" && pwd -P) >> "$work/ramdirs"
	done <<< "$ram"
	make_run_initrd "$base" "$work/run.sh" "$work/shares" "$work/ramdirs" "$work/initrd.gz"

	# shellcheck disable=SC2054 # commas are part of qemu option values
	local -a qemu=("$LH_QEMU")
	[ -z "$machine" ] || qemu+=(-M "$machine")
	qemu+=(-accel "$LH_QEMU_ACCEL" -cpu "$LH_QEMU_CPU" -m "$mem" -smp "$smp" -nographic -no-reboot
		-monitor none -nic none -kernel "$LH_VMLINUZ" -initrd "$work/initrd.gz"
		-append "console=$guest_console panic=-1 loglevel=4$append")
	# shellcheck disable=SC2054 # as above
	[ "$guest_root" = busybox ] ||
		qemu+=(-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap)
	qemu+=("${virtfs[@]}" -chardev "file,id=con,path=$(qemu_opt_value "$conlog")" -serial chardev:con
		-chardev "file,id=out,path=$(qemu_opt_value "$out")")
	# shellcheck disable=SC2054 # as above
	case $guest_out in
	hvc0) qemu+=(-device virtio-serial-pci -device virtconsole,chardev=out) ;;
	ttyS1) qemu+=(-serial chardev:out) ;;
	*) die "scripts/matrix.conf: arch $LH_KARCH: unknown out=$guest_out (ttyS1 or hvc0)" ;;
	esac
	[ "$icount" = 1 ] && qemu+=(-icount "shift=0,sleep=off")
	# qemu's PIIX4 power management offers no S3 unless told to; with it the guest's
	# /sys/power/mem_sleep offers deep. Suspend-to-idle is always there. Neither wakes by the
	# guest's RTC alarm here (S3: still asleep minutes later under TCG; s2idle: qemu raises the
	# RTC's ACPI wake event only from S3), so wake_guest wakes it through a monitor on two FIFOs.
	if [ "$s3" = 1 ]; then
		[ "$LH_KARCH" = amd64 ] || die "--s3: only amd64 guests (qemu's PIIX4) suspend to RAM here"
		mkfifo "$work/mon.in" "$work/mon.out"
		# shellcheck disable=SC2054 # as above
		qemu+=(-global PIIX4_PM.disable_s3=0 -chardev "pipe,id=mon,path=$(qemu_opt_value "$work/mon")"
			-mon chardev=mon,mode=readline)
	fi
	qemu+=("${qextra[@]}")

	log "booting $LH_KREL (smp=$smp mem=${mem}M timeout=${timeout}s); console log: $conlog"
	local t0 t1 qpid tpid="" qrc=0
	t0=$(date +%s.%N)
	timeout -k 10 "$timeout" "${qemu[@]}" < /dev/null > "$qerr" 2>&1 &
	qpid=$!
	# If we are interrupted, stop the VM we started (by its pid) before leaving.
	trap 'kill "$qpid" 2>/dev/null; rm -rf "$work"' EXIT
	if [ "$quiet" = 0 ]; then
		tail -n +1 -F --pid="$qpid" "$out" 2>/dev/null | tr -d '\r' &
		tpid=$!
	fi
	local wpid=""
	if [ "$s3" = 1 ]; then
		wake_guest "$qpid" "$out" "$work/mon" "$logdir/$name.monitor" &
		wpid=$!
	fi
	wait "$qpid" || qrc=$?
	if [ -n "$tpid" ]; then wait "$tpid" 2>/dev/null || true; fi
	if [ -n "$wpid" ]; then wait "$wpid" 2>/dev/null || true; fi
	t1=$(date +%s.%N)
	trap 'rm -rf "$work"' EXIT

	# Normalise the serial captures (the guest tty turns \n into \r\n).
	tr -d '\r' < "$conlog" > "$work/con" && cp "$work/con" "$conlog"
	tr -d '\r' < "$out" > "$work/out" && cp "$work/out" "$out"

	local status boot_s elapsed_s verdict=ok rc bad errline
	status=$(sed -n 's/^.*LH-VM-EXIT status=\([0-9]*\).*$/\1/p' "$conlog" | tail -n 1)
	boot_s=$(sed -n 's/^.*LH-VM-START uptime=\([0-9.]*\).*$/\1/p' "$conlog" | tail -n 1)
	elapsed_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	errline=$(grep -a 'LH-VM-ERROR' "$conlog" | head -n 1 || true)
	if grep -q '^LH-VM-DMESG-END' "$conlog"; then
		sed -n '/^LH-VM-DMESG-BEGIN/,/^LH-VM-DMESG-END/{/^LH-VM-DMESG-/d;p}' "$conlog" > "$dmesg"
	else
		# No dump (panic, hang, timeout): the console is the best dmesg we have.
		cp "$conlog" "$dmesg"
	fi
	bad=$(check_dmesg "$dmesg" "${ignores[@]}")
	local dmesg_state=clean
	[ -n "$bad" ] && dmesg_state=bad
	# Without the dump, only console messages (loglevel < 4) were seen: a clean console proves nothing.
	[ -z "$bad" ] && ! grep -q '^LH-VM-DMESG-END' "$conlog" && dmesg_state=unknown

	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		verdict=timeout
		rc=124
		echo "vm-run.sh: FAIL: $LH_KREL: timed out after ${timeout}s; console log: $conlog" >&2
	elif [ -z "$status" ]; then
		verdict=noboot
		rc=125
		echo "vm-run.sh: error: $LH_KREL did not boot to the command (${errline:-no start marker}, qemu exit $qrc): see the console log $conlog; 'scripts/vm-run.sh $kernel true' tries one boot alone" >&2
		echo "vm-run.sh: its last console lines:" >&2
		tail -n 20 "$conlog" | sed 's/^/    /' >&2
		[ -s "$qerr" ] && sed 's/^/    qemu: /' "$qerr" >&2
	else
		rc=$status
	fi
	if [ -n "$bad" ]; then
		if [ "$verdict" = ok ]; then
			verdict=dmesg
			rc=123
		fi
		echo "vm-run.sh: FAIL: $LH_KREL: guest dmesg reports kernel problems ($dmesg):" >&2
		printf '%s\n' "$bad" | head -n 40 | sed 's/^/    /' >&2
	fi
	{
		echo "release=$LH_KREL"
		echo "status=${status:-}"
		echo "verdict=$verdict"
		echo "dmesg=$dmesg_state"
		echo "dmesg_bad_lines=$(printf '%s' "$bad" | grep -c . || true)"
		echo "boot_s=${boot_s:-}"
		echo "elapsed_s=$elapsed_s"
		echo "qemu_exit=$qrc"
	} > "$result"
	log "$LH_KREL: status=${status:-none} dmesg=$dmesg_state boot=${boot_s:-?}s total=${elapsed_s}s"
	exit "$rc"
}

main "$@"
