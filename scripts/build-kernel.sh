#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh - build one of the test kernels that have the preemptirq tracepoints.
#
# No Debian binary kernel has the preemptirq tracepoints (irq_disable/irq_enable, preempt_disable/
# preempt_enable) that latency_hist's critical-section histograms hook, so the test matrix includes
# kernels built here from Debian source packages: the "built" kernel lines of scripts/matrix.conf, which
# name the source package, its suite and the config fragment, e.g.
#
#   NAME          source package                                   config
#   6.12-preempt  linux-source-6.12 (bookworm: this machine's apt)  PREEMPT, non-RT
#   7.3-rt-debug  linux-source-7.3 (trixie-backports, see below)   PREEMPT_RT, lockdep, debug
#
# 7.3-rt-debug has KASAN and kmemleak. Under TCG kmemleak roughly doubles the boot time (about 20 s more
# per boot, measured), so runs that do not scan for leaks may boot it with "kmemleak=off".
#
# The config is `make tinyconfig` plus the project's fragments scripts/kernel-configs/base.config and
# the kernel's fragment in scripts/kernel-configs/ (merged with scripts/kconfig/merge_config.sh, then
# olddefconfig); every option a fragment names must end up in the final .config or the build fails.
#
# A source package of the suite "host" comes from this machine's apt lists. One of another suite (7.3
# from trixie-backports) comes from that suite of the mirror this machine's apt already uses (the first
# non-security URI in /etc/apt/sources.list{,.d/*}), fetched under a private apt configuration (own
# sources list, lists and cache under the build cache). Both are fetched with `apt-get download` and
# unpacked with dpkg-deb -x: nothing is installed on this system.
#
# Builds are cached outside the checkout in $LH_CACHE/kbuild/NAME-HASH/, HASH covering the source package
# version, the fragments, the gcc and binutils versions and the recipe in this script. A finished build
# is reused at once. Layout: src/ (kernel source), build/ (the O= output tree: .config, Module.symvers,
# arch/x86/boot/bzImage; usable as KDIR for `make -C build M=...`), build.log, info.
# Older builds of the same NAME are deleted after a new one succeeds (set LH_KBUILD_KEEP=1 to keep them).
#
# Usage: build-kernel.sh NAME        (NAME: a built kernel of matrix.conf; `build-kernel.sh list` lists them)
# Output: progress on stderr; the last lines on stdout are
#   release=<kernel release>  kdir=<O= tree, for M= builds>  image=<bzImage>
# The kdir is also a kernel build tree that scripts/kernels.sh and scripts/vm-run.sh accept as KERNEL.
#
# Environment:
#   LH_CACHE            cache root (default /var/cache/latency-hist for root, else ~/.cache/latency-hist)
#   LH_JOBS             make -j value (default: number of CPUs)
#   LH_KCONFIG_EXTRA    extra fragment files (space separated) merged last, part of the cache key;
#                       for experiments, e.g. measuring KASAN
#   LH_DEBIAN_MIRROR    Debian mirror URI for other suites (default: taken from this machine's apt)
#   LH_KBUILD_APT_MAXAGE  seconds before the private package lists of another suite are refreshed (86400)
#   LH_KBUILD_KEEP=1    keep older builds of the same NAME

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
LH_FRAGDIR=$LH_SCRIPTS/kernel-configs
KBUILD_ROOT=$LH_CACHE/kbuild
JOBS=${LH_JOBS:-$(nproc)}
# Bump when the way a kernel is built changes in a way the fragments do not show (invalidates caches).
RECIPE="tinyconfig+merge_config+olddefconfig+all/1"
KNAMES=$(lh_matrix_kernels built)
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# usage - print the usage line and exit
usage() {
	echo "usage: build-kernel.sh NAME   (NAME: ${KNAMES// /, })" >&2
	exit 2
}

# kernel_line NAME - set PKG, SUITE and CONFIG from the kernel's line in matrix.conf
kernel_line() {
	local kind
	read -r kind PKG SUITE CONFIG < <(lh_matrix_kernel "$1" || true)
	if [ "${kind:-}" != built ] || [ -z "${CONFIG:-}" ]; then
		die "unknown kernel NAME '$1' (built kernels of scripts/matrix.conf: $KNAMES)"
	fi
}

