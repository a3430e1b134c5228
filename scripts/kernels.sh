#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernels.sh - find, fetch and describe the kernels latency_hist is tested on.
#
# The test rig boots real Debian kernels under qemu. This script maps the flavour names of the kernels the
# project tests on (the kernel lines of scripts/matrix.conf) to the newest Debian packages that apt knows
# about and unpacks, with `apt-get download` +
# `dpkg-deb -x`, the image package AND the headers package (with the -common headers and the
# linux-kbuild package it depends on) into a cache. Nothing is installed with dpkg: no initramfs or GRUB
# hook runs, /boot, /usr/src and /lib/modules of this machine stay untouched (Debian's 6.12 headers
# packages depend on the image package, so installing them would put a kernel into /boot), and the same
# commands work on a CI machine. The unpacked headers are a complete KDIR: their absolute symlinks
# (lib/modules/R/build, .../source) are made relative and the arch Makefile's
# `include /usr/src/linux-headers-R-common/Makefile` is made relative to itself, so the tree works
# wherever the cache is. Headers a user installed with apt are neither used nor touched.
#
#   matrix.conf says                 image package                              headers package
#   meta IMAGE-META HEADERS-META     Depends of IMAGE-META                      Depends of HEADERS-META
#   newest SERIES VARIANT            linux-image-SERIES.N+deb12-VARIANT-unsigned linux-headers-SERIES.N+deb12-VARIANT
#   abi SERIES VARIANT suite=SUITE   linux-image-SERIES-N-VARIANT-unsigned      linux-headers-SERIES-N-VARIANT
# For "newest", N is the newest version for which both the image and the headers package exist.
# For "abi" (Debian 11's naming: 5.10.0-46-rt-amd64), N is the newest ABI whose image and headers the
# mirror serves: the index of bullseye-security can list an ABI whose packages the pool no longer has, so
# the .deb files of each candidate, newest first, are asked for (HTTP HEAD) until both answer.
#
# A kernel line with suite=SUITE (a Debian release other than this machine's, e.g. bullseye) is looked up
# and downloaded through a private apt state in $LH_CACHE/apt-SUITE/: the archives of this machine's apt
# (the main one and the security one) with SUITE instead of this machine's release (SUITE, SUITE-updates,
# SUITE-security), its own lists and cache, refreshed once a day as below. Nothing of SUITE is installed.
#
# A kernel line with arch=ARCH (a Debian architecture other than this machine's, e.g. arm64) is looked up
# and downloaded through a private apt state in $LH_CACHE/apt-ARCH/ (its own sources list, made from the
# Debian archives this machine's apt uses, with the architectures "native + ARCH", its own lists and
# cache; refreshed once a day, LH_APT_MAXAGE seconds): this machine's dpkg never learns of ARCH and
# nothing of ARCH is installed. The headers of such a kernel depend on linux-kbuild, which is Multi-Arch:
# foreign, so the private apt picks this machine's build of it: the unpacked tree builds modules for
# ARCH with `make ARCH=... CROSS_COMPILE=...` (LH_KMAKE below; the matrix's arch line says which).
#
# The "built" kernels of the matrix are built here from Debian source packages, because no Debian binary
# kernel has the preemptirq tracepoints (see scripts/build-kernel.sh). `fetch` builds them when the cache
# has no build of the current recipe (minutes, not seconds); `info`, `resolve` and `release` only look
# at the cache. They have no headers package: the build tree is the KDIR.
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
#                                         LH_KREL LH_VMLINUZ LH_KMODDIR LH_KDIR LH_KROOT, and
#                                         LH_KARCH (the kernel's Debian architecture), LH_KMAKE (make
#                                         arguments for building against LH_KDIR: empty, or ARCH= and
#                                         CROSS_COMPILE= for another architecture), LH_UCC (the C
#                                         compiler for static programs that run on that kernel)
#                                       use as: eval "$(scripts/kernels.sh fetch 6.12-rt)"
#                                       LH_KDIR is the tree to build modules against (make KDIR=...)
#   kernels.sh info     KERNEL          like fetch but never downloads (fails if missing)
#   kernels.sh busybox  ARCH            print the path of a static busybox for ARCH (this machine's for
#                                       its own architecture; else busybox-static:ARCH unpacked into
#                                       $LH_CACHE/userspace/ARCH-busybox-VERSION/)
#   kernels.sh cyclictest ARCH          print the command that runs cyclictest on ARCH (this machine's
#                                       for its own; else rt-tests:ARCH with libc6 and libnuma1 unpacked
#                                       into $LH_CACHE/userspace/, run through their dynamic loader)
# The script can also be sourced; it then only defines the lh_kernel_* functions.
# Concurrent fetches of one kernel are safe: they take a lock per release ($LH_CACHE/kernels/.R.lock),
# and the second one reuses what the first unpacked.
#
# Environment: LH_CACHE (default /var/cache/latency-hist); kernels go to $LH_CACHE/kernels/<release>/:
#   boot/vmlinuz-R, lib/modules/R/ (depmod run), usr/src/linux-headers-R/ (the KDIR), usr/lib/linux-kbuild-*/.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# lh_host_arch - print this machine's Debian architecture
lh_host_arch() {
	dpkg --print-architecture
}

