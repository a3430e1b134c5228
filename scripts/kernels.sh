#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernels.sh - find, fetch and describe the kernels latency_hist is tested on.
#
# The test rig boots real Debian kernels under qemu. This script maps the four flavour names the project
# tests on to the newest Debian packages that apt knows about and unpacks, with `apt-get download` +
# `dpkg-deb -x`, the image package AND the headers package (with the -common headers and the
# linux-kbuild package it depends on) into a cache. Nothing is installed with dpkg: no initramfs or GRUB
# hook runs, /boot, /usr/src and /lib/modules of this machine stay untouched (Debian's 6.12 headers
# packages depend on the image package, so installing them would put a kernel into /boot), and the same
# commands work on a CI machine. The unpacked headers are a complete KDIR: their absolute symlinks
# (lib/modules/R/build, .../source) are made relative and the arch Makefile's
# `include /usr/src/linux-headers-R-common/Makefile` is made relative to itself, so the tree works
# wherever the cache is. Headers a user installed with apt are neither used nor touched.
#
#   flavour   image package                                   headers package
#   6.1       Depends of linux-image-amd64                    Depends of linux-headers-amd64
#   6.1-rt    Depends of linux-image-rt-amd64                 Depends of linux-headers-rt-amd64
#   6.12      linux-image-6.12.N+deb12-amd64-unsigned         linux-headers-6.12.N+deb12-amd64
#   6.12-rt   linux-image-6.12.N+deb12-rt-amd64-unsigned      linux-headers-6.12.N+deb12-rt-amd64
# For 6.12, N is the newest version for which both the image and the headers package exist.
#
# Two more flavours are kernels built here from Debian source packages, because no Debian binary kernel
# has the preemptirq tracepoints (see scripts/build-kernel.sh): 6.12-preempt and 7.3-rt-debug. `fetch`
# builds them when the cache has no build of the current recipe (minutes, not seconds); `info`,
# `resolve` and `release` only look at the cache. They have no headers package: the build tree is the KDIR.
#
# A kernel can also be named by its release (6.12.117+deb12-rt-amd64) or by the path of a kernel build
# tree (a directory with include/config/kernel.release and arch/x86/boot/bzImage; its modules are
# installed into the cache with `make modules_install`).
#
# Usage:
#   kernels.sh flavours                 list the flavour names
#   kernels.sh resolve  KERNEL          print "release image-package headers-package" (apt-cache only)
#   kernels.sh release  KERNEL          print the release only
#   kernels.sh fetch    KERNEL          unpack the image and the headers, then print shell assignments:
#                                         LH_KREL LH_VMLINUZ LH_KMODDIR LH_KDIR LH_KROOT
#                                       use as: eval "$(scripts/kernels.sh fetch 6.12-rt)"
#                                       LH_KDIR is the tree to build modules against (make KDIR=...)
#   kernels.sh info     KERNEL          like fetch but never downloads (fails if missing)
# The script can also be sourced; it then only defines the lh_kernel_* functions.
# Concurrent fetches of one kernel are safe: they take a lock per release ($LH_CACHE/kernels/.R.lock),
# and the second one reuses what the first unpacked.
#
# Environment: LH_CACHE (default /var/cache/latency-hist); kernels go to $LH_CACHE/kernels/<release>/:
#   boot/vmlinuz-R, lib/modules/R/ (depmod run), usr/src/linux-headers-R/ (the KDIR), usr/lib/linux-kbuild-*/.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LH_FLAVOURS="6.1 6.1-rt 6.12 6.12-rt"
LH_BUILT_FLAVOURS="6.12-preempt 7.3-rt-debug"

