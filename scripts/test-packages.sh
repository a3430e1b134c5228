#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test-packages.sh - the Debian packages tried as a new user would: in a fresh Debian 12 root,
# `apt install ./latency-hist-dkms_*.deb ./latency-hist-tools_*.deb` makes DKMS build the module for a
# matrix kernel whose headers are present, and `apt purge` leaves no file behind. The DKMS-built module
# and the packaged lh are kept for a guest of that kernel to load and run (selftests/package.sh, the
# matrix's boot "package"). Prints KTAP, ending in a "# Totals:" line.
#
# Usage: test-packages.sh OUTDIR KREL KROOT
#   OUTDIR  where the packages are built (OUTDIR/src, a copy of the tree: dpkg-buildpackage writes to
#           its parent) and what the guest needs is left: OUTDIR/out/latency_hist.ko, OUTDIR/out/lh,
#           OUTDIR/out/result ("ok" or "not ok", written last: the guest waits for it)
#   KREL    the kernel release (scripts/kernels.sh's LH_KREL)
#   KROOT   where scripts/kernels.sh unpacked that kernel (LH_KROOT)
#
# The root: mmdebstrap --variant=apt bookworm, plus what the kernel's headers packages depend on
# (gcc-12, libelf1, libssl3, zlib1g, pahole), with apt's lists and the .debs of dkms and its
# dependencies kept. It is made once a week into $LH_CACHE/pkgtest/ (a tarball, about 300 MB) and
# unpacked afresh for every run: after that the test needs no network.
# The headers: the cache keeps the kernel unpacked, not its .debs, and linux-headers-R depends on
# linux-image-R, so installing them with the root's dpkg would download both again and install a
# kernel image into the root. Their trees (usr/src/linux-headers-R, -common, usr/lib/linux-kbuild-*)
# are copied into the root at the paths the packages use, with /lib/modules/R/build, which is all that
# DKMS looks for ("kernels with headers"). Nothing of it touches this machine's dpkg, /boot or
# /lib/modules: the root is a directory of OUTDIR, entered with chroot in a private mount namespace.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 3 ] || die "usage: test-packages.sh OUTDIR KREL KROOT"
out=$1 krel=$2 kroot=$3
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
root=$out/root
cache=$LH_CACHE/pkgtest
tarball=$cache/bookworm-root.tar
n=0 pass=0 fail=0
t_start=$(date +%s)

# tap - one KTAP result: tap OK NAME [DIAG]
tap() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n $2"
	else
		fail=$((fail + 1))
		echo "not ok $n $2"
	fi
	[ -z "${3:-}" ] || echo "# $3"
}

# in_root - run a command in the root, with /proc, /sys and /dev mounted in a private mount namespace
# (gone when the command ends)
in_root() {
	unshare --mount --propagation private sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc" && mount --rbind /sys "$root/sys" && mount --rbind /dev "$root/dev" &&
		exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"
	' in_root "$root" "$@"
}

# file_list - every file and link of the root but the mount points, apt's and dpkg's state, logs
file_list() {
	(cd "$root" && find . -path ./proc -prune -o -path ./sys -prune -o -path ./dev -prune -o \
		-path ./var/lib/dpkg -prune -o -path ./var/lib/apt -prune -o -path ./var/cache -prune -o \
		-path ./var/log -prune -o -path ./tmp -prune -o ! -type d -print) | sort
}

# usr_merged - the paths of stdin as a merged-/usr root resolves them (/lib/x is /usr/lib/x); "#"
# delimits, because inside s|...| a \| is a literal | and not an alternation
usr_merged() {
	sed -e 's#^/\(lib\|lib64\|bin\|sbin\)/#/usr/\1/#'
}

echo "KTAP version 1"
echo "1..6"
rm -rf "$out/out" "$out/src" "$root"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mkdir -p "$out/out"
trap 'echo "not ok" > "$out/out/result"' EXIT