# lh_kernel_arch - print the Debian architecture of a flavour (its arch= word) or a release (its suffix)
lh_kernel_arch() {
	local w
	for w in $(lh_matrix_kernel "$1" 2> /dev/null || true); do
		case $w in arch=?*) echo "${w#arch=}"; return ;; esac
	done
	case $1 in
	[0-9]*.*-arm64) echo arm64 ;;
	[0-9]*.*-armmp | [0-9]*.*-armmp-lpae) echo armhf ;;
	*) lh_host_arch ;;
	esac
}

# lh_apt_private_setup - create or refresh the private apt state of a foreign architecture, or with SUITE
# that of another Debian release for this machine's architecture (see above; lh_apt uses the latter while
# LH_APT_SUITE names that release)
lh_apt_private_setup() {
	local arch=$1 suite=${2:-} dir=$LH_CACHE/apt-${2:-$1} maxage=${LH_APT_MAXAGE:-86400} stamp now
	stamp=$(stat -c %Y "$dir/.updated" 2> /dev/null || echo 0)
	now=$(date +%s)
	[ $((now - stamp)) -lt "$maxage" ] && [ -s "$dir/sources.list" ] && return 0
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/preferences.d" ||
		die "cannot create $dir"
	: > "$dir/preferences"
	# The Debian archives of this machine's apt (bookworm, -updates, -security), for both architectures,
	# or renamed to the other release.
	apt-cache policy 2> /dev/null | awk -v h="$(lh_host_arch)" -v a="$arch" -v r="${suite:-bookworm}" '
		$4 == h && $5 == "Packages" && $3 ~ /^bookworm[-a-z]*\/main$/ && !seen[$2 " " $3]++ {
			split($3, s, "/")
			sub(/^bookworm/, r, s[1])
			print "deb [arch=" h (a == h ? "" : "," a) " signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] " $2 " " s[1] " main"
		}' > "$dir/sources.list.tmp"
	grep -q " ${suite:-bookworm} main\$" "$dir/sources.list.tmp" ||
		die "this machine's apt has no Debian bookworm main archive to take for $arch (run: apt-get update)"
	mv "$dir/sources.list.tmp" "$dir/sources.list"
	# apt drops privileges to _apt for downloads when it can; let it write the lists
	chown -R _apt "$dir/lists" "$dir/cache" 2> /dev/null || true
	log "updating the private ${suite:-$arch} package lists in $dir"
	if LH_APT_SUITE=$suite lh_apt "$arch" apt-get update >&2; then
		touch "$dir/.updated"
	elif compgen -G "$dir/lists/*_dists_bookworm_main_binary-${arch}_Packages*" > /dev/null; then
		# One index of a mirror in mid-sync ("File has unexpected size", seen for bookworm-security's
		# armhf list) must not stop the kernels of the others: apt kept what it fetched.
		log "warning: apt-get update of the private $arch lists fetched only some of them (apt says which above); using those"
		touch "$dir/.updated"
	elif [ "$stamp" = 0 ]; then
		die "apt-get update of the private ${suite:-$arch} lists failed: no network to the Debian mirror? (apt says why above)"
	else
		log "warning: apt-get update of the private ${suite:-$arch} lists failed; using those of $(date -d "@$stamp")"
	fi
}

