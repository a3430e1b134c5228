#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# setup-host.sh - install the tools building and testing latency_hist needs on a Debian 12 host.
#
# The rig builds the module against the Debian headers of each test kernel and boots those kernels under
# qemu with this machine's root filesystem shared read-only into the guest (see scripts/vm-run.sh), so
# the tools the in-guest tests use (cyclictest, hackbench, trace-cmd, perf, rtla, bash, gawk) are
# installed here, on the host. Kernel images and headers are NOT installed: scripts/kernels.sh unpacks
# them into a cache, so no package that owns a file in /boot is ever installed, and no initramfs or GRUB
# trigger runs.
# Kernels of another architecture (arm64) need more: the packages= of their arch line in
# scripts/matrix.conf (qemu-system-arm, the cross compiler and its libc for the static test programs);
# those are host tools of this machine's architecture. Nothing of arm64 is installed: the kernels and
# the guest's busybox come from a private apt state in the cache (see kernels.sh); dpkg's list of
# architectures stays as it is.
#
# Usage: setup-host.sh [--profile demo|packaging|test] [--list] [KERNEL...]
#   KERNEL     flavour or release (default: the kernels of scripts/matrix.conf); used to check that apt's
#              package lists know the kernel packages
#   --profile  what the machine is for (default test):
#                demo       scripts/demo.sh: build the module for a kernel, boot it in qemu, cyclictest
#                packaging  build and check the packages (scripts/test-packages.sh, the README's
#                           build dependencies)
#                test       everything: the test command (the package test included), validate,
#                           bench, stress; prometheus and node-exporter for lh prom's test
#   --list     print the packages of the profile (and of the kernels' architectures), one a line,
#              and install nothing
#
# Idempotent and quick when nothing is missing: apt is only run (apt-get update, then apt-get install
# with --no-install-recommends) if dpkg-query reports a package as not installed, or if the package
# lists do not know the kernels yet. Runs non-interactively.
# Needs root (uses sudo when run as another user and sudo is available).

set -euo pipefail

# shellcheck source=kernels.sh
. "$(dirname "${BASH_SOURCE[0]}")/kernels.sh"
LH_PROG=setup-host.sh

# The packages of each profile. demo: the VM rig and the module's build against Debian's headers (gcc-12
# and pahole are what the headers packages depend on: their Makefiles call gcc-12; 6.12's make BTF for
# modules with pahole), cyclictest for the guest. packaging: build-essential, debhelper, dh-dkms and
# python3-docutils are the build dependencies the README names; fakeroot, lintian, mmdebstrap, man-db
# and dkms build, check and try the Debian packages (scripts/test-packages.sh); rpm builds the RPM
# (latency-hist.spec).
# test: both, plus what the kernels built here need (bc, flex, bison, libssl-dev; openssl makes the
# module signing key of the kernels built with MODULE_SIG, 6.12-preempt), the in-guest tools
# (trace-cmd, perf, rtla, bash, gawk), sparse, gnuplot for lh plot, and prometheus (with promtool) and
# prometheus-node-exporter, the real parts lh prom is tested against (selftests/lh_host/
# test_prom_fleet.sh); their services do not start (the test runs its own on free loopback ports)
# where policy-rc.d forbids it, and do no harm where they do; chromium renders lh report --html
# headless (selftests/lh_host/test_report_html.sh).
LH_DEMO_PACKAGES="qemu-system-x86 busybox-static cpio kmod xz-utils zstd gcc gcc-12 make libc6-dev
libelf-dev pahole debian-archive-keyring rt-tests"
LH_PACKAGING_PACKAGES="build-essential debhelper dh-dkms python3-docutils fakeroot lintian mmdebstrap
man-db rpm dkms"
LH_TEST_PACKAGES="$LH_DEMO_PACKAGES $LH_PACKAGING_PACKAGES bc flex bison libssl-dev openssl python3 trace-cmd
linux-perf rtla sparse gawk git tar coreutils util-linux gnuplot-nox prometheus prometheus-node-exporter
chromium"

