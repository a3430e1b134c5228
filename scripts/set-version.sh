#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# set-version.sh - the version, from its one place (VERSION), into the files
# that must spell it out themselves, or check that they do.
#
# Usage: sh scripts/set-version.sh NEW     write NEW to VERSION and everywhere
#        sh scripts/set-version.sh --check  exit 1, naming the file, if one differs
#
# Read from VERSION at build time: modinfo (Kbuild's -DLH_VERSION), the man
# pages (scripts/gen-man.sh). Spelled out, because their readers cannot read
# another file: dkms.conf (dkms reads PACKAGE_VERSION before it has the tree),
# debian/changelog (dpkg-parsechangelog), latency-hist.spec (rpm's Version:
# and the newest %changelog entry, which rpm puts in the package), scripts/lh
# (installed alone on rigs) and its source scripts/lh.d/00-head.sh (make lh),
# the Yocto recipe's PV and Buildroot's VERSION (bitbake and Buildroot read
# only their own files). debian/rules and the spec run --check, so a package
# is never built with two versions.

set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
yocto=contrib/yocto/recipes-kernel/latency-hist/latency-hist.bb
buildroot=contrib/buildroot/package/latency-hist/latency-hist.mk

# versions - print "FILE VERSION" for every file that spells the version out
versions()
{
	echo "dkms.conf $(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)"
	echo "debian/changelog $(sed -n '1s/^[^ ]* (\([^)-]*\)[^)]*).*/\1/p' debian/changelog)"
	echo "latency-hist.spec $(sed -n 's/^Version:[[:space:]]*//p' latency-hist.spec)"
	echo "latency-hist.spec:%changelog $(sed -n '/^%changelog/{n;s/.* - \([^ -]*\)-[^ -]*$/\1/p;q}' latency-hist.spec)"
	echo "scripts/lh $(sed -n 's/^LH_VERSION=//p' scripts/lh)"
	echo "scripts/lh.d/00-head.sh $(sed -n 's/^LH_VERSION=//p' scripts/lh.d/00-head.sh)"
	echo "$yocto $(sed -n 's/^PV = "\(.*\)"$/\1/p' "$yocto")"
	echo "$buildroot $(sed -n 's/^LATENCY_HIST_VERSION = //p' "$buildroot")"
}

case ${1:-} in
--check)
	want=$(cat VERSION)
	bad=$(versions | awk -v v="$want" '$2 != v { print "  " $1 " has " ($2 == "" ? "none" : $2) }')
	[ -z "$bad" ] && exit 0
	printf 'set-version: VERSION is %s, but\n%s\n(run: sh scripts/set-version.sh %s)\n' "$want" "$bad" "$want" >&2
	exit 1
	;;
[0-9]*)
	case $1 in *[!0-9.]* | *..* | *.) echo "set-version: '$1' is not a version (digits and dots)" >&2; exit 2 ;; esac
	echo "$1" > VERSION
	sed -i "s/^PACKAGE_VERSION=\".*\"$/PACKAGE_VERSION=\"$1\"/" dkms.conf
	sed -i "s/^Version:\([[:space:]]*\).*/Version:\1$1/" latency-hist.spec
	sed -i "s/^LH_VERSION=.*/LH_VERSION=$1/" scripts/lh scripts/lh.d/00-head.sh
	sed -i "s/^PV = \".*\"$/PV = \"$1\"/" "$yocto"
	sed -i "s/^LATENCY_HIST_VERSION = .*/LATENCY_HIST_VERSION = $1/" "$buildroot"
	if [ "$(versions | awk '$1 == "latency-hist.spec:%changelog" { print $2 }')" != "$1" ]; then
		entry="* $(LC_ALL=C date +'%a %b %d %Y') latency-hist developers <latency-hist@lists.example.org> - $1-1"
		sed -i "/^%changelog/a $entry\\n- Version $1.\\n" latency-hist.spec
	fi
	if [ "$(versions | awk '$1 == "debian/changelog" { print $2 }')" != "$1" ]; then
		dch_date=$(date -R)
		{
			printf 'latency-hist (%s) bookworm; urgency=medium\n\n  * Version %s.\n\n' "$1" "$1"
			printf ' -- latency-hist developers <latency-hist@lists.example.org>  %s\n\n' "$dch_date"
			cat debian/changelog
		} > debian/changelog.new
		mv debian/changelog.new debian/changelog
	fi
	exec sh "$0" --check
	;;
*)
	echo "usage: set-version.sh NEW | --check" >&2
	exit 2
	;;
esac
