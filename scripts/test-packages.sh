#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test-packages.sh - the packages tried as a new user and a distribution packager would. On the host:
# the Debian packages build and lintian is clean; the RPMs build and their scriptlets are not empty
# (the service's come from systemd-rpm-macros, which this Debian rpm lacks: the spec carries their
# expansion); scripts/set-version.sh reaches every file that spells the version out, and --check names
# each one that differs; the Yocto and Buildroot recipes are sound (contrib/test-recipes.sh, no kernel).
# Then in a fresh Debian 12 root with a matrix kernel's headers: README.md's Debian blocks run as they
# are written (extracted between their markers, so the README and what works cannot drift): the build
# dependencies it names install, dpkg-buildpackage builds, and installing ../*.deb makes DKMS build the
# module for the kernel with headers, without pulling in a kernel or headers package; the tools
# package puts lh, the man pages, the completion, the unit and the boot examples where a user looks;
# DKMS builds the module for a second kernel when its headers arrive (the upgrade path); a hand
# install with make install/uninstall leaves nothing; `apt purge` leaves no file behind. The
# DKMS-built module and the packaged lh are kept for a guest of that kernel to load and run
# (selftests/package.sh, the matrix's boot "package"). Prints KTAP, ending in a "# Totals:" line.
#
# Usage: test-packages.sh OUTDIR KREL KROOT
#   OUTDIR  where the packages are built (OUTDIR/src, a copy of the tree: dpkg-buildpackage writes to
#           its parent) and what the guest needs is left: OUTDIR/out/latency_hist.ko, OUTDIR/out/lh,
#           OUTDIR/out/ready once those two are there (the guest waits for it, or for the result),
#           OUTDIR/out/result ("ok" or "not ok", written last)
#   KREL    the kernel release (scripts/kernels.sh's LH_KREL)
#   KROOT   where scripts/kernels.sh unpacked that kernel (LH_KROOT)
# The second kernel of the upgrade check is the first of 6.12 and 6.1 that scripts/kernels.sh has
# unpacked and that is not KREL (a KTAP SKIP when there is none).
#
# The root: mmdebstrap --variant=apt bookworm, plus what the kernel's headers packages depend on
# (gcc-12, libelf1, libssl3, zlib1g, pahole), with apt's lists and the .debs of dkms, of the README's
# build dependencies and of their dependencies kept. It is made once a week into $LH_CACHE/pkgtest/
# (a tarball, about 300 MB, named after the README's list of build dependencies, so a change to the
# list makes a new one) and unpacked afresh for every run: after that the test needs no network.
# apt in the root answers yes (APT::Get::Assume-Yes), as the reader of the README does.
# The headers: the cache keeps the kernel unpacked, not its .debs, and linux-headers-R depends on
# linux-image-R, so installing them with the root's dpkg would download both again and install a
# kernel image into the root. Their trees (usr/src/linux-headers-R, -common, usr/lib/linux-kbuild-*)
# are copied into the root at the paths the packages use, with /lib/modules/R/build, which is all that
# DKMS looks for ("kernels with headers"). Nothing of it touches this machine's dpkg, /boot or
# /lib/modules: the root is a directory of OUTDIR, entered with chroot in a private mount namespace.
#
# lintian: clean with its default checks and with --pedantic. With --display-info as well it leaves
# one informational tag, package-supports-alternative-init-but-no-init.d-script on lh-monitor.service:
# the monitor is a systemd service only (an opt-in one; a sysvinit rig runs lh monitor itself). The
# diagnostic line of the first check lists what --pedantic --display-info leaves.

set -euo pipefail

# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ $# -eq 3 ] || die "usage: test-packages.sh OUTDIR KREL KROOT"
out=$1 krel=$2 kroot=$3
mkdir -p "$out"
out=$(cd "$out" && pwd -P)
root=$out/root
cache=$LH_CACHE/pkgtest
readme=$LH_TOP/README.md
n=0 pass=0 fail=0 skip=0
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