# lh_apt - run apt-get/apt-cache (ARGS) for packages of a Debian architecture: this machine's apt for its
# own, else the private state of that architecture (architectures: this machine's and that one)
lh_apt() {
	local arch=$1 tool=$2 dir=$LH_CACHE/apt-$1
	shift 2
	if [ -n "${LH_APT_SUITE:-}" ]; then
		dir=$LH_CACHE/apt-$LH_APT_SUITE
	elif [ "$arch" = "$(lh_host_arch)" ]; then
		"$tool" "$@"
		return
	fi
	lh_private_apt "$dir" "$tool" \
		-o APT::Architectures::="$(lh_host_arch)" -o APT::Architectures::="$arch" "$@"
}

# lh_kernel_suite - print the suite= word of a flavour's kernel line (empty: this machine's apt)
lh_kernel_suite() {
	local w
	for w in $(lh_matrix_kernel "$1" 2> /dev/null || true); do
		case $w in suite=?*) echo "${w#suite=}"; return ;; esac
	done
}

# lh_kernel_served - true if the mirror serves the .deb of every package named (HTTP HEAD of the URI apt
# would download it from)
lh_kernel_served() {
	local arch=$1 uri
	shift
	for uri in $(lh_apt "$arch" apt-get download --print-uris "$@" 2> /dev/null | awk '{ gsub(/\047/, "", $1); print $1 }'); do
		curl -fsIL --max-time 30 -o /dev/null "$uri" || return 1
	done
	[ -n "${uri:-}" ]
}

