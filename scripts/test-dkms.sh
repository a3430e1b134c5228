#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# test-dkms.sh - prove dkms.conf works with Debian's dkms: "dkms add" and
# "dkms build" of this checkout for each given kernel release.
#
# Usage: test-dkms.sh RELEASE[=KDIR]...
#   KDIR is the kernel tree to build against (dkms build --kernelsourcedir); the
#   default is /lib/modules/RELEASE/build, the headers a rig installed with apt.
#   scripts/run-tests.sh passes the headers trees unpacked by scripts/kernels.sh.
#
# It uses a private dkms tree and source tree under a temporary directory, so
# the machine's own dkms state (and its autoinstall on future kernel
# installs) is never touched. Prints one "ok"/"not ok" line per release and
# exits non-zero if any build failed.

set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/src/latency_hist-$version" "$work/tree"
tar -C "$top" --exclude=./build --exclude=./.git -cf - . |
	tar -C "$work/src/latency_hist-$version" -xf -

dkms_opts=(--dkmstree "$work/tree" --sourcetree "$work/src")
dkms add "${dkms_opts[@]}" -m latency_hist -v "$version" >"$work/add.log" 2>&1 || {
	cat "$work/add.log" >&2
	echo "not ok dkms add"
	exit 1
}

failed=0
for arg in "$@"; do
	release=${arg%%=*}
	kdir=/lib/modules/$release/build
	[ "$arg" = "$release" ] || kdir=${arg#*=}
	if dkms build "${dkms_opts[@]}" -m latency_hist -v "$version" -k "$release" \
		--kernelsourcedir "$kdir" \
		>"$work/build-$release.log" 2>&1 &&
	   [ -n "$(find "$work/tree/latency_hist/$version/$release" -name 'latency_hist.ko*' 2>/dev/null)" ]; then
		echo "ok dkms build $release"
	else
		tail -20 "$work/build-$release.log" >&2
		find "$work/tree" -name make.log -exec tail -20 {} \; >&2 || true
		echo "not ok dkms build $release"
		failed=1
	fi
done
exit "$failed"