# readme_block NAME - the lines of README.md's block between <!-- NAME... --> and <!-- /NAME -->,
# unindented: what a reader copies
readme_block() {
	awk -v b="<!-- $1" -v e="<!-- /$1 -->" 'index($0, e) == 1 { exit } on { print } index($0, b) == 1 { on = 1 }' \
		"$readme" | sed 's/^    //'
}

# build_deps - the packages the README's build block installs (the words of its apt-get line that
# are not options)
build_deps() {
	readme_block debian-build | awk '$1 == "apt-get" && $2 == "install" {
		for (i = 3; i <= NF; i++) if ($i !~ /^-/) print $i }'
}

# add_headers REL KROOT - copy a kernel's headers trees from the cache into the root at the paths its
# packages use, with /lib/modules/REL/build (absolute, as the headers package makes it)
add_headers() {
	mkdir -p "$root/usr/src" "$root/usr/lib" "$root/lib/modules/$1"
	cp -a "$2"/usr/src/linux-headers-* "$2"/usr/src/linux-kbuild-* "$root/usr/src/" 2>/dev/null || true
	cp -a "$2"/usr/lib/linux-kbuild-* "$root/usr/lib/"
	ln -sfn "/usr/src/linux-headers-$1" "$root/lib/modules/$1/build"
}

echo "KTAP version 1"
echo "1..13"
rm -rf "$out/out" "$out/src" "$root" "$out/rpm"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo
mkdir -p "$out/out"
trap 'echo "not ok" > "$out/out/result"' EXIT
deps=$(build_deps | sort | tr '\n' ' ')
[ -n "$(readme_block debian-build)" ] && [ -n "$(readme_block debian-install)" ] && [ -n "$deps" ] ||
	die "README.md has no debian-build block with an apt-get install line, or no debian-install block"
tarball=$cache/bookworm-root-$(printf '%s' "$deps" | md5sum | cut -c 1-8).tar