# lh_kernel_meta_dep - print the versioned package a Debian metapackage depends on
lh_kernel_meta_dep() {
	local meta=$1 dep
	dep=$(apt-cache depends "$meta" 2>/dev/null | awk '
		$1 == "Depends:" && $2 ~ /^linux-(image|headers)-[0-9]/ && !found++ { print $2 }')
	[ -n "$dep" ] || die "apt-cache knows no metapackage $meta (run scripts/setup-host.sh, or apt-get update)"
	echo "$dep"
}

# lh_kernel_newest_612 - print the newest 6.12.N+deb12 version with both an image and a headers package
lh_kernel_newest_612() {
	local variant=$1 ver
	# variant is "amd64" or "rt-amd64"; names look like linux-image-6.12.117+deb12-rt-amd64-unsigned
	ver=$(comm -12 \
		<(apt-cache pkgnames linux-image-6.12. 2>/dev/null |
			sed -n "s/^linux-image-\(6\.12\.[0-9]*+deb12\)-$variant-unsigned\$/\1/p" | sort -u) \
		<(apt-cache pkgnames linux-headers-6.12. 2>/dev/null |
			sed -n "s/^linux-headers-\(6\.12\.[0-9]*+deb12\)-$variant\$/\1/p" | sort -u) |
		sort -V | tail -n 1)
	[ -n "$ver" ] || die "no linux-image-6.12.*+deb12-$variant-unsigned with matching headers in apt (is bookworm-security in the sources? run scripts/setup-host.sh)"
	echo "$ver"
}

# lh_kernel_is_tree - true if $1 is a kernel build tree with a bootable bzImage
lh_kernel_is_tree() {
	[ -d "$1" ] && [ -f "$1/include/config/kernel.release" ] && [ -f "$1/arch/x86/boot/bzImage" ]
}

# lh_kernel_is_built_flavour - true if $1 names a kernel that build-kernel.sh builds
lh_kernel_is_built_flavour() {
	case " $LH_BUILT_FLAVOURS " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# lh_kernel_built_tree - print the build tree of a built flavour; builds it first with "build"
lh_kernel_built_tree() {
	local name=$1 how=$2 tree
	if [ "$how" = build ]; then
		tree=$(bash "$LH_SCRIPTS/build-kernel.sh" "$name" | sed -n 's/^kdir=//p') ||
			die "build-kernel.sh $name failed"
	else
		# The newest finished build in the cache, whatever its recipe.
		tree=$(ls -td "$LH_CACHE/kbuild/$name"-*/.complete 2>/dev/null | head -n 1)
		tree=${tree%/.complete}
		[ -n "$tree" ] && tree=$tree/build
	fi
	lh_kernel_is_tree "${tree:-/nonexistent}" ||
		die "$name is not built (run: scripts/build-kernel.sh $name)"
	echo "$tree"
}

# lh_kernel_resolve - print "release image-package headers-package" for a flavour or a release
# (for a built flavour: "release - -", from the cache)
lh_kernel_resolve() {
	local k=$1 img hdr rel ver
	if lh_kernel_is_built_flavour "$k"; then
		echo "$(cat "$(lh_kernel_built_tree "$k" cache)/include/config/kernel.release") - -"
		return
	fi
	case $k in
	6.1)
		img=$(lh_kernel_meta_dep linux-image-amd64)
		hdr=$(lh_kernel_meta_dep linux-headers-amd64)
		rel=${img#linux-image-} ;;
	6.1-rt)
		img=$(lh_kernel_meta_dep linux-image-rt-amd64)
		hdr=$(lh_kernel_meta_dep linux-headers-rt-amd64)
		rel=${img#linux-image-} ;;
	6.12)
		ver=$(lh_kernel_newest_612 amd64)
		rel=$ver-amd64
		img=linux-image-$rel-unsigned
		hdr=linux-headers-$rel ;;
	6.12-rt)
		ver=$(lh_kernel_newest_612 rt-amd64)
		rel=$ver-rt-amd64
		img=linux-image-$rel-unsigned
		hdr=linux-headers-$rel ;;
	[0-9]*.*-*)
		# A release string: prefer the -unsigned image (same files, no signed-template dependency).
		rel=$k
		hdr=linux-headers-$rel
		if apt-cache show "linux-image-$rel-unsigned" >/dev/null 2>&1; then
			img=linux-image-$rel-unsigned
		else
			img=linux-image-$rel
		fi ;;
	*)
		die "unknown kernel '$k' (flavours: $LH_FLAVOURS $LH_BUILT_FLAVOURS, a release like 6.12.117+deb12-amd64, or a build tree path)" ;;
	esac
	case $rel in
	*-unsigned) rel=${rel%-unsigned} ;;
	esac
	echo "$rel $img $hdr"
}

# lh_kernel_header_deps - print the -common headers and linux-kbuild packages a headers package needs,
# as apt-get download arguments (name=version where the dependency pins the version)
lh_kernel_header_deps() {
	# awk reads to the end: leaving early would fail apt-cache with SIGPIPE under pipefail.
	apt-cache show --no-all-versions "$1" 2>/dev/null | awk '
		$1 == "Depends:" && !done++ {
			sub(/^Depends: */, "")
			n = split($0, dep, /, */)
			for (i = 1; i <= n; i++) {
				sub(/ *\|.*/, "", dep[i])
				split(dep[i], w, /[ ()]+/)
				if (w[1] !~ /^linux-(headers-.*-common.*|kbuild-.*)$/) continue
				print (w[2] == "=") ? w[1] "=" w[3] : w[1]
			}
		}'
}

