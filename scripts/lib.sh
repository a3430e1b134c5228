# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - what the host-side rig scripts share: messages, the cache location, root, disk space, and
# running from a checkout whose path kbuild cannot build in. Sourced (bash) by scripts/*.sh; defines
# functions and LH_SCRIPTS, LH_TOP, LH_CACHE, nothing else runs.
#
# A script sets LH_PROG (its name in messages) and may set LH_DIE_STATUS (the exit status of die,
# default 1) before or after sourcing this file.

# The checkout, physical: the guest sees host paths, and /tmp may be reached through a symlink.
LH_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
LH_TOP=$(cd "$LH_SCRIPTS/.." && pwd -P)
LH_PROG=${LH_PROG:-${0##*/}}

# die - print one error line (what went wrong and what to do) and exit with $LH_DIE_STATUS (default 1)
die() {
	echo "$LH_PROG: error: $*" >&2
	exit "${LH_DIE_STATUS:-1}"
}

# log - print a progress message on stderr (stdout carries results)
log() {
	echo "$LH_PROG: $*" >&2
}

# Root (CI, the rig) shares one system cache; other users get their own.
if [ -z "${LH_CACHE:-}" ]; then
	if [ "$(id -u)" = 0 ]; then
		LH_CACHE=/var/cache/latency-hist
	else
		LH_CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/latency-hist
	fi
fi
export LH_CACHE

# lh_as_root - run a command as root: directly, or through sudo (asking for a password only on a terminal)
lh_as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif ! command -v sudo > /dev/null; then
		die "installing packages needs root: run this as root, or install sudo and add $(id -un) to group sudo"
	elif [ -t 0 ]; then
		sudo env DEBIAN_FRONTEND=noninteractive "$@"
	elif sudo -n true 2> /dev/null; then
		sudo -n env DEBIAN_FRONTEND=noninteractive "$@"
	else
		die "installing packages needs root, and sudo asks for a password but there is no terminal to ask on: run this from a terminal, or as root"
	fi
}

# lh_path_is_kbuild_safe - true if make/kbuild can build in a directory of this path (no white space,
# no make metacharacters)
lh_path_is_kbuild_safe() {
	case $1 in
	*[!A-Za-z0-9_./+@~-]*) return 1 ;;
	esac
	return 0
}

# lh_need_space - fail unless the file system of DIR (or of its nearest existing parent) has MIB MiB free
lh_need_space() {
	local dir=$1 mib=$2 what=$3 avail
	while [ ! -d "$dir" ]; do dir=$(dirname "$dir"); done
	avail=$(df -Pk "$dir" 2> /dev/null | awk 'NR == 2 { print int($4 / 1024) }')
	[ -n "$avail" ] || return 0
	[ "$avail" -ge "$mib" ] ||
		die "too little disk space for $what: $avail MiB free in $dir, $mib MiB needed (free some space, or set LH_CACHE to a larger file system)"
}

# lh_safe_checkout - if kbuild cannot build in this checkout's path (white space, ...), copy the working
# tree to the cache and run the calling script from the copy, with the logs still in this checkout's
# build/logs (LH_LOGS). Call as: lh_safe_checkout "$@"  (returns only when the path is fine)
lh_safe_checkout() {
	local copy
	export LH_LOGS=${LH_LOGS:-$LH_TOP/build/logs}
	lh_path_is_kbuild_safe "$LH_TOP" && return 0
	lh_path_is_kbuild_safe "$LH_CACHE" ||
		die "the checkout ($LH_TOP) and LH_CACHE ($LH_CACHE) both have characters kbuild cannot build in: set LH_CACHE to a path without spaces"
	copy=$LH_CACHE/checkouts/$(printf '%s' "$LH_TOP" | sha256sum | cut -c 1-12)
	log "kbuild cannot build in '$LH_TOP' (white space or special characters): running from a copy in $copy; logs stay in $LH_LOGS"
	mkdir -p "$copy" || die "cannot create $copy"
	# the copy's own build/ (per-kernel trees) is kept between runs, like the checkout's
	if ! find "$copy" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} + ||
		! tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$copy" -xf -; then
		die "cannot copy the checkout to $copy (disk full?)"
	fi
	exec bash "$copy/scripts/${0##*/}" "$@"
}

# The test matrix: kernels, sets of tests, suites (see the header of matrix.conf).
LH_MATRIX=${LH_MATRIX:-$LH_SCRIPTS/matrix.conf}

# lh_matrix_kernels - print the kernels of a suite (test, stress, validate, bench), or of every kernel
# line with "kernel", or the kernels built here with "built", in matrix order, on one line
lh_matrix_kernels() {
	awk -v s="$1" '
		/^[ \t]*#/ { next }
		s == "built" && $1 == "kernel" && $3 == "built" { printf "%s%s", (n++ ? " " : ""), $2; next }
		s != "built" && $1 == s { printf "%s%s", (n++ ? " " : ""), $2 }
		END { print "" }' "$LH_MATRIX"
}

# lh_matrix_kernel - print the words after the name on a kernel's line ("packaged meta IMG HDR", "built
# PKG SUITE CONFIG"); false if the matrix has no such kernel
lh_matrix_kernel() {
	awk -v k="$1" '$1 == "kernel" && $2 == k { $1 = ""; $2 = ""; sub(/^ +/, ""); print; found = 1 }
		END { exit !found }' "$LH_MATRIX"
}

# lh_matrix_set - print the tests of a named set; false if there is no such set
lh_matrix_set() {
	awk -v n="$1" '$1 == "set" && $2 == n { $1 = ""; $2 = ""; sub(/^ +/, ""); print; found = 1 }
		END { exit !found }' "$LH_MATRIX"
}

# lh_matrix_why - print why a set is left out where it is (empty if the matrix gives no reason)
lh_matrix_why() {
	awk -v n="$1" '$1 == "why" && $2 == n { $1 = ""; $2 = ""; sub(/^ +/, ""); print }' "$LH_MATRIX"
}

# lh_matrix_get - print the value of KEY on the line of SUITE and KERNEL, or on the boot line of NAME with
# SUITE "boot" (empty if the line has no such key)
lh_matrix_get() {
	awk -v s="$1" -v k="$2" -v key="$3" '$1 == s && $2 == k {
		for (i = 3; i <= NF; i++) if (index($i, key "=") == 1) { print substr($i, length(key) + 2); exit }
	}' "$LH_MATRIX"
}

# lh_private_apt DIR TOOL ARGS... - run apt-get or apt-cache (TOOL) on the private apt state in DIR (its
# sources.list, preferences, lists and cache; nothing of this machine's apt is read or changed)
lh_private_apt() {
	local dir=$1 tool=$2
	shift 2
	"$tool" -q -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=- \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Dir::Etc::preferences="$dir/preferences" -o Dir::Etc::preferencesparts="$dir/preferences.d" \
		-o APT::Get::List-Cleanup=0 -o Acquire::Languages=none "$@"
}