# 1. the packages on the host, from a copy of the tree (dpkg-buildpackage writes next to it), for
# lintian, which the fresh root does not have
t0=$(date +%s)
mkdir -p "$out/src"
tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$out/src" -xf -
if (cd "$out/src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1; then
	# one run with every tag shown: the default's are its errors and warnings
	lintian --pedantic --display-info --suppress-tags bash-term-in-posix-shell \
		"$out"/latency-hist_*.changes > "$out/lintian.log" 2>&1 || true
	lint=$(grep -v 'root privileges' "$out/lintian.log" | grep -v '^[IPN]: ' || true)
	pedantic=$(grep '^[IPN]: ' "$out/lintian.log" | awk '{ print $1 " " $3 }' | sort -u | tr '\n' ';' || true)
	tap "$([ -z "$lint" ] && echo 0 || echo 1)" dpkg_buildpackage_and_lintian_clean \
		"$(($(date +%s) - t0)) s${lint:+; lintian: $lint}; lintian --pedantic leaves: ${pedantic:-nothing}"
else
	tail -n 20 "$out/build.log" | sed 's/^/# /'
	tap 1 dpkg_buildpackage_and_lintian_clean
fi

# 2. the RPMs, from a tarball of the tree as the spec's header makes it. Their scriptlets: the
# service's, which systemd-rpm-macros gives on Fedora and RHEL and the spec on a host without it
# (this one), and DKMS's. rpm compresses the man pages: Debian's brp-compress uses bash's read -d
# under #!/bin/sh, so it runs under bash here, as under Fedora's /bin/sh.
t0=$(date +%s)
version=$(cat "$LH_TOP/VERSION")
mkdir -p "$out/rpm/SOURCES"
tar -C "$out" --exclude=./src/debian/.debhelper --transform "s|^\./src|latency-hist-$version|" \
	-czf "$out/rpm/SOURCES/latency-hist-$version.tar.gz" ./src
ok=1
why=
if rpmbuild -bb --nodeps --define "_topdir $out/rpm" \
	--define "__brp_compress bash /usr/lib/rpm/brp-compress %{?_prefix}" \
	"$LH_TOP/latency-hist.spec" > "$out/rpm.log" 2>&1; then
	tools=$out/rpm/RPMS/noarch/latency-hist-$version-1.noarch.rpm
	dkms=$out/rpm/RPMS/noarch/latency-hist-dkms-$version-1.noarch.rpm
	ok=0
	# (the outputs are kept before grep -q reads them: with pipefail, a grep -q that stops at its
	# match would fail the pipeline of a writer that had more to write)
	for s in POSTIN:systemctl PREUN:systemctl POSTUN:systemctl; do
		v=$(rpm -qp --queryformat "%{${s%%:*}}\n" "$tools")
		grep -q "${s#*:}" <<< "$v" || { ok=1 why+=" latency-hist's ${s%%:*} scriptlet does not run ${s#*:};"; }
	done
	for s in POSTIN:"dkms install" PREUN:"dkms remove"; do
		v=$(rpm -qp --queryformat "%{${s%%:*}}\n" "$dkms")
		grep -q "${s#*:}" <<< "$v" || { ok=1 why+=" latency-hist-dkms's ${s%%:*} scriptlet does not run ${s#*:};"; }
	done
	for r in "$tools" "$dkms"; do
		v=$(rpm -qpL "$r")
		grep -q '/COPYING$' <<< "$v" || { ok=1 why+=" ${r##*/} has no COPYING as its licence;"; }
	done
	v=$(rpm -qpl "$tools")
	for f in man1/lh.1.gz man7/latency_hist.7.gz; do
		grep -qx "/usr/share/man/$f" <<< "$v" || { ok=1 why+=" no /usr/share/man/$f;"; }
	done
	rpm2cpio "$tools" | (cd "$out/rpm" && cpio -idm --quiet ./usr/share/man/man1/lh.1.gz)
	v=$(gzip -dc "$out/rpm/usr/share/man/man1/lh.1.gz" 2>/dev/null || true)
	grep -q '^\.TH' <<< "$v" || { ok=1 why+=" lh.1.gz is not one gzip of the page;"; }
else
	why=" rpmbuild failed: $(tail -n 3 "$out/rpm.log" | tr '\n' ' ')"
fi
tap "$ok" rpms_build_with_scriptlets_licence_and_compressed_man_pages "$(($(date +%s) - t0)) s;$why"

# 3. one version everywhere: set-version.sh in a scratch copy writes a new one into every file that
# spells it out (the spec's %changelog gets an entry on top), --check agrees, and --check names each
# file in which the version is then changed back
ok=0
why=
rm -rf "$out/ver"
mkdir -p "$out/ver"
tar -C "$out/src" --exclude=./debian/.debhelper -cf - . | tar -C "$out/ver" -xf -
if sh "$out/ver/scripts/set-version.sh" 98.7.6 > "$out/version.log" 2>&1; then
	for f in VERSION dkms.conf debian/changelog latency-hist.spec scripts/lh \
		contrib/yocto/recipes-kernel/latency-hist/latency-hist.bb \
		contrib/buildroot/package/latency-hist/latency-hist.mk; do
		grep -q '98\.7\.6' "$out/ver/$f" || { ok=1 why+=" $f lacks the new version;"; }
	done
	v=$(sed -n '/^%changelog/{n;p;q}' "$out/ver/latency-hist.spec")
	grep -q ' - 98\.7\.6-1$' <<< "$v" ||
		{ ok=1 why+=" the spec's newest %changelog entry is not 98.7.6;"; }
	for f in dkms.conf latency-hist.spec contrib/yocto/recipes-kernel/latency-hist/latency-hist.bb \
		contrib/buildroot/package/latency-hist/latency-hist.mk; do
		cp "$out/ver/$f" "$out/ver/$f.new"
		sed -i 's/98\.7\.6/98.7.5/' "$out/ver/$f"
		sh "$out/ver/scripts/set-version.sh" --check > "$out/version.log" 2>&1 &&
			{ ok=1 why+=" --check misses $f;"; }
		grep -q "$f has 98.7.5" "$out/version.log" || { ok=1 why+=" --check does not name $f;"; }
		mv "$out/ver/$f.new" "$out/ver/$f"
	done
	# the %changelog alone: the spec's Version: agrees, its newest entry does not
	sed -i '/^%changelog/,${s/ - 98\.7\.6-1$/ - 98.7.5-1/}' "$out/ver/latency-hist.spec"
	sh "$out/ver/scripts/set-version.sh" --check > "$out/version.log" 2>&1 &&
		{ ok=1 why+=" --check misses the spec's %changelog;"; }
else
	ok=1 why=" set-version.sh failed: $(tail -n 3 "$out/version.log" | tr '\n' ' ')"
fi
rm -rf "$out/ver"
tap "$ok" set_version_reaches_every_file_and_check_names_each "$why"

# 4. the Yocto and Buildroot recipes, as far as they can be tried without bitbake and buildroot
ok=0
bash "$LH_TOP/contrib/test-recipes.sh" > "$out/recipes.log" 2>&1 || ok=1
[ "$ok" = 0 ] || grep '^not ok' "$out/recipes.log" | sed 's/^/# /'
tap "$ok" yocto_and_buildroot_recipes "$(grep -c '^ok' "$out/recipes.log") checks passed"

# 5. setup-host.sh's profiles: packaging installs the build dependencies the README names and what
# this test runs; demo installs no service and nothing of the packaging; test has all of both
ok=0
why=
# prof PROFILE - the packages setup-host.sh installs for PROFILE
prof() { LH_KERNELS="$krel" bash "$LH_SCRIPTS/setup-host.sh" --profile "$1" --list 2>&1; }
if demo_p=$(prof demo) && pkg_p=$(prof packaging) && test_p=$(prof test); then
	for p in $deps lintian mmdebstrap rpm dkms; do
		grep -qx "$p" <<< "$pkg_p" || { ok=1 why+=" packaging lacks $p;"; }
	done
	for p in prometheus prometheus-node-exporter debhelper lintian; do
		grep -qx "$p" <<< "$demo_p" && { ok=1 why+=" demo installs $p;"; }
	done
	left=$(comm -23 <(printf '%s\n' "$demo_p" "$pkg_p" | sort -u) <(sort -u <<< "$test_p"))
	[ -z "$left" ] || { ok=1 why+=" test lacks $(echo $left);"; }
else
	ok=1 why=" setup-host.sh --profile ... --list failed: $(echo $demo_p $pkg_p $test_p | head -c 300)"
fi
tap "$ok" setup_host_profiles_demo_packaging_test "$(wc -l <<< "$demo_p") demo, $(wc -l <<< "$pkg_p") packaging, $(wc -l <<< "$test_p") test packages;$why"

# 6. the fresh root (the cached tarball, made again when older than a week, or when what the cache
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
	# (the roots of other lists stay, another checkout's test may be using one; those older than a
	# week go, as this one would be made again)
	rm -rf "$tarball.tmp.tar"
	find "$cache" -maxdepth 1 -name 'bookworm-root*.tar' -mtime +7 -delete
	# shellcheck disable=SC2016 # $1 is mmdebstrap's, in the hook
	mmdebstrap --variant=apt --format=tar --skip=cleanup/apt/lists,cleanup/apt/cache \
		--include=gcc-12,libelf1,libssl3,zlib1g,pahole \
		--customize-hook='chroot "$1" apt-get install --download-only -y --no-install-recommends dkms '"$deps" \
		bookworm "$tarball.tmp.tar" > "$out/mmdebstrap.log" 2>&1 && mv "$tarball.tmp.tar" "$tarball" ||
		{ rm -rf "$tarball.tmp.tar"; tail -n 20 "$out/mmdebstrap.log" | sed 's/^/# /'; }
fi
mkdir -p "$root"
ok=1
if [ -s "$tarball" ] && tar -C "$root" -xf "$tarball"; then
	echo 'APT::Get::Assume-Yes "true";' > "$root/etc/apt/apt.conf.d/90latency-hist-test"
	add_headers "$krel" "$kroot"
	[ -f "$root/usr/src/linux-headers-$krel/Makefile" ] && ok=0
fi
tap "$ok" fresh_bookworm_root_with_the_headers_of_"$krel" "$(($(date +%s) - t0)) s"

# 7. the README's Debian blocks, as they are written, in a copy of the tree in the root: the build
# dependencies, the build, then the install of ../*.deb, which makes DKMS build the module for the
# kernel with headers; no kernel or headers package comes with it (dkms recommends the generic
# kernel's headers: the README installs without recommends and says which headers to install)
t0=$(date +%s)
ok=1
why=
mkdir -p "$root/tmp/build/latency-hist"
tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$root/tmp/build/latency-hist" -xf -
readme_block debian-build > "$root/tmp/build/readme-build.sh"
readme_block debian-install > "$root/tmp/build/readme-install.sh"
if in_root sh -exc 'cd /tmp/build/latency-hist && . ../readme-build.sh' > "$out/readme-build.log" 2>&1; then
	before=$(file_list)
	if in_root sh -exc 'cd /tmp/build/latency-hist && . ../readme-install.sh' > "$out/install.log" 2>&1; then
		ko=$(find "$root/lib/modules/$krel/updates" -name 'latency_hist.ko*' 2>/dev/null | head -n 1 || true)
		kpkgs=$(in_root dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' 'linux-image-*' 'linux-headers-*' 2>/dev/null |
			awk '$1 == "ii" { print $2 }' | tr '\n' ' ' || true)
		if [ -z "$ko" ]; then
			why=" DKMS built no latency_hist.ko for $krel"
		elif [ -n "$kpkgs" ]; then
			why=" the install pulled in kernel packages: $kpkgs"
		else
			case $ko in
			*.xz) xz -dc "$ko" > "$out/out/latency_hist.ko" ;;
			*) cp "$ko" "$out/out/latency_hist.ko" ;;
			esac
			cp "$root/usr/bin/lh" "$out/out/lh"
			# the guest's part can start: it needs only these two, while the checks below go on
			touch "$out/out/ready"
			ok=0
		fi
	else
		why=" the install block failed"
		tail -n 30 "$out/install.log" | sed 's/^/# /'
	fi