# lh_kernel_download - apt-get download packages into a directory (as _apt when run as root)
lh_kernel_download() {
	local dir=$1
	shift
	mkdir -p "$dir"
	# apt-get download drops privileges to _apt when it can write the directory; let it.
	chown _apt "$dir" 2>/dev/null || true
	(cd "$dir" && apt-get download -q "$@" >&2) ||
		die "apt-get download $* failed: no network to the Debian mirror, or stale package lists (run: apt-get update)"
}

# lh_kernel_relink - make the absolute symlinks and the Makefile includes of an unpacked tree relative
lh_kernel_relink() {
	local root=$1 link target mk
	# lib/modules/R/build -> /usr/src/linux-headers-R and friends: point into the tree itself.
	find "$root" -type l -lname '/*' -print | while IFS= read -r link; do
		target=$(readlink "$link")
		ln -sfn "$(realpath -ms --relative-to="$(dirname "$link")" "$root$target")" "$link"
	done
	# The arch headers' Makefile is "include /usr/src/linux-headers-R-common/Makefile": make it relative
	# to the Makefile's own directory, which the kernel Makefile then takes as its source tree.
	for mk in "$root"/usr/src/linux-headers-*/Makefile; do
		[ -f "$mk" ] || continue
		# shellcheck disable=SC2016 # make syntax, not shell
		sed -i 's|^include /usr/src/|include $(dir $(realpath $(lastword $(MAKEFILE_LIST))))../|' "$mk"
	done
}

# lh_kernel_unpack_image - download an image package and unpack it into $LH_CACHE/kernels/<release>
lh_kernel_unpack_image() {
	local rel=$1 img=$2 root=$LH_CACHE/kernels/$1 tmp
	[ -f "$root/.complete" ] && return 0
	lh_need_space "$LH_CACHE" 1024 "kernel $rel"
	log "fetching $img into $root"
	tmp=$root.tmp
	rm -rf "$root" "$tmp"
	lh_kernel_download "$tmp/dl" "$img"
	lh_kernel_unpack_debs "$tmp/dl" "$tmp/root"
	mv "$tmp/root" "$root"
	rm -rf "$tmp"
	lh_kernel_finish_root "$rel" "$root"
}

