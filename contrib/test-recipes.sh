#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test-recipes.sh - run exactly the make invocations of Yocto's module.bbclass and Buildroot's
# kernel-module infrastructure (see README.md) against kernel build trees, each in a fresh copy of
# the tree with every exec bit cleared, as a tarball unpacks on a build host. bitbake and buildroot
# themselves are not run.
#
# Usage: contrib/test-recipes.sh KERNEL...   (names of scripts/matrix.conf; their trees must be
#        fetched or built: scripts/kernels.sh info KERNEL)
# Prints one "ok"/"not ok" line per kernel and tool, with seconds; logs in build/recipes/.

set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$top/build/recipes
mkdir -p "$out"
rc=0

# fresh_copy DIR - the tree without build/ and .git, no exec bit anywhere
fresh_copy() {
	rm -rf "$1"
	mkdir -p "$1"
	tar -C "$top" --exclude=./build --exclude=./.git -cf - . | tar -C "$1" -xf -
	chmod -R a-x+X "$1"
}

# result NAME LOG T0 STATUS KO - print the line of one build
result() {
	if [ "$4" = 0 ] && [ -n "$5" ]; then
		echo "ok $1 $(($(date +%s) - $3))s"
	else
		echo "not ok $1 (see $2)"
		rc=1
	fi
}

for k in "$@"; do
	unset LH_KDIR LH_KREL LH_KMAKE LH_KSRC
	kinfo=$("$top/scripts/kernels.sh" info "$k") || { echo "not ok $k: not fetched or built"; rc=1; continue; }
	eval "$kinfo"
	# The kernel's source tree: a build tree made with O= has a "source" link to it.
	ksrc=$LH_KDIR
	[ -e "$LH_KDIR/source" ] && ksrc=$(cd "$LH_KDIR/source" && pwd -P)
	# shellcheck disable=SC2206 # ARCH= CROSS_COMPILE= of a cross build, or nothing
	kmake=(${LH_KMAKE:-})
	# the kernel's compiler: CROSS_COMPILE's gcc, or the CC= the kernel line names (5.10: gcc-10)
	cross="" cc=""
	for a in "${kmake[@]}"; do
		case $a in
		CROSS_COMPILE=*) cross=${a#CROSS_COMPILE=} ;;
		CC=*) cc=${a#CC=} ;;
		esac
	done
	cc=${cc:-${cross}gcc}

	# Yocto: module_do_compile, then module_do_install
	src=$out/$k-yocto/src d=$out/$k-yocto/image log=$out/$k-yocto.log
	fresh_copy "$src"
	t0=$(date +%s)
	(cd "$src" && unset CFLAGS CPPFLAGS CXXFLAGS LDFLAGS &&
		make -j2 "${kmake[@]}" KERNEL_SRC="$ksrc" KERNEL_PATH="$ksrc" KERNEL_VERSION="$LH_KREL" \
			CC="$cc" LD="${cross}ld.bfd" AR="${cross}gcc-ar" OBJCOPY="${cross}objcopy" \
			STRIP="${cross}strip" O="$LH_KDIR" KBUILD_EXTRA_SYMBOLS="" &&
		make -j2 "${kmake[@]}" KERNEL_SRC="$ksrc" DEPMOD=echo MODLIB="$d/lib/modules/$LH_KREL" \
			INSTALL_FW_PATH="$d/lib/firmware" CC="$cc" LD="${cross}ld.bfd" \
			OBJCOPY="${cross}objcopy" STRIP="${cross}strip" O="$LH_KDIR" KBUILD_EXTRA_SYMBOLS="" \
			modules_install) > "$log" 2>&1
	st=$?
	result "$k yocto module.bbclass" "$log" "$t0" "$st" "$(find "$d" -name 'latency_hist.ko*' 2>/dev/null)"

	# Buildroot: the kernel-module infrastructure's build and install hooks
	src=$out/$k-buildroot/src d=$out/$k-buildroot/target log=$out/$k-buildroot.log
	fresh_copy "$src"
	t0=$(date +%s)
	(make -j2 -C "$LH_KDIR" "${kmake[@]}" INSTALL_MOD_PATH="$d" DEPMOD=/bin/true \
			PWD="$src" M="$src" modules &&
		make -j2 -C "$LH_KDIR" "${kmake[@]}" INSTALL_MOD_PATH="$d" DEPMOD=/bin/true \
			PWD="$src" M="$src" modules_install) > "$log" 2>&1
	st=$?
	result "$k buildroot kernel-module" "$log" "$t0" "$st" "$(find "$d" -name 'latency_hist.ko*' 2>/dev/null)"
done
exit "$rc"
