#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test-recipes.sh - what can be tested of the Yocto and Buildroot recipes without bitbake or buildroot
# (neither is run here):
#   - the recipes themselves (always): the licence checksums match COPYING (Yocto's LIC_FILES_CHKSUM,
#     Buildroot's hash file for LICENSE_FILES), the Yocto recipe sets no S = "${WORKDIR}/git" (fatal
#     in openembedded-core since mid-2025), pins SRCREV (a commit, with the tag in SRC_URI) instead of
#     ${AUTOREV}, has no RDEPENDS on busybox, and its do_compile:append and do_install:append, run with
#     bitbake's variables given their usual values, install exactly what FILES:${PN}-tools lists (lh,
#     both man pages, the completion, the unit) and the SYSTEMD_SERVICE it names; Buildroot's
#     LINUX_CONFIG_FIXUPS turn on every kernel option dkms.conf's BUILD_EXCLUSIVE_CONFIG requires
#   - with KERNEL arguments, exactly the make invocations of Yocto's module.bbclass and Buildroot's
#     kernel-module infrastructure (see README.md) against kernel build trees, each in a fresh copy of
#     the tree with every exec bit cleared, as a tarball unpacks on a build host.
#
# Usage: contrib/test-recipes.sh [KERNEL...]   (names of scripts/matrix.conf; their trees must be
#        fetched or built: scripts/kernels.sh info KERNEL)
# Prints one "ok"/"not ok" line per check, and per kernel and tool with seconds; logs in
# build/recipes/. Exit status 1 if any failed.

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

# check NAME OK [WHY] - print the line of one check of the recipes
check() {
	if [ "$2" = 0 ]; then
		echo "ok $1"
	else
		echo "not ok $1${3:+: $3}"
		rc=1
	fi
}

# var FILE NAME - the value of a one-line assignment NAME = "VALUE" (or NAME = VALUE) in FILE
var() {
	sed -n "s/^$2[[:space:]]*[?:]*=[[:space:]]*\"\{0,1\}\([^\"]*\)\"\{0,1\}[[:space:]]*$/\1/p" "$1" | head -n 1
}

# body FILE FUNC - the body of the shell function FUNC() { ... } of a recipe, without its braces
body() {
	awk -v f="$2() {" '$0 == f { on = 1; next } on && /^}/ { exit } on { print }' "$1"
}