# lh_kernel_abi_newest - print the newest SERIES-N whose image and headers packages of VARIANT the
# mirror serves (Debian 11's naming: linux-image-5.10.0-46-rt-amd64-unsigned)
lh_kernel_abi_newest() {
	local series=$1 variant=$2 arch=$3 re abi
	re=${series//./\\.}
	for abi in $(comm -12 \
		<(lh_apt "$arch" apt-cache pkgnames "linux-image-$series-" 2>/dev/null |
			sed -n "s/^linux-image-\($re-[0-9]*\)-$variant-unsigned\$/\1/p" | sort -u) \
		<(lh_apt "$arch" apt-cache pkgnames "linux-headers-$series-" 2>/dev/null |
			sed -n "s/^linux-headers-\($re-[0-9]*\)-$variant\$/\1/p" | sort -u) |
		sort -rV); do
		if lh_kernel_served "$arch" "linux-image-$abi-$variant-unsigned" "linux-headers-$abi-$variant"; then
			echo "$abi"
			return
		fi
		log "linux-image-$abi-$variant-unsigned is listed but not served by the mirror: trying an older ABI"
	done
	die "no linux-image-$series-*-$variant-unsigned with matching headers that the mirror serves"
}

# lh_arch_get - print KEY of the matrix's arch line of a Debian architecture (empty if none)
lh_arch_get() {
	lh_matrix_get arch "$1" "$2"
}

# lh_kernel_meta_dep - print the versioned package a Debian metapackage depends on (without the :ARCH
# a private apt of another architecture names it with)
lh_kernel_meta_dep() {
	local meta=$1 arch=$2 dep
	dep=$(lh_apt "$arch" apt-cache depends "$meta" 2>/dev/null | awk '
		$1 == "Depends:" && $2 ~ /^linux-(image|headers)-[0-9]/ && !found++ { sub(/:.*/, "", $2); print $2 }')
	[ -n "$dep" ] || die "apt-cache knows no metapackage $meta (run scripts/setup-host.sh, or apt-get update)"
	echo "$dep"
}

# lh_kernel_newest - print the newest SERIES.N+deb12 version with both an image and a headers package
lh_kernel_newest() {
	local series=$1 variant=$2 arch=$3 ver re
	# names look like linux-image-6.12.117+deb12-rt-amd64-unsigned
	re=${series//./\\.}
	ver=$(comm -12 \
		<(lh_apt "$arch" apt-cache pkgnames "linux-image-$series." 2>/dev/null |
			sed -n "s/^linux-image-\($re\.[0-9]*+deb12\)-$variant-unsigned\$/\1/p" | sort -u) \
		<(lh_apt "$arch" apt-cache pkgnames "linux-headers-$series." 2>/dev/null |
			sed -n "s/^linux-headers-\($re\.[0-9]*+deb12\)-$variant\$/\1/p" | sort -u) |
		sort -V | tail -n 1)
	[ -n "$ver" ] || die "no linux-image-$series.*+deb12-$variant-unsigned with matching headers in apt (is bookworm-security in the sources? run scripts/setup-host.sh)"
	echo "$ver"
}

# lh_kernel_is_tree - true if $1 is a kernel build tree with a bootable bzImage
lh_kernel_is_tree() {
	[ -d "$1" ] && [ -f "$1/include/config/kernel.release" ] && [ -f "$1/arch/x86/boot/bzImage" ]
}

# lh_kernel_is_built_flavour - true if $1 names a kernel that build-kernel.sh builds
lh_kernel_is_built_flavour() {
	case " $(lh_matrix_kernels built) " in
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

# lh_kernel_resolve - print "release image-package headers-package architecture" for a flavour or a
# release (for a built flavour: "release - - ARCH", from the cache); a package of another architecture
# than this machine's is named with its ":ARCH" qualifier
lh_kernel_resolve() {
	local k=$1 img hdr rel ver arch
	if lh_kernel_is_built_flavour "$k"; then
		echo "$(cat "$(lh_kernel_built_tree "$k" cache)/include/config/kernel.release") - - $(lh_host_arch)"
		return
	fi
	arch=$(lh_kernel_arch "$k")
	LH_APT_SUITE=$(lh_kernel_suite "$k")
	if [ -n "$LH_APT_SUITE" ]; then
		lh_apt_private_setup "$arch" "$LH_APT_SUITE"
	elif [ "$arch" != "$(lh_host_arch)" ]; then
		lh_apt_private_setup "$arch"
	fi
	local -a how
	read -r -a how <<< "$(lh_matrix_kernel "$k" || true)"
	case ${how[0]:-}:${how[1]:-}:$k in
	packaged:meta:*)
		img=$(lh_kernel_meta_dep "${how[2]}" "$arch")
		hdr=$(lh_kernel_meta_dep "${how[3]}" "$arch")
		rel=${img#linux-image-} ;;
	packaged:newest:*)
		ver=$(lh_kernel_newest "${how[2]}" "${how[3]}" "$arch")
		rel=$ver-${how[3]}
		img=linux-image-$rel-unsigned
		hdr=linux-headers-$rel ;;
	packaged:abi:*)
		rel=$(lh_kernel_abi_newest "${how[2]}" "${how[3]}" "$arch")-${how[3]}
		img=linux-image-$rel-unsigned
		hdr=linux-headers-$rel ;;
	?*:*:*) die "scripts/matrix.conf: cannot read the line of kernel $k: ${how[*]}" ;;
	::[0-9]*.*-*)
		# A release string: prefer the -unsigned image (same files, no signed-template dependency).
		rel=$k
		hdr=linux-headers-$rel
		if lh_apt "$arch" apt-cache show "linux-image-$rel-unsigned" >/dev/null 2>&1; then
			img=linux-image-$rel-unsigned
		else
			img=linux-image-$rel
		fi ;;
	*)
		die "unknown kernel '$k' (flavours: $(lh_matrix_kernels kernel), a release like 6.12.117+deb12-amd64, or a build tree path)" ;;
	esac
	case $rel in
	*-unsigned) rel=${rel%-unsigned} ;;
	esac
	if [ "$arch" != "$(lh_host_arch)" ]; then
		img=$img:$arch
		hdr=$hdr:$arch
	fi
	echo "$rel $img $hdr $arch"
}