else
	before=$(file_list)
	why=" the build block failed"
	tail -n 30 "$out/readme-build.log" | sed 's/^/# /'
fi
tap "$ok" readme_debian_blocks_build_and_install_and_dkms_builds_for_"$krel" "$(($(date +%s) - t0)) s;$why"

# 7b. DKMS signed the module the way Debian's dkms signs (prepare_signing()): with the machine's key,
# /var/lib/dkms/mok.key, which it makes with openssl at its first build (the package depends on
# openssl: without it dkms says "can't be generated, modules won't be signed" and builds an unsigned
# module, which a Secure Boot rig refuses) and whose certificate mok.pub a rig enrols with mokutil;
# the signature names that certificate (its serial number) and the kernel's hash
ok=1
why=
if [ -s "$out/out/latency_hist.ko" ] && [ -s "$root/var/lib/dkms/mok.pub" ]; then
	signer=$(modinfo -F signer "$out/out/latency_hist.ko" 2>/dev/null || true)
	key=$(modinfo -F sig_key "$out/out/latency_hist.ko" 2>/dev/null | tr -d ':\n' | tr a-f A-F || true)
	serial=$(openssl x509 -inform DER -in "$root/var/lib/dkms/mok.pub" -noout -serial 2>/dev/null |
		sed 's/^serial=//' | tr a-f A-F || true)
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$root/usr/src/linux-headers-$krel/.config" 2>/dev/null || true)
	algo=$(modinfo -F sig_hashalgo "$out/out/latency_hist.ko" 2>/dev/null || true)
	if [ "$signer" != "DKMS module signing key" ]; then
		why=" signer '$signer', expected 'DKMS module signing key'"
	elif [ -z "$serial" ] || [ "${key##*"$serial"}" = "$key" ]; then
		why=" signed with key $key, not mok.pub's serial $serial"
	elif [ "$algo" != "${hash:-sha512}" ]; then
		why=" hashed with $algo, the kernel's CONFIG_MODULE_SIG_HASH is $hash"
	else
		ok=0 why=" $algo, key $serial"
	fi