# host_mirror - print the Debian archive URI this machine's apt uses (not the security archive)
host_mirror() {
	local f uri=""
	if [ -n "${LH_DEBIAN_MIRROR:-}" ]; then
		echo "$LH_DEBIAN_MIRROR"
		return
	fi
	# deb822 .sources: first enabled "Types: deb" stanza whose suites are not -security
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		uri=$(awk '
			function flush() {
				if (deb && enabled && uris != "" && suites !~ /-security/ && uris !~ /security/) {
					split(uris, u, " "); print u[1]; found = 1; exit
				}
				deb = 0; enabled = 1; uris = ""; suites = ""
			}
			BEGIN { enabled = 1 }
			/^[ \t]*$/ { flush(); next }
			/^#/ { next }
			tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
			tolower($1) == "enabled:" { enabled = (tolower($2) != "no") }
			tolower($1) == "uris:" { $1 = ""; uris = $0 }
			tolower($1) == "suites:" { $1 = ""; suites = $0 }
			END { if (!found) flush() }' "$f")
		[ -n "$uri" ] && break
	done
	# one-line style: "deb [options] URI SUITE COMPONENTS..."
	if [ -z "$uri" ]; then
		uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | awk '
			$1 == "deb" {
				i = 2
				if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
				if ($(i + 1) !~ /-security/ && $i !~ /security/) { print $i; exit }
			}') || true
	fi
	[ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list{,.d/*} (set LH_DEBIAN_MIRROR)"
	echo "${uri%/}"
}

# bpo_apt ARGS... - run apt-get/apt-cache with the private configuration of suite $SUITE ($BPO_DIR)
bpo_apt() {
	lh_private_apt "$BPO_DIR" "$@"
}

# bpo_setup - write the private sources list and refresh its package lists when they are old
bpo_setup() {
	local mirror maxage=${LH_KBUILD_APT_MAXAGE:-86400} stamp now
	mirror=$(host_mirror)
	mkdir -p "$BPO_DIR/lists/partial" "$BPO_DIR/cache/archives/partial" "$BPO_DIR/debs" "$BPO_DIR/preferences.d"
	echo "deb [signed-by=$KEYRING] $mirror $SUITE main" > "$BPO_DIR/sources.list.new"
	if ! cmp -s "$BPO_DIR/sources.list.new" "$BPO_DIR/sources.list" 2>/dev/null; then
		mv "$BPO_DIR/sources.list.new" "$BPO_DIR/sources.list"
		rm -f "$BPO_DIR/updated"
	else
		rm -f "$BPO_DIR/sources.list.new"
	fi
	stamp=$(stat -c %Y "$BPO_DIR/updated" 2>/dev/null || echo 0)
	now=$(date +%s)
	if [ $((now - stamp)) -ge "$maxage" ]; then
		log "refreshing the private $SUITE package lists ($mirror)"
		# apt drops privileges to _apt for downloads when it can; let it write the lists
		chown -R _apt "$BPO_DIR/lists" 2>/dev/null || true
		if bpo_apt apt-get update >&2; then
			touch "$BPO_DIR/updated"
		elif [ "$stamp" = 0 ]; then
			die "apt-get update of $SUITE failed: no network to $mirror? (apt says why above)"
		else
			log "warning: apt-get update of $SUITE failed; using the lists from $(date -d "@$stamp")"
		fi
	fi
}

# src_version PKG - print the version of the source package that will be (or was) used
src_version() {
	local pkg=$1 ver
	if [ "$SUITE" = host ]; then
		# this machine's own package lists: downloaded and unpacked below, never installed
		ver=$(apt-cache policy "$pkg" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
		if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
			die "$pkg is not in this machine's apt lists (run: apt-get update)"
		fi
	else
		bpo_setup
		ver=$(bpo_apt apt-cache policy "$pkg" | awk '$1 == "Candidate:" { print $2 }')
		if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then die "$pkg is not in $SUITE"; fi
	fi
	echo "$ver"
}

# unpack_source PKG VERSION DIR - unpack the kernel source tree of PKG into DIR
unpack_source() {
	local pkg=$1 ver=$2 dir=$3 tarball deb tmp
	# keep only the .deb of the version in use
	deb=$KBUILD_ROOT/debs/${pkg}_${ver//:/%3a}_all.deb
	if [ ! -f "$deb" ]; then
		mkdir -p "$KBUILD_ROOT/debs"
		rm -f "$KBUILD_ROOT/debs/${pkg}"_*.deb
		tmp=$(mktemp -d "$KBUILD_ROOT/debs/dl.XXXXXX")
		chown _apt "$tmp" 2>/dev/null || true
		log "downloading $pkg $ver"
		if [ "$SUITE" = host ]; then
			(cd "$tmp" && apt-get download -q "$pkg=$ver" >&2)
		else
			(cd "$tmp" && bpo_apt apt-get download "$pkg=$ver" >&2)
		fi || die "apt-get download $pkg=$ver failed: no network to the Debian mirror? (apt says why above)"
		mv "$tmp"/*.deb "$deb" || die "apt-get download $pkg=$ver produced no .deb"
		rmdir "$tmp"
	fi
	tmp=$dir.deb
	rm -rf "$tmp"
	dpkg-deb -x "$deb" "$tmp" || die "dpkg-deb -x $deb failed"
	tarball=$(find "$tmp/usr/src" -maxdepth 1 -name "$pkg.tar.*" | head -n 1)
	[ -n "$tarball" ] || die "$deb has no /usr/src/$pkg.tar.*"
	log "unpacking $tarball"
	mkdir -p "$dir"
	tar -xf "$tarball" -C "$dir" --strip-components=1 || die "cannot unpack $tarball"
	rm -rf "$tmp"
	[ -f "$dir/Makefile" ] || die "$tarball did not unpack to a kernel tree"
}

# fragments - print the fragment files of the kernel ($CONFIG), in merge order
fragments() {
	local f
	echo "$LH_FRAGDIR/base.config"
	echo "$LH_FRAGDIR/$CONFIG"
	for f in ${LH_KCONFIG_EXTRA:-}; do
		[ -f "$f" ] || die "LH_KCONFIG_EXTRA: $f is not a file"
		(cd "$(dirname "$f")" && echo "$(pwd)/$(basename "$f")")
	done
}

# verify_config CONFIG FRAGMENTS... - fail unless every option the fragments set is in CONFIG as asked
verify_config() {
	local config=$1
	shift
	# the last fragment naming an option wins, as in merge_config.sh
	awk '
		FILENAME == ARGV[1] {
			if (/^CONFIG_[A-Za-z0-9_]+=/) { i = index($0, "="); have[substr($0, 1, i - 1)] = substr($0, i + 1) }
			next
		}
		/^CONFIG_[A-Za-z0-9_]+=/ { i = index($0, "="); k = substr($0, 1, i - 1); want[k] = substr($0, i + 1); src[k] = FILENAME; next }
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "n"; src[$2] = FILENAME }
		END {
			for (k in want) {
				got = (k in have) ? have[k] : "n"
				if (got != want[k]) {
					printf "  %s: wanted %s, got %s (%s)\n", k, want[k], got, src[k]
					bad++
				}
			}
			exit bad > 0
		}' "$config" "$@" >&2
}

# run_make DIR ARGS... - make in the source tree with the O= output tree, logging to the build log
run_make() {
	local d=$1
	shift
	make -C "$d/src" O="$d/build" ARCH=x86_64 KBUILD_BUILD_USER=latency-hist KBUILD_BUILD_HOST=build-kernel \
		"$@" 2>&1 | tee -a "$d/build.log" >&2
}

# print_result - print the release, KDIR and image lines of a finished build
print_result() {
	local d=$1
	echo "release=$(cat "$d/build/include/config/kernel.release")"
	echo "kdir=$d/build"
	echo "image=$d/build/arch/x86/boot/bzImage"
}

# main - build one kernel, or reuse its cached build
main() {
	[ $# -eq 1 ] || usage
	case $1 in
	-h | --help) usage ;;
	list) echo "$KNAMES"; exit 0 ;;
	esac
	local name=$1 pkg ver key hash d f t0 t1 t_src t_cfg
	local -a frags
	kernel_line "$name"
	pkg=$PKG
	BPO_DIR=$KBUILD_ROOT/apt-$SUITE
	[ -f "$LH_FRAGDIR/$CONFIG" ] || die "no fragment $LH_FRAGDIR/$CONFIG"
	command -v gcc >/dev/null || die "gcc not found: run scripts/setup-host.sh"
	command -v openssl >/dev/null || die "openssl (module signing keys) not found: run scripts/setup-host.sh"
	mkdir -p "$KBUILD_ROOT"

	# One build per NAME at a time; a second caller waits and then reuses the result.
	exec 9> "$KBUILD_ROOT/.$name.lock"
	flock 9

	ver=$(src_version "$pkg")
	mapfile -t frags < <(fragments)
	key=$(
		echo "recipe=$RECIPE"
		echo "name=$name"
		echo "source=$pkg $ver"
		echo "gcc=$(gcc --version | head -n 1)"
		echo "ld=$(ld --version | head -n 1)"
		for f in "${frags[@]}"; do
			echo "fragment=$(basename "$f")"
			cat "$f"
		done
	)
	hash=$(printf '%s\n' "$key" | sha256sum | cut -c 1-12)
	d=$KBUILD_ROOT/$name-$hash

	if [ -f "$d/.complete" ] && [ -f "$d/build/arch/x86/boot/bzImage" ]; then
		log "using the cached build $d"
		print_result "$d"
		return
	fi

	lh_path_is_kbuild_safe "$KBUILD_ROOT" ||
		die "kbuild cannot build in $KBUILD_ROOT (white space or special characters): set LH_CACHE to a plain path"
	lh_need_space "$KBUILD_ROOT" 4096 "building $name"
	log "building $name from $pkg $ver in $d (make -j$JOBS; log: $d/build.log)"
	t0=$(date +%s)
	rm -rf "$d"
	mkdir -p "$d/build" "$d/fragments"
	printf '%s\n' "$key" > "$d/key"
	for f in "${frags[@]}"; do cp "$f" "$d/fragments/"; done
	unpack_source "$pkg" "$ver" "$d/src"
	t_src=$(date +%s)

	run_make "$d" tinyconfig || die "make tinyconfig failed"
	(cd "$d/build" && "$d/src/scripts/kconfig/merge_config.sh" -m -O "$d/build" "$d/build/.config" "${frags[@]}" \
		>> "$d/build.log" 2>&1) || die "merge_config.sh failed (see $d/build.log)"
	run_make "$d" olddefconfig || die "make olddefconfig failed"
	if ! verify_config "$d/build/.config" "${frags[@]}"; then
		die "the options above from the fragments did not survive olddefconfig (missing dependency or" \
			"option not in this kernel); $d/build/.config is kept for inspection"
	fi

	# `all` builds vmlinux, bzImage, the in-tree modules and Module.symvers: the O= tree is then a
	# complete KDIR for external modules.
	t_cfg=$(date +%s)
	log "source ready in $((t_src - t0)) s, configured in $((t_cfg - t_src)) s; compiling"
	run_make "$d" -j"$JOBS" all || die "kernel build failed (see $d/build.log)"
	[ -f "$d/build/arch/x86/boot/bzImage" ] || die "no bzImage after the build"
	[ -f "$d/build/Module.symvers" ] || die "no Module.symvers after the build"
	t1=$(date +%s)
	{
		echo "name=$name"
		echo "source=$pkg $ver"
		echo "release=$(cat "$d/build/include/config/kernel.release")"
		echo "gcc=$(gcc --version | head -n 1)"
		echo "build_seconds=$((t1 - t0))"
		echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	} > "$d/info"
	touch "$d/.complete"
	log "built $name in $((t1 - t0)) s (compiling: $((t1 - t_cfg)) s)"

	if [ "${LH_KBUILD_KEEP:-0}" != 1 ]; then
		for f in "$KBUILD_ROOT/$name"-*; do
			[ "$f" = "$d" ] || [ ! -d "$f" ] || { log "removing the older build $f"; rm -rf "$f"; }
		done
	fi
	print_result "$d"
}

main "$@"