# lh_kernel_header_deps - print the -common headers and linux-kbuild packages a headers package needs,
# as apt-get download arguments (name=version where the dependency pins the version)
lh_kernel_header_deps() {
	# awk reads to the end: leaving early would fail apt-cache with SIGPIPE under pipefail.
	lh_apt "$2" apt-cache show --no-all-versions "$1" 2>/dev/null | awk '
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

# lh_kernel_download - apt-get download packages of a Debian architecture into a directory (as _apt when
# run as root)
lh_kernel_download() {
	local dir=$1 arch=$2
	shift 2
	mkdir -p "$dir"
	# apt-get download drops privileges to _apt when it can write the directory; let it.
	chown _apt "$dir" 2>/dev/null || true
	(cd "$dir" && lh_apt "$arch" apt-get download -q "$@" >&2) ||
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
	local rel=$1 img=$2 arch=$3 root=$LH_CACHE/kernels/$1 tmp
	[ -f "$root/.complete" ] && return 0
	lh_need_space "$LH_CACHE" 1024 "kernel $rel"
	log "fetching $img into $root"
	tmp=$root.tmp
	rm -rf "$root" "$tmp"
	lh_kernel_download "$tmp/dl" "$arch" "$img"
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
	local rel=$1 hdr=$2 arch=$3 root=$LH_CACHE/kernels/$1 deps
	[ -f "$root/.headers-complete" ] && [ -f "$root/usr/src/linux-headers-$rel/Makefile" ] && return 0
	deps=$(lh_kernel_header_deps "$hdr" "$arch")
	case $deps in
	*linux-kbuild-*) ;;
	*) die "apt-cache cannot say which linux-kbuild package $hdr needs (run: apt-get update)" ;;
	esac
	log "fetching $hdr and ${deps//$'\n'/ } into $root"
	rm -rf "$root/.headers.tmp" "$root"/usr/src/linux-headers-* "$root"/usr/src/linux-kbuild-* \
		"$root"/usr/lib/linux-kbuild-*
	# shellcheck disable=SC2086 # one package per word
	lh_kernel_download "$root/.headers.tmp" "$arch" "$hdr" $deps
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

# lh_kernel_suite_cc - print the C compiler that built a kernel of another Debian release (its headers
# name it: CONFIG_CC_VERSION_TEXT, .kernelvariables), this machine's if it has it, else that release's
# package unpacked into $LH_CACHE/userspace/ (gcc is relocatable: it finds cc1 and its headers beside
# itself; it runs on this machine's binutils and libraries). Debian 11's 5.10 names gcc-10, which
# Debian 12 lacks; building with the kernel's own compiler keeps the compiler-dependent configuration
# (CONFIG_CC_HAS_*, retpoline and stack-protector flags) and the W=1 warnings those of a rig of that
# release.
lh_kernel_suite_cc() {
	local kdir=$1 cc dir
	cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$kdir/.config")
	case $cc in
	gcc-[0-9]*) ;;
	*) die "$kdir/.config names no gcc-N compiler (CONFIG_CC_VERSION_TEXT)" ;;
	esac
	if command -v "$cc" > /dev/null; then
		command -v "$cc"
		return
	fi
	dir=$(lh_userspace "$(lh_host_arch)" "$LH_APT_SUITE-$cc" "usr/bin/$cc" \
		"$cc" "cpp-${cc#gcc-}" "$cc-base" "libgcc-${cc#gcc-}-dev") || exit 1
	log "building for $kdir with $LH_APT_SUITE's $cc ($dir/usr/bin/$cc), the compiler that built the kernel"
	echo "$dir/usr/bin/$cc"
}