else
	why=" no module, or no /var/lib/dkms/mok.pub in the root (is openssl there?); the module's signer: '$(modinfo -F signer "$out/out/latency_hist.ko" 2>/dev/null || true)'"
fi
tap "$ok" dkms_signed_the_module_with_the_machine_s_mok_key "${why# }"

# 8. what the tools package installed is where a user looks for it
ok=0
for f in usr/bin/lh usr/share/man/man1/lh.1.gz usr/share/man/man7/latency_hist.7.gz \
	usr/share/bash-completion/completions/lh lib/systemd/system/lh-monitor.service \
	etc/default/lh-monitor etc/logrotate.d/lh-monitor \
	usr/share/doc/latency-hist-tools/examples/latency_hist.modules-load.conf \
	usr/share/doc/latency-hist-tools/examples/latency_hist.modprobe.conf \
	usr/share/latency-hist/prometheus/latency_hist.rules.yml; do
	[ -e "$root/$f" ] || { echo "# missing: /$f"; ok=1; }
done
in_root lh --version > "$out/version.log" 2>&1 || ok=1
grep -qx "lh $version"'.*' "$out/version.log" || { echo "# lh --version: $(cat "$out/version.log")"; ok=1; }
tap "$ok" tools_installed_lh_man_pages_completion_service_logrotate_boot_examples

