#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - prove the ordering contracts of latency_hist with the Linux-kernel memory model: run every
# litmus test of tools/litmus/ through herd7 and print KTAP.
#
# Each tools/litmus/*.litmus models one publish/consume pair of the module (its header names the file
# and function) and states the forbidden outcome with `exists`. Two test points per file:
#   NAME            herd7 must answer "Never" as written;
#   NAME weakened   the same test with every barrier weakened (release -> WRITE_ONCE, acquire ->
#                   READ_ONCE, fully ordered cmpxchg -> relaxed, smp_mb/rmb/wmb and synchronize_rcu
#                   removed, lock and unlock removed) must answer "Sometimes": a test that stays
#                   "Never" without its barriers proves nothing.
# Then each barrier line alone is weakened and the answer printed as a diagnostic ("needed" or
# "redundant here"): a barrier whose removal changes nothing in the model is either covered by a
# dependency or guards something the test does not model, and its comment must say which.
# tools/litmus/races/*.litmus model races the code has or had; herd7 must answer "Sometimes" (the
# model finds the race): one test point each.
# First, without herd7, tools/litmus/check-tie.sh: each test's header names the code it models in
# " * Code: PATH FUNCTION() BARRIER..." lines, and each named barrier must still be in the named
# function: one test point per Code line (so a barrier deleted from the module fails here).
#
# The tools, obtained as the kernels are (nothing is installed on this machine), into
# $LH_CACHE/litmus/:
#   herd7   herdtools7 is packaged in Debian forky only, built against glibc 2.42. It is downloaded
#           with `apt-get download` through a private apt state of forky (its own sources list and
#           lists under $LH_CACHE/litmus/apt-forky; this archive's forky Release file is expired, hence
#           Acquire::Check-Valid-Until=false), together with forky's libc6 and libgmp10, and unpacked
#           with dpkg-deb -x; herd7 then runs through forky's own dynamic loader with forky's
#           libraries (ld-linux-x86-64.so.2 --library-path). Why not a forky root made with
#           mmdebstrap: it would install mmdebstrap on this machine and download and unpack forky's
#           whole essential set (about 30 times the three packages) to run one static-ish OCaml
#           binary whose only dependencies are libc, libm and libgmp; and running it inside the root
#           needs chroot (root) or user namespaces. The three packages: 41 MB downloaded once (and
#           10 MB of package lists, deleted after), 22 MB kept, no privilege needed.
#   model   tools/memory-model of the linux-source package the 6.12-preempt kernel is built from
#           (scripts/build-kernel.sh keeps its .deb in $LH_CACHE/kbuild/debs/); when it is not there
#           yet, `apt-get download` into a temporary directory, deleted after. Only tools/memory-model
#           is unpacked.
#
# Usage: run.sh [--fetch] [TEST.litmus...]
#   --fetch   only obtain herd7 and the model (prints where they are)
# Environment: LH_CACHE (scripts/lib.sh), LH_LITMUS_SOURCE (default linux-source-6.12),
#   LH_DEBIAN_MIRROR (the mirror of the private forky state; default: this machine's bookworm one).
# Output: KTAP on stdout, ending with "# Totals:"; progress of the fetching on stderr.
# Exit status: 0 if every test point passed.

set -euo pipefail

LH_PROG=litmus
# shellcheck source=../../scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

LITMUS_DIR=$LH_TOP/tools/litmus
CACHE=$LH_CACHE/litmus
HERD_DIR=$CACHE/herd
MODEL_DIR=$CACHE/memory-model
SOURCE_PKG=${LH_LITMUS_SOURCE:-linux-source-6.12}
FORKY=$CACHE/apt-forky

# forky_apt - run apt-get/apt-cache (ARGS) on the private forky state (its Release file is expired)
forky_apt() {
	local tool=$1
	shift
	lh_private_apt "$FORKY" "$tool" -o Acquire::Check-Valid-Until=false "$@"
}