# lh_kernel_print - print the shell assignments describing an available kernel
lh_kernel_print() {
	local rel=$1 kdir=$2 arch=$3 root=$LH_CACHE/kernels/$1 kmake="" ucc=gcc karch cross
	[ -f "$root/boot/vmlinuz-$rel" ] || die "$root/boot/vmlinuz-$rel missing"
	[ -f "$kdir/Makefile" ] || die "KDIR $kdir has no Makefile (headers not unpacked: run scripts/kernels.sh fetch $rel)"
	if [ "$arch" != "$(lh_host_arch)" ]; then
		karch=$(lh_arch_get "$arch" karch)
		cross=$(lh_arch_get "$arch" cross)
		if [ -z "$karch" ] || [ -z "$cross" ]; then
			die "scripts/matrix.conf has no arch line with karch= and cross= for $arch"
		fi
		kmake="ARCH=$karch CROSS_COMPILE=$cross"
		ucc=${cross}gcc
	fi
	[ -z "${LH_APT_SUITE:-}" ] || kmake="${kmake:+$kmake }CC=$(lh_kernel_suite_cc "$kdir")"
	printf 'LH_KREL=%q\nLH_VMLINUZ=%q\nLH_KMODDIR=%q\nLH_KDIR=%q\nLH_KROOT=%q\n' \
		"$rel" "$root/boot/vmlinuz-$rel" "$root/lib/modules/$rel" "$kdir" "$root"
	printf 'LH_KARCH=%q\nLH_KMAKE=%q\nLH_UCC=%q\n' "$arch" "$kmake" "$ucc"
}