# 9. the upgrade path: a second kernel's headers arrive, and their package's hook (dkms's
# header_postinst.d, which linux-headers-R runs) makes DKMS build the module for it
t0=$(date +%s)
k2rel='' k2root=''
for k in 6.12 6.1; do
	unset LH_KREL LH_KROOT
	eval "$(bash "$LH_SCRIPTS/kernels.sh" info "$k" 2>/dev/null)" || continue
	[ -n "${LH_KREL:-}" ] && [ "$LH_KREL" != "$krel" ] && { k2rel=$LH_KREL k2root=$LH_KROOT; break; }
done
if [ -z "$k2rel" ]; then
	n=$((n + 1)) skip=$((skip + 1))
	echo "ok $n dkms_builds_for_a_new_kernel_s_headers # SKIP neither 6.12 nor 6.1 is unpacked"
else
	ok=1
	add_headers "$k2rel" "$k2root"
	if in_root /etc/kernel/header_postinst.d/dkms "$k2rel" > "$out/upgrade.log" 2>&1 &&
		[ -n "$(find "$root/lib/modules/$k2rel/updates" -name 'latency_hist.ko*' 2>/dev/null)" ]; then
		ok=0
	else
		tail -n 20 "$out/upgrade.log" | sed 's/^/# /'
	fi
	tap "$ok" dkms_builds_for_a_new_kernel_s_headers_"$k2rel" "$(($(date +%s) - t0)) s"
fi