# apt_update - refresh apt's package lists; remember the first list it could not fetch in apt_failed
apt_update() {
	local out
	# apt-get update exits 0 when it cannot reach a mirror (it warns and keeps the old lists): the
	# callers check that the lists know what they need, and say why they may not.
	out=$(lh_as_root apt-get update -q 2>&1) || { printf '%s\n' "$out" >&2; die "apt-get update failed (apt says why above)"; }
	printf '%s\n' "$out" >&2
	apt_failed=$(printf '%s\n' "$out" | sed -n 's/^W: Failed to fetch *//p' | head -n 1)
}

# arch_packages - print the extra host packages the architectures of the given kernels need (matrix)
arch_packages() {
	local k
	for k in "$@"; do
		[ -d "$k" ] && continue
		lh_arch_get "$(lh_kernel_arch "$k")" packages | tr ',' '\n'
	done | sort -u
}

# missing_packages - print the packages of the arguments that are not installed
missing_packages() {
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || echo "$p"
	done
}

# kernels_resolve - true if apt's package lists know the packages of every requested kernel
kernels_resolve() {
	local k
	for k in "$@"; do
		# Kernels built here (and build trees) come from build-kernel.sh, not from a binary package.
		if [ -d "$k" ] || lh_kernel_is_built_flavour "$k"; then
			continue
		fi
		"$LH_SCRIPTS/kernels.sh" resolve "$k" > /dev/null 2>&1 || return 1
	done
}

# main - work out what is missing, then update and install only if needed
main() {
	local -a kernels=() missing=()
	local updated=0 apt_failed="" profile=test list=0 packages
	while [ $# -gt 0 ]; do
		case $1 in
		--profile) [ $# -ge 2 ] || die "--profile wants demo, packaging or test"; profile=$2; shift 2 ;;
		--profile=*) profile=${1#--profile=}; shift ;;
		--list) list=1; shift ;;
		-*) die "unknown option $1 (usage: setup-host.sh [--profile demo|packaging|test] [--list] [KERNEL...])" ;;
		*) kernels+=("$1"); shift ;;
		esac
	done
	case $profile in
	demo) packages=$LH_DEMO_PACKAGES ;;
	packaging) packages=$LH_PACKAGING_PACKAGES ;;
	test) packages=$LH_TEST_PACKAGES ;;
	*) die "unknown profile '$profile': demo, packaging or test" ;;
	esac
	[ ${#kernels[@]} -gt 0 ] || read -r -a kernels <<< "${LH_KERNELS:-$(lh_matrix_kernels kernel)}"
	if [ "$list" = 1 ]; then
		# shellcheck disable=SC2086 # one package per word
		printf '%s\n' $packages $(arch_packages "${kernels[@]}") | sort -u
		return 0
	fi
	command -v dpkg-query >/dev/null || die "this script needs a Debian system (dpkg-query not found)"
	export DEBIAN_FRONTEND=noninteractive

	# kernels.sh finds the kernel packages in apt's package lists; on a fresh machine they may be empty.
	if ! kernels_resolve "${kernels[@]}"; then
		log "apt cannot resolve the kernel packages yet: running apt-get update"
		apt_update
		updated=1
		if ! kernels_resolve "${kernels[@]}"; then
			[ -z "$apt_failed" ] ||
				die "no network to the package mirror: apt-get update could not fetch $apt_failed; check the network (or set a proxy in /etc/apt/apt.conf.d/) and run this again"
			die "apt's package lists know no kernel packages for ${kernels[*]}: bookworm and bookworm-security must be in /etc/apt/sources.list*"
		fi
	fi
	# shellcheck disable=SC2086 # word splitting of the package list is intended
	# shellcheck disable=SC2046 # one package per word
	mapfile -t missing < <(missing_packages $packages $(arch_packages "${kernels[@]}"))
	if [ ${#missing[@]} -eq 0 ]; then
		log "all packages present"
		return 0
	fi
	log "installing: ${missing[*]}"
	[ "$updated" = 1 ] || apt_update
	lh_as_root apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 \
		-o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}" >&2 ||
		die "apt-get install failed for: ${missing[*]} (apt says why above: network, disk space, or a broken package state)"
	mapfile -t missing < <(missing_packages "${missing[@]}")
	[ ${#missing[@]} -eq 0 ] || die "still not installed after apt-get install: ${missing[*]}"
	log "done"
}

main "$@"