# debian_mirror - print the Debian archive this machine's apt takes bookworm from
debian_mirror() {
	local uri
	if [ -n "${LH_DEBIAN_MIRROR:-}" ]; then
		echo "${LH_DEBIAN_MIRROR%/}"
		return
	fi
	uri=$(apt-cache policy 2> /dev/null | awk '$3 == "bookworm/main" && $5 == "Packages" { print $2; exit }')
	[ -n "$uri" ] || die "this machine's apt has no Debian bookworm main archive (run: apt-get update, or set LH_DEBIAN_MIRROR)"
	echo "${uri%/}"
}

# fetch_herd - download herdtools7 and its libraries from forky and keep herd7, its library and them
fetch_herd() {
	local tmp f
	[ -f "$HERD_DIR/.complete" ] && return 0
	command -v dpkg-deb > /dev/null || die "dpkg-deb not found (this needs a Debian host)"
	mkdir -p "$FORKY/lists/partial" "$FORKY/cache/archives/partial" "$FORKY/preferences.d"
	: > "$FORKY/preferences"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) forky main" \
		> "$FORKY/sources.list"
	# apt drops privileges to _apt for downloads when it can; let it write
	chown -R _apt "$FORKY/lists" "$FORKY/cache" 2> /dev/null || true
	log "getting herdtools7 from Debian forky (private apt state in $FORKY)"
	forky_apt apt-get update >&2 || die "apt-get update of the private forky lists failed: no network to the Debian mirror? (apt says why above)"
	tmp=$(mktemp -d "$CACHE/herd.XXXXXX")
	chown _apt "$tmp" 2> /dev/null || true
	(cd "$tmp" && forky_apt apt-get download herdtools7 libc6 libgmp10 >&2) ||
		die "apt-get download herdtools7 libc6 libgmp10 (forky) failed (apt says why above)"
	mkdir "$tmp/root" "$tmp/keep" "$tmp/keep/lib"
	for f in "$tmp"/*.deb; do
		dpkg-deb -x "$f" "$tmp/root" || die "dpkg-deb -x $f failed"
	done
	mv "$tmp/root/usr/bin/herd7" "$tmp/keep/herd7"
	mv "$tmp/root/usr/share/herdtools7/herd" "$tmp/keep/share"
	for f in ld-linux-x86-64.so.2 libc.so.6 libm.so.6 libgmp.so.10; do
		cp -L "$tmp/root/usr/lib/x86_64-linux-gnu/$f" "$tmp/keep/lib/" ||
			die "forky's libc6/libgmp10 have no $f"
	done
	dpkg-deb -f "$tmp"/herdtools7_*.deb Version > "$tmp/keep/version"
	rm -rf "$HERD_DIR"
	mv "$tmp/keep" "$HERD_DIR"
	# the lists (20 MB) served this download only
	rm -rf "$tmp" "$FORKY"
	touch "$HERD_DIR/.complete"
}

# unpack_model DEB DIR - unpack tools/memory-model of the linux-source package DEB into DIR
unpack_model() {
	log "unpacking tools/memory-model of $(basename "$1")"
	rm -rf "$2"
	mkdir "$2"
	dpkg-deb --fsys-tarfile "$1" | tar -xOf - "./usr/src/$SOURCE_PKG.tar.xz" |
		tar -xJf - -C "$2" --strip-components=3 --wildcards "$SOURCE_PKG/tools/memory-model/*" &&
		[ -f "$2/linux-kernel.cfg" ] && basename "$1" > "$2/source"
}

# fetch_model - unpack tools/memory-model from the linux-source package: the kernel build's copy, or
# (none yet, or replaced while it was read) one downloaded for this
fetch_model() {
	local deb tmp
	[ -f "$MODEL_DIR/.complete" ] && return 0
	tmp=$(mktemp -d "$CACHE/model.XXXXXX")
	deb=$(find "$LH_CACHE/kbuild/debs" -maxdepth 1 -name "${SOURCE_PKG}_*_all.deb" 2> /dev/null | head -n 1)
	if [ -z "$deb" ] || ! unpack_model "$deb" "$tmp/src"; then
		log "downloading $SOURCE_PKG for its tools/memory-model (this machine's apt)"
		chown _apt "$tmp" 2> /dev/null || true
		(cd "$tmp" && apt-get download -q "$SOURCE_PKG" >&2) ||
			die "apt-get download $SOURCE_PKG failed: no network, or stale lists (run: apt-get update)"
		deb=$(find "$tmp" -maxdepth 1 -name "${SOURCE_PKG}_*.deb" | head -n 1)
		unpack_model "$deb" "$tmp/src" || die "cannot unpack tools/memory-model from $deb"
	fi
	rm -rf "$MODEL_DIR"
	mv "$tmp/src" "$MODEL_DIR"
	rm -rf "$tmp"
	touch "$MODEL_DIR/.complete"
}

# fetch - obtain herd7 and the model, one caller at a time (concurrent runs share the cache)
fetch() {
	(
		flock 8
		fetch_herd
		fetch_model
	) 8> "$CACHE/.lock"
}

# herd - run herd7 on a litmus file (absolute path) with the kernel's model; print its observation
# ("Never", "Sometimes" or "Always"), or nothing when herd7 fails (its output then on stderr)
herd() {
	local out
	if ! out=$(cd "$MODEL_DIR" && HERDLIB=$HERD_DIR/share "$HERD_DIR/lib/ld-linux-x86-64.so.2" \
		--library-path "$HERD_DIR/lib" "$HERD_DIR/herd7" -conf linux-kernel.cfg "$1" 2>&1); then
		printf '%s\n' "$out" | sed 's/^/# herd7: /' >&2
		return 0
	fi
	printf '%s\n' "$out" | awk '$1 == "Observation" { print $3 }'
}

# weaken FILE LINE - print FILE with the barriers of line LINE weakened (LINE 0: of every line)
weaken() {
	awk -v only="$2" '
		NR > 1 && $0 ~ /^exists/ { body = 0 }
		# a lock weakened alone goes with its unlock
		unlock != "" && index($0, "spin_unlock(" unlock ");") {
			sub(/spin_unlock\([^)]*\);/, "")
			unlock = ""
		}
		NR == only + 0 && match($0, /spin_lock\([^)]*\)/) {
			unlock = substr($0, RSTART + 10, RLENGTH - 11)
		}
		(only == 0 || NR == only + 0) && body {
			$0 = weaken($0)
		}
		/^P[0-9]+\(/ { body = 1 }
		{ print }
		function weaken(s) {
			s = gensub(/smp_store_release\(/, "WRITE_ONCE(*", "g", s)
			s = gensub(/smp_load_acquire\(/, "READ_ONCE(*", "g", s)
			s = gensub(/rcu_assign_pointer\(/, "WRITE_ONCE(", "g", s)
			s = gensub(/atomic_set_release\(/, "atomic_set(", "g", s)
			s = gensub(/atomic_read_acquire\(/, "atomic_read(", "g", s)
			s = gensub(/atomic_cmpxchg(_release|_acquire)?\(/, "atomic_cmpxchg_relaxed(", "g", s)
			s = gensub(/(^|[^_a-z])cmpxchg(_release|_acquire)?\(/, "\\1cmpxchg_relaxed(", "g", s)
			s = gensub(/(smp_mb|smp_rmb|smp_wmb|synchronize_rcu|spin_lock|spin_unlock)\([^)]*\);/, "", "g", s)
			return s
		}' "$1"
}

# barrier_lines FILE - print the numbers of the lines of FILE that weaken() changes (an unlock goes
# with its lock)
barrier_lines() {
	diff "$1" <(weaken "$1" 0) | awk '/^[0-9]+(,[0-9]+)?c/ {
		split($1, a, "c"); n = split(a[1], r, ",")
		for (i = r[1]; i <= r[n]; i++) print i }' |
		while read -r line; do
			sed -n "${line}p" "$1" | grep -q 'spin_unlock(' || echo "$line"
		done
}

# ktap_point N OK NAME [DIAG] - print one KTAP result line
ktap_point() {
	if [ "$2" = 1 ]; then
		echo "ok $1 $3${4:+ # $4}"
		pass=$((pass + 1))
	else
		echo "not ok $1 $3${4:+ # $4}"
		fail=$((fail + 1))
	fi
}

main() {
	local fetch_only=0 t name got n=0 tmp line text ans tie tie_n
	local -a tests=() races=()
	shopt -s nullglob
	pass=0
	fail=0
	[ "${1:-}" = --fetch ] && { fetch_only=1; shift; }
	mkdir -p "$CACHE"
	if [ "$fetch_only" = 1 ]; then
		fetch
		echo "herd7 $(cat "$HERD_DIR/version") in $HERD_DIR; model of $(cat "$MODEL_DIR/source") in $MODEL_DIR"
		return 0
	fi
	if [ $# -gt 0 ]; then
		for t in "$@"; do
			t=$(cd "$(dirname "$t")" && pwd -P)/$(basename "$t")
			case $t in */races/*) races+=("$t") ;; *) tests+=("$t") ;; esac
		done
	else
		tests=("$LITMUS_DIR"/*.litmus)
		races=("$LITMUS_DIR"/races/*.litmus)
	fi
	echo "KTAP version 1"
	tie=$(bash "$LITMUS_DIR/check-tie.sh" ${tests[@]+"${tests[@]}"} || true)
	tie_n=$(grep -cE '^(not )?ok ' <<< "$tie" || true)
	if ! fetch >&2; then
		echo "1..0"
		echo "Bail out! herd7 or tools/memory-model could not be obtained (see above)"
		echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:0 error:1"
		return 1
	fi
	echo "# herd7 $(cat "$HERD_DIR/version"), tools/memory-model of $(cat "$MODEL_DIR/source")"
	echo "1..$((tie_n + 2 * ${#tests[@]} + ${#races[@]}))"
	while read -r line; do
		case $line in
		"ok "*) n=$((n + 1)); pass=$((pass + 1)); echo "ok $n tie: ${line#ok [0-9]* }" ;;
		"not ok "*) n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n tie: ${line#not ok [0-9]* }" ;;
		esac
	done <<< "$tie"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$tmp'" EXIT
	for t in "${tests[@]}"; do
		name=$(basename "$t" .litmus)
		got=$(herd "$t")
		n=$((n + 1))
		ktap_point "$n" "$([ "$got" = Never ] && echo 1)" "$name" "herd7: ${got:-error}, expected Never"
		weaken "$t" 0 > "$tmp/$name.litmus"
		got=$(herd "$tmp/$name.litmus")
		n=$((n + 1))
		ktap_point "$n" "$([ "$got" = Sometimes ] && echo 1)" "$name weakened" \
			"herd7: ${got:-error}, expected Sometimes"
		for line in $(barrier_lines "$t"); do
			weaken "$t" "$line" > "$tmp/$name.litmus"
			ans=$(herd "$tmp/$name.litmus")
			text=$(sed -n "${line}p" "$t" | sed 's/^[[:space:]]*//')
			case $ans in
			Sometimes) echo "#   $name:$line needed: $text" ;;
			Never) echo "#   $name:$line redundant here: $text" ;;
			*) echo "#   $name:$line herd7 error when weakened alone: $text" ;;
			esac
		done
	done
	for t in "${races[@]}"; do
		name=races/$(basename "$t" .litmus)
		got=$(herd "$t")
		n=$((n + 1))
		ktap_point "$n" "$([ "$got" = Sometimes ] && echo 1)" "$name" "herd7: ${got:-error}, expected Sometimes"
	done
	echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
	[ "$fail" = 0 ]
}

main "$@"