# 10. by hand, as the README's "By hand" says (with the build tools the README's build block
# installed, and kmod, which dkms brought: a rig has it): make sign refuses without a key, then signs
# with DKMS's (there now), make install puts the module where modprobe finds it for the kernel of
# KDIR, still signed so, make uninstall takes it away again (what depmod made is the kernel's)
t0=$(date +%s)
ok=1
hand_before=$(file_list)
if in_root sh -ec "cd /tmp/build/latency-hist &&
	! make KDIR=/lib/modules/$krel/build SIGN_KEY=/nonexistent sign 2> sign.err && grep 'cannot read the private key /nonexistent' sign.err &&
	rm sign.err &&
	make -j2 KDIR=/lib/modules/$krel/build sign && make -j2 KDIR=/lib/modules/$krel/build install &&
	ls /lib/modules/$krel/updates/latency_hist.ko* &&
	modinfo -F signer /lib/modules/$krel/updates/latency_hist.ko* | grep -x 'DKMS module signing key' &&
	make KDIR=/lib/modules/$krel/build uninstall" > "$out/hand.log" 2>&1; then
	left=$(comm -13 <(echo "$hand_before") <(file_list) | grep -v "/lib/modules/$krel/modules\." || true)
	if [ -z "$left" ]; then
		ok=0
	else
		echo "$left" | sed 's/^/# left behind by make install + uninstall: /'
	fi
else
	tail -n 20 "$out/hand.log" | sed 's/^/# /'
fi
tap "$ok" make_sign_install_then_uninstall_leaves_nothing "$(($(date +%s) - t0)) s"

# 11. apt purge: no file is left that was not there before the install and that no installed package
# owns (what apt pulled in with dkms and keeps, make or dpkg-dev, is a package's). Not ours, and left
# on purpose: depmod's index of the kernels (the image package's on a real system), DKMS's module
# signing key, made at its first build (dkms's postrm keeps /var/lib/dkms), the /etc/alternatives
# links of the packages apt keeps, and the links to them (update-alternatives', not in dpkg's file
# lists), and the headers the upgrade check copied in.
t0=$(date +%s)
ok=1
if in_root apt-get purge -y --autoremove latency-hist-dkms latency-hist-tools dkms > "$out/purge.log" 2>&1; then
	left=$(comm -13 <(echo "$before") <(file_list) | sed 's|^\./|/|' | usr_merged | sort |
		comm -23 - <(cat "$root"/var/lib/dpkg/info/*.list | usr_merged | sort -u) |
		grep -v -e "^/usr/lib/modules/[^/]*/modules\." -e '^/var/lib/dkms/mok\.\(key\|pub\)$' \
			-e '^/etc/alternatives/' ${k2rel:+-e "^/usr/src/linux-headers-$k2rel/" \
			-e "^/usr/src/linux-headers-${k2rel%-*}-common/" -e "^/usr/lib/linux-kbuild-" -e "^/usr/src/linux-kbuild-" \
			-e "^/usr/lib/modules/$k2rel/build$"} | while read -r f; do
			# a link to /etc/alternatives (xz-utils' lzma, ...) is update-alternatives' too
			case $(readlink "$root$f") in /etc/alternatives/*) ;; *) echo "$f" ;; esac
		done || true)
	if [ -z "$left" ]; then
		ok=0
	else
		echo "$left" | head -n 30 | sed 's/^/# left behind: /'
	fi
else
	tail -n 20 "$out/purge.log" | sed 's/^/# /'
fi
tap "$ok" apt_purge_leaves_no_file_behind "$(($(date +%s) - t0)) s"
rm -rf "$root"

# 12. the guest's part (selftests/package.sh) runs in the package boot of the kernel; here only
# whether there is something to give it
ok=1
[ -s "$out/out/latency_hist.ko" ] && [ -s "$out/out/lh" ] && ok=0
tap "$ok" dkms_built_module_and_packaged_lh_ready_for_the_guest "total $(($(date +%s) - t_start)) s"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
trap - EXIT
if [ "$fail" = 0 ]; then echo ok > "$out/out/result"; else echo "not ok" > "$out/out/result"; fi
[ "$fail" = 0 ]