# lh_userspace - print the directory that holds packages PKG... of a Debian architecture unpacked
# (their candidate versions, fetched once into $LH_CACHE/userspace/ARCH-NAME-VERSIONS/; FILE is the
# path in it whose presence says the unpack is complete)
lh_userspace() {
	local arch=$1 name=$2 file=$3 pkg ver vers="" dir
	shift 3
	[ -n "${LH_APT_SUITE:-}" ] || lh_apt_private_setup "$arch"
	for pkg in "$@"; do
		ver=$(lh_apt "$arch" apt-cache policy "$pkg:$arch" 2> /dev/null |
			awk '$1 == "Candidate:" && $2 != "(none)" { print $2 }')
		[ -n "$ver" ] || die "the private $arch package lists know no $pkg:$arch"
		vers+="${vers:+_}$ver"
		set -- "$@" "$pkg:$arch=$ver"
		shift
	done
	dir=$LH_CACHE/userspace/$arch-$name-${vers//[^A-Za-z0-9.+~_-]/_}
	if [ ! -e "$dir/$file" ]; then
		mkdir -p "$LH_CACHE/userspace"
		exec 9> "$LH_CACHE/userspace/.$arch.lock"
		flock 9
		if [ ! -e "$dir/$file" ]; then
			log "fetching $* into $dir"
			rm -rf "$dir.tmp"
			lh_kernel_download "$dir.tmp/dl" "$arch" "$@"
			lh_kernel_unpack_debs "$dir.tmp/dl" "$dir.tmp/root"
			[ -e "$dir.tmp/root/$file" ] || die "$* hold no $file"
			rm -rf "$dir"
			mv "$dir.tmp/root" "$dir"
			rm -rf "$dir.tmp"
		fi
		exec 9>&-
	fi
	echo "$dir"
}

# lh_busybox - print the path of a static busybox for a Debian architecture (this machine's own, or
# busybox-static:ARCH unpacked once into the cache)
lh_busybox() {
	local arch=$1 dir
	if [ "$arch" = "$(lh_host_arch)" ]; then
		command -v busybox || die "busybox not found: run scripts/setup-host.sh"
		return
	fi
	dir=$(lh_userspace "$arch" busybox bin/busybox busybox-static) || exit 1
	echo "$dir/bin/busybox"
}

# lh_cyclictest - print the command that runs cyclictest on a kernel of a Debian architecture: this
# machine's for its own; else Debian's rt-tests:ARCH with the libraries it links (libc6, libnuma1),
# unpacked into the cache and started through their dynamic loader, so that a busybox guest of ARCH runs
# it from the shared cache without an installed root (the libraries are what cyclictest links, checked
# with readelf -d: libnuma, and librt, libpthread and libc of libc6)
lh_cyclictest() {
	local arch=$1 dir triplet loader
	if [ "$arch" = "$(lh_host_arch)" ]; then
		command -v cyclictest || die "cyclictest not found: run scripts/setup-host.sh"
		return
	fi
	dir=$(lh_userspace "$arch" cyclictest usr/bin/cyclictest rt-tests libnuma1 libc6) || exit 1
	# the multiarch directory of the libraries is the cross prefix of the matrix's arch line
	triplet=$(lh_arch_get "$arch" cross)
	triplet=${triplet%-}
	[ -n "$triplet" ] || die "scripts/matrix.conf has no arch line with cross= for $arch"
	loader=$(find "$dir/lib/$triplet" "$dir/usr/lib/$triplet" -maxdepth 1 -name 'ld-linux*.so.*' 2> /dev/null |
		head -n 1)
	[ -n "$loader" ] || die "libc6:$arch in $dir has no dynamic loader"
	# started through a link named cyclictest, its threads are named so (a task's comm is the name it
	# was executed by), not ld-linux-...
	if [ ! -L "$dir/lh-bin/cyclictest" ]; then
		mkdir -p "$dir/lh-bin" && ln -sfn "$loader" "$dir/lh-bin/cyclictest" ||
			die "cannot link $dir/lh-bin/cyclictest"
	fi
	echo "$dir/lh-bin/cyclictest --library-path $dir/lib/$triplet:$dir/usr/lib/$triplet $dir/usr/bin/cyclictest"
}

# lh_kernel_fetch - make a kernel available (headers + unpacked image) and describe it
lh_kernel_fetch() {
	local k=$1 mode=${2:-fetch} rel img hdr arch
	if lh_kernel_is_built_flavour "$k"; then
		if [ "$mode" = fetch ]; then k=$(lh_kernel_built_tree "$k" build); else
			k=$(lh_kernel_built_tree "$k" cache); fi
	fi
	if lh_kernel_is_tree "$k"; then
		k=$(cd "$k" && pwd)
		rel=$(cat "$k/include/config/kernel.release")
		[ "$mode" = info ] || lh_kernel_tree_install "$k" "$rel"
		lh_kernel_print "$rel" "$k" "$(lh_host_arch)"
		return
	fi
	LH_APT_SUITE=$(lh_kernel_suite "$k")
	read -r rel img hdr arch < <(lh_kernel_resolve "$k") || exit 1
	[ -n "$rel" ] || exit 1
	if [ "$mode" = fetch ]; then
		lh_path_is_kbuild_safe "$LH_CACHE" ||
			die "kbuild cannot build in the cache $LH_CACHE (white space or special characters): set LH_CACHE to a plain path"
		lh_kernel_lock "$rel"
		lh_kernel_unpack_image "$rel" "$img" "$arch"
		lh_kernel_unpack_headers "$rel" "$hdr" "$arch"
	fi
	lh_kernel_print "$rel" "$LH_CACHE/kernels/$rel/usr/src/linux-headers-$rel" "$arch"
}

# lh_kernel_main - command-line entry point
lh_kernel_main() {
	local cmd=${1:-}
	case $cmd in
	flavours) lh_matrix_kernels kernel ;;
	resolve) [ $# -eq 2 ] || die "usage: kernels.sh resolve KERNEL"; lh_kernel_resolve "$2" ;;
	release)
		[ $# -eq 2 ] || die "usage: kernels.sh release KERNEL"
		if lh_kernel_is_tree "$2"; then cat "$2/include/config/kernel.release"; else
			lh_kernel_resolve "$2" | awk '{ print $1 }'; fi ;;
	fetch | info) [ $# -eq 2 ] || die "usage: kernels.sh $cmd KERNEL"; lh_kernel_fetch "$2" "$cmd" ;;
	busybox) [ $# -eq 2 ] || die "usage: kernels.sh busybox ARCH"; lh_busybox "$2" ;;
	cyclictest) [ $# -eq 2 ] || die "usage: kernels.sh cyclictest ARCH"; lh_cyclictest "$2" ;;
	*) die "usage: kernels.sh {flavours|resolve|release|fetch|info|busybox|cyclictest} [KERNEL|ARCH]" ;;
	esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	lh_kernel_main "$@"
fi