# check_recipes - the static checks of the recipes (the header's first part)
check_recipes() {
	local bb=$top/contrib/yocto/recipes-kernel/latency-hist/latency-hist.bb
	local mk=$top/contrib/buildroot/package/latency-hist/latency-hist.mk
	local hash=$top/contrib/buildroot/package/latency-hist/latency-hist.hash
	local md5 want d src files f p ok why opt

	md5=$(md5sum "$top/COPYING" | cut -d' ' -f1)
	want=$(var "$bb" LIC_FILES_CHKSUM)
	check "yocto LIC_FILES_CHKSUM is COPYING's" "$([ "$want" = "file://COPYING;md5=$md5" ] && echo 0 || echo 1)" \
		"'$want', COPYING's md5 is $md5"
	check "yocto no S = \${WORKDIR}/git" "$(grep -q '^S[[:space:]]*=.*WORKDIR./git' "$bb" && echo 1 || echo 0)"
	want=$(var "$bb" SRCREV)
	ok=1
	[[ $want =~ ^[0-9a-f]{40}$ ]] && grep -q '^SRC_URI.*;tag=' "$bb" && ok=0
	check "yocto SRCREV pinned to a commit, with its tag in SRC_URI" "$ok" "SRCREV is '$want'"
	check "yocto no RDEPENDS on busybox" "$(grep -q '^RDEPENDS.*busybox' "$bb" && echo 1 || echo 0)"

	# do_compile:append and do_install:append as bitbake runs them (S the tree, B where
	# module.bbclass builds: the tree too), into a D of our own
	d=$out/yocto-D
	src=$out/yocto-S
	fresh_copy "$src"
	rm -rf "$d"
	ok=1 why=
	if {
		echo 'set -e'
		echo "S='$src' B='$src' D='$d' bindir=/usr/bin mandir=/usr/share/man datadir=/usr/share"
		echo "sysconfdir=/etc systemd_system_unitdir=/usr/lib/systemd/system"
		body "$bb" do_compile:append
		body "$bb" do_install:append
	} | sed 's/\${\([A-Za-z_]*\)}/${\1}/g' | sh > "$out/yocto-install.log" 2>&1; then
		# FILES:${PN}-tools with those values, one path (or glob) a word
		files=$(awk 'index($0, "FILES:${PN}-tools = \"") == 1 { on = 1; sub(/^[^"]*"/, "") }
				on { if (sub(/".*/, "")) { print; exit } print }' "$bb" | tr -d '\\' |
			sed -e 's|${bindir}|/usr/bin|g' -e 's|${mandir}|/usr/share/man|g' -e 's|${datadir}|/usr/share|g' \
				-e 's|${sysconfdir}|/etc|g' -e 's|${systemd_system_unitdir}|/usr/lib/systemd/system|g')
		ok=0
		for f in $(cd "$d" && find . -type f | sed 's|^\.||'); do
			for p in $files; do
				# shellcheck disable=SC2053 # p is a glob
				[[ $f == $p ]] && continue 2
			done
			ok=1 why+=" installed but in no FILES: $f;"
		done
		for p in $files; do
			compgen -G "$d$p" > /dev/null || { ok=1 why+=" in FILES but not installed: $p;"; }
		done
		for f in bin/lh share/man/man1/lh.1 share/man/man7/latency_hist.7 \
			share/bash-completion/completions/lh lib/systemd/system/lh-monitor.service; do
			[ -s "$d/usr/$f" ] || { ok=1 why+=" missing: /usr/$f;"; }
		done
		want=$(var "$bb" 'SYSTEMD_SERVICE:${PN}-tools')
		[ -n "$want" ] && [ -s "$d/usr/lib/systemd/system/$want" ] || { ok=1 why+=" SYSTEMD_SERVICE '$want' not installed;"; }
	else
		why="do_compile:append or do_install:append failed: $(tail -n 3 "$out/yocto-install.log" | tr '\n' ' ')"
	fi
	check "yocto tools package: lh, man pages, completion, unit" "$ok" "$why"

	ok=0 why=
	for f in $(var "$mk" LATENCY_HIST_LICENSE_FILES); do
		want=$(sha256sum "$top/$f" 2>/dev/null | cut -d' ' -f1)
		[ -n "$want" ] && grep -q "^sha256  $want  $f$" "$hash" 2>/dev/null ||
			{ ok=1 why+=" $f: no hash line for its sha256 ${want:-(no such file)};"; }
	done
	[ -n "$(var "$mk" LATENCY_HIST_LICENSE_FILES)" ] || { ok=1 why+=" no LICENSE_FILES;"; }
	check "buildroot hash file covers LICENSE_FILES" "$ok" "$why"
	ok=0 why=
	for opt in $(sed -n 's/^BUILD_EXCLUSIVE_CONFIG="\(.*\)"$/\1/p' "$top/dkms.conf"); do
		# TRACEPOINTS cannot be set: it comes with TRACING, which the default tracers select
		[ "$opt" = CONFIG_TRACEPOINTS ] && opt=CONFIG_ENABLE_DEFAULT_TRACERS
		sed -n '/^define LATENCY_HIST_LINUX_CONFIG_FIXUPS/,/^endef/p' "$mk" |
			grep -q "KCONFIG_ENABLE_OPT,$opt)" || { ok=1 why+=" $opt not enabled;"; }
	done
	check "buildroot LINUX_CONFIG_FIXUPS enable what dkms.conf requires" "$ok" "$why"
}

check_recipes

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