# lh_kernel_unpack_debs - dpkg-deb -x every .deb of a directory into a root, then delete the directory
lh_kernel_unpack_debs() {
	local dir=$1 root=$2 deb n=0
	mkdir -p "$root"
	for deb in "$dir"/*.deb; do
		[ -f "$deb" ] || continue
		dpkg-deb -x "$deb" "$root" || die "dpkg-deb -x $deb failed (disk full?)"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || die "apt-get download produced no .deb in $dir"
	rm -rf "$dir"
}

# lh_kernel_unpack_headers - download a headers package, its -common headers and its linux-kbuild
# package, and unpack them into the kernel's cache root (next to the image)
lh_kernel_unpack_headers() {
	local rel=$1 hdr=$2 root=$LH_CACHE/kernels/$1 deps
	[ -f "$root/.headers-complete" ] && [ -f "$root/usr/src/linux-headers-$rel/Makefile" ] && return 0
	deps=$(lh_kernel_header_deps "$hdr")
	case $deps in
	*linux-kbuild-*) ;;
	*) die "apt-cache cannot say which linux-kbuild package $hdr needs (run: apt-get update)" ;;
	esac
	log "fetching $hdr and ${deps//$'\n'/ } into $root"
	rm -rf "$root/.headers.tmp" "$root"/usr/src/linux-headers-* "$root"/usr/src/linux-kbuild-* \
		"$root"/usr/lib/linux-kbuild-*
	# shellcheck disable=SC2086 # one package per word
	lh_kernel_download "$root/.headers.tmp" "$hdr" $deps
	lh_kernel_unpack_debs "$root/.headers.tmp" "$root"
	lh_kernel_relink "$root"
	[ -f "$root/usr/src/linux-headers-$rel/Makefile" ] || die "$hdr has no usr/src/linux-headers-$rel"
	touch "$root/.headers-complete"
}

# lh_kernel_lock - hold an exclusive lock on one kernel release of the cache until this shell exits
lh_kernel_lock() {
	mkdir -p "$LH_CACHE/kernels" || die "cannot create $LH_CACHE/kernels"
	exec 8> "$LH_CACHE/kernels/.$1.lock"
	flock 8
}

# lh_kernel_finish_root - normalise an unpacked tree (lib/modules path, depmod) and mark it complete
lh_kernel_finish_root() {
	local rel=$1 root=$2
	# Packages may ship /usr/lib/modules (merged /usr); depmod -b and modprobe -d look in lib/modules.
	if [ ! -d "$root/lib/modules/$rel" ] && [ -d "$root/usr/lib/modules/$rel" ]; then
		mkdir -p "$root/lib/modules"
		ln -s "../../usr/lib/modules/$rel" "$root/lib/modules/$rel"
	fi
	[ -d "$root/lib/modules/$rel" ] || die "$root has no lib/modules/$rel"
	# The package's postinst normally runs depmod; we unpacked it, so run depmod ourselves.
	depmod -b "$root" "$rel" || die "depmod -b $root $rel failed"
	touch "$root/.complete"
}

# lh_kernel_tree_install - install a build tree's modules into the cache (once per build)
lh_kernel_tree_install() {
	local tree=$1 rel=$2 root=$LH_CACHE/kernels/$2
	lh_kernel_lock "$rel"
	if [ -f "$root/.complete" ] && [ "$root/.complete" -nt "$tree/arch/x86/boot/bzImage" ]; then
		return 0
	fi
	rm -rf "$root"
	mkdir -p "$root/boot"
	if grep -q '^CONFIG_MODULES=y' "$tree/.config" 2>/dev/null; then
		log "installing modules of $tree into $root"
		make -s -C "$tree" INSTALL_MOD_PATH="$root" INSTALL_MOD_STRIP=1 DEPMOD=true modules_install >&2 ||
			die "make modules_install failed for $tree"
		rm -f "$root/lib/modules/$rel/build" "$root/lib/modules/$rel/source"
	else
		mkdir -p "$root/lib/modules/$rel"
	fi
	cp "$tree/arch/x86/boot/bzImage" "$root/boot/vmlinuz-$rel"
	lh_kernel_finish_root "$rel" "$root"
}

# lh_kernel_print - print the shell assignments describing an available kernel
lh_kernel_print() {
	local rel=$1 kdir=$2 root=$LH_CACHE/kernels/$1
	[ -f "$root/boot/vmlinuz-$rel" ] || die "$root/boot/vmlinuz-$rel missing"
	[ -f "$kdir/Makefile" ] || die "KDIR $kdir has no Makefile (headers not unpacked: run scripts/kernels.sh fetch $rel)"
	printf 'LH_KREL=%q\nLH_VMLINUZ=%q\nLH_KMODDIR=%q\nLH_KDIR=%q\nLH_KROOT=%q\n' \
		"$rel" "$root/boot/vmlinuz-$rel" "$root/lib/modules/$rel" "$kdir" "$root"
}

# lh_kernel_fetch - make a kernel available (headers + unpacked image) and describe it
lh_kernel_fetch() {
	local k=$1 mode=${2:-fetch} rel img hdr
	if lh_kernel_is_built_flavour "$k"; then
		if [ "$mode" = fetch ]; then k=$(lh_kernel_built_tree "$k" build); else
			k=$(lh_kernel_built_tree "$k" cache); fi
	fi
	if lh_kernel_is_tree "$k"; then
		k=$(cd "$k" && pwd)
		rel=$(cat "$k/include/config/kernel.release")
		[ "$mode" = info ] || lh_kernel_tree_install "$k" "$rel"
		lh_kernel_print "$rel" "$k"
		return
	fi
	read -r rel img hdr < <(lh_kernel_resolve "$k") || exit 1
	[ -n "$rel" ] || exit 1
	if [ "$mode" = fetch ]; then
		lh_path_is_kbuild_safe "$LH_CACHE" ||
			die "kbuild cannot build in the cache $LH_CACHE (white space or special characters): set LH_CACHE to a plain path"
		lh_kernel_lock "$rel"
		lh_kernel_unpack_image "$rel" "$img"
		lh_kernel_unpack_headers "$rel" "$hdr"
	fi
	lh_kernel_print "$rel" "$LH_CACHE/kernels/$rel/usr/src/linux-headers-$rel"
}

# lh_kernel_main - command-line entry point
lh_kernel_main() {
	local cmd=${1:-}
	case $cmd in
	flavours) echo "$LH_FLAVOURS $LH_BUILT_FLAVOURS" ;;
	resolve) [ $# -eq 2 ] || die "usage: kernels.sh resolve KERNEL"; lh_kernel_resolve "$2" ;;
	release)
		[ $# -eq 2 ] || die "usage: kernels.sh release KERNEL"
		if lh_kernel_is_tree "$2"; then cat "$2/include/config/kernel.release"; else
			lh_kernel_resolve "$2" | awk '{ print $1 }'; fi ;;
	fetch | info) [ $# -eq 2 ] || die "usage: kernels.sh $cmd KERNEL"; lh_kernel_fetch "$2" "$cmd" ;;
	*) die "usage: kernels.sh {flavours|resolve|release|fetch|info} [KERNEL]" ;;
	esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	lh_kernel_main "$@"
fi