# 1. the packages, from a copy of the tree (dpkg-buildpackage writes next to it)
t0=$(date +%s)
mkdir -p "$out/src"
tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$out/src" -xf -
if (cd "$out/src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1; then
	lint=$(lintian --suppress-tags bash-term-in-posix-shell "$out"/latency-hist_*.changes 2>&1 |
		grep -v 'root privileges' || true)
	tap "$([ -z "$lint" ] && echo 0 || echo 1)" dpkg_buildpackage_and_lintian_clean \
		"$(($(date +%s) - t0)) s${lint:+; lintian: $lint}"
else
	tail -n 20 "$out/build.log" | sed 's/^/# /'
	tap 1 dpkg_buildpackage_and_lintian_clean
	echo "# Totals: pass:$pass fail:$((fail + 5)) xfail:0 xpass:0 skip:0 error:0"
	exit 1
fi

# 2. the fresh root (the cached tarball, made again when older than a week, or when what the cache
# holds under its name is not a readable tarball: an older version of this script left a directory
# there, and a power cut can leave half a file). mmdebstrap picks its output format from the target's
# name unless told: the format is given, and the temporary name ends in .tar as well.
t0=$(date +%s)
mkdir -p "$cache"
if [ -e "$tarball" ] && { [ ! -f "$tarball" ] || ! tar -tf "$tarball" > /dev/null 2>&1; }; then
	echo "# the cached root $tarball is not a readable tarball: made again"
	rm -rf "$tarball"
fi
if [ ! -s "$tarball" ] || [ -n "$(find "$tarball" -mtime +7)" ]; then
	rm -rf "$tarball.tmp.tar"
	mmdebstrap --variant=apt --format=tar --skip=cleanup/apt/lists,cleanup/apt/cache \
		--include=gcc-12,libelf1,libssl3,zlib1g,pahole \
		--customize-hook='chroot "$1" apt-get install --download-only -y --no-install-recommends dkms' \
		bookworm "$tarball.tmp.tar" > "$out/mmdebstrap.log" 2>&1 && mv "$tarball.tmp.tar" "$tarball" ||
		{ rm -rf "$tarball.tmp.tar"; tail -n 20 "$out/mmdebstrap.log" | sed 's/^/# /'; }
fi
mkdir -p "$root"
ok=1
if [ -s "$tarball" ] && tar -C "$root" -xf "$tarball"; then
	mkdir -p "$root/usr/src" "$root/usr/lib" "$root/lib/modules/$krel"
	cp -a "$kroot"/usr/src/linux-headers-* "$kroot"/usr/src/linux-kbuild-* "$root/usr/src/" 2>/dev/null || true
	cp -a "$kroot"/usr/lib/linux-kbuild-* "$root/usr/lib/"
	ln -s "/usr/src/linux-headers-$krel" "$root/lib/modules/$krel/build"
	# (the link is absolute, as the headers package makes it: check its target inside the root)
	[ -f "$root/usr/src/linux-headers-$krel/Makefile" ] && ok=0
fi
tap "$ok" fresh_bookworm_root_with_the_headers_of_"$krel" "$(($(date +%s) - t0)) s"

# 3. apt install: DKMS builds the module for the kernel with headers
t0=$(date +%s)
before=$(file_list)
cp "$out"/latency-hist-dkms_*_all.deb "$out"/latency-hist-tools_*_all.deb "$root/tmp/"
ok=1
if in_root sh -c 'cd /tmp && apt-get install -y --no-install-recommends ./latency-hist-dkms_*_all.deb ./latency-hist-tools_*_all.deb' \
	> "$out/install.log" 2>&1; then
	ko=$(find "$root/lib/modules/$krel/updates" -name 'latency_hist.ko*' 2>/dev/null | head -n 1)
	if [ -n "$ko" ]; then
		case $ko in
		*.xz) xz -dc "$ko" > "$out/out/latency_hist.ko" ;;
		*) cp "$ko" "$out/out/latency_hist.ko" ;;
		esac
		cp "$root/usr/bin/lh" "$out/out/lh"
		ok=0
	fi
fi
[ "$ok" = 0 ] || tail -n 30 "$out/install.log" | sed 's/^/# /'
tap "$ok" apt_install_makes_dkms_build_for_"$krel" "$(($(date +%s) - t0)) s"

# 4. what the tools package installed is where a user looks for it
ok=0
for f in usr/bin/lh usr/share/man/man1/lh.1.gz usr/share/man/man7/latency_hist.7.gz \
	usr/share/bash-completion/completions/lh lib/systemd/system/lh-monitor.service \
	etc/default/lh-monitor etc/logrotate.d/lh-monitor; do
	[ -e "$root/$f" ] || { echo "# missing: /$f"; ok=1; }
done
in_root lh --version > "$out/version.log" 2>&1 || ok=1
grep -qx "lh $(cat "$LH_TOP/VERSION")"'.*' "$out/version.log" || { echo "# lh --version: $(cat "$out/version.log")"; ok=1; }
tap "$ok" tools_installed_lh_man_pages_completion_service_logrotate

# 5. apt purge: no file is left that was not there before and that no installed package owns (what apt
# pulled in with dkms and keeps, make or dpkg-dev, is a package's). Not ours, and left on purpose:
# depmod's index of the kernel (the image package's on a real system), DKMS's module signing key,
# made at its first build (dkms's postrm keeps /var/lib/dkms), and the /etc/alternatives links of the
# packages apt keeps, and the links to them (update-alternatives', not in dpkg's file lists).
t0=$(date +%s)
ok=1
if in_root apt-get purge -y --autoremove latency-hist-dkms latency-hist-tools dkms > "$out/purge.log" 2>&1; then
	left=$(comm -13 <(echo "$before") <(file_list) | sed 's|^\./|/|' | usr_merged | sort |
		comm -23 - <(cat "$root"/var/lib/dpkg/info/*.list | usr_merged | sort -u) |
		grep -v -e "^/usr/lib/modules/$krel/modules\." -e '^/var/lib/dkms/mok\.\(key\|pub\)$' \
			-e '^/etc/alternatives/' | while read -r f; do
			# a link to /etc/alternatives (xz-utils' lzma, ...) is update-alternatives' too
			case $(readlink "$root$f") in /etc/alternatives/*) ;; *) echo "$f" ;; esac
		done || true)
	if [ -z "$left" ]; then
		ok=0
	else
		echo "$left" | sed 's/^/# left behind: /'
	fi
else
	tail -n 20 "$out/purge.log" | sed 's/^/# /'
fi
tap "$ok" apt_purge_leaves_no_file_behind "$(($(date +%s) - t0)) s"
rm -rf "$root"

# 6. the guest's part (selftests/package.sh) runs in the package boot of the kernel; here only
# whether there is something to give it
ok=1
[ -s "$out/out/latency_hist.ko" ] && [ -s "$out/out/lh" ] && ok=0
tap "$ok" dkms_built_module_and_packaged_lh_ready_for_the_guest "total $(($(date +%s) - t_start)) s"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
trap - EXIT
if [ "$fail" = 0 ]; then echo ok > "$out/out/result"; else echo "not ok" > "$out/out/result"; fi
[ "$fail" = 0 ]
