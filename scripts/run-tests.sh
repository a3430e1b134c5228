#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh - the project's test command: build latency_hist for each test kernel and run the
# selftests in a qemu VM booted with that kernel.
#
# For every kernel the build, the selftests and the guest's dmesg all count. The module is never loaded
# into the kernel of this machine: it only runs inside the VMs started by scripts/vm-run.sh.
#
# Usage: run-tests.sh [--kernels "6.1 6.1-rt 6.12 6.12-rt 6.12-preempt 7.3-rt-debug"] [--quick] [--timeout S]
#   --kernels LIST  flavours, releases or build trees (default: $LH_KERNELS or all six flavours; the last
#                   two are built from source by scripts/build-kernel.sh when not cached, ~7-10 min each)
#   --quick         pass LH_QUICK=1 to the selftests (they may shorten their workloads)
#   --full-debug    run every selftest on 7.3-rt-debug (about two hours there; see LH_DEBUG_TESTS)
#   --all-tests     run LH_FORMAT_TESTS on every packaged kernel, not only on LH_FORMAT_KERNELS
#   --timeout S     per-kernel VM timeout (default: $LH_VM_TIMEOUT or 1200)
#
# Steps:
#   1. scripts/setup-host.sh KERNELS (installs the tools when something is missing; kernel images and
#      headers are unpacked into the cache by scripts/kernels.sh, never installed)
#   2. host unit tests, if selftests/unit/Makefile exists: `make -C selftests/unit run`, which must print
#      "unit: N passed, N failed"
#   2b. host tests of scripts/lh: `sh selftests/lh_tool/test_lh.sh`, which must print
#      "lh_tool: N passed, N failed, N skipped" (gawk, mawk, busybox: about 50 s of CPU)
#   3. user-space test programs, if selftests/Makefile exists: `make -C selftests` (once, in the checkout)
#   4. per kernel (release R, headers KDIR):
#      a. copy the working tree (without build/ and .git) to build/R/src
#      b. `make -C build/R/src KDIR=KDIR W=1` (must produce latency_hist.ko), and if selftests/Kbuild
#         exists `make -C build/R/src/selftests KDIR=KDIR modules` (lh_load_test.ko); any compiler
#         warning ("warning:" in build/logs/R.build.log) fails the build test
#      c. boot R with scripts/vm-run.sh, cwd build/R/src/selftests, running `sh ./run.sh` with
#         LH_MODULE, LH_LOAD_TEST_MODULE (if built), LH_SELFTEST_DIR (absolute host paths, visible in the
#         guest through the shared root) and LH_QUICK; read its last "# Totals: pass:P fail:F xfail:X
#         xpass:XP skip:S error:E" line (pass+xfail pass; fail+error+xpass fail; skip skips)
#      d. the build and the guest dmesg check are one test each
#      e. on a build tree with the lockdown LSM and module signing (6.12-preempt): a second boot with
#         lockdown=integrity runs lockdown.sh with a copy of the module signed with the build's key
#         (lh_load_test.ko stays unsigned and must be refused); its dmesg check is one more test
#   5. scripts/test-dkms.sh for every tested packaged kernel, against the headers tree kernels.sh
#      unpacked into the cache (dkms build --kernelsourcedir): one test each
# LH_TESTS="a.sh b.sh" runs only those selftests (passed to run.sh in the guest).
# LH_GUEST_ENV="NAME=VALUE ..." passes more settings to the selftests (scripts/stress.sh: durations);
# LH_VM_SMP=N boots the guests with N CPUs (default 2).
# LH_VM_ICOUNT=1 boots the guests with -icount shift=0,sleep=off (guest time = instructions; 6.12 and
# the built kernels only, the 6.1 kernels hang in it): scripts/validate.sh uses it.
# 7.3-rt-debug (KASAN, lockdep, kmemleak) runs about five to ten times slower under TCG than the
# other kernels, too slow for the whole suite inside CI's 90 minutes: unless LH_TESTS is set or
# --full-debug is given, it runs LH_DEBUG_TESTS, the tests that drive every probe and control path
# (the input-validation and stress tests it skips run the same module code on the five other
# kernels, one of them with lockdep; scripts/stress.sh runs the stress tests on it). Each selftest
# there may take LH_DEBUG_TEST_TIMEOUT seconds (default 1800) instead of selftests/settings' 600:
# load_cycles.sh's 20 module load/unload cycles alone take about 10 minutes under KASAN and kmemleak.
# LH_FORMAT_TESTS (input parsing, output format, the lh tool) run on LH_FORMAT_KERNELS (6.1, the oldest
# kernel, and 6.12-preempt, the one with every type and lockdep) unless --all-tests or LH_TESTS is
# given: the module code they drive is the same on every kernel, and on 2 cores CI's 90 minutes do not
# hold them on all six next to the rest.
# Output: a summary line per kernel, then the last line "N passed, N failed, N skipped".
# Exit status: 0 only if nothing failed and every kernel booted.
# Logs: build/logs/R.build.log, R.log (serial console), R.out (selftest output), R.dmesg, R.result;
#   the lockdown boot writes R.lockdown.{log,out,dmesg,result}.
# Host boot check: the installed linux-image-*/linux-headers-* packages, the listing of /boot and the
#   /vmlinuz, /initrd.img links are recorded before the set-up and compared at the end: one test.
# From any directory: a checkout under /tmp is shared into the guests (scripts/vm-run.sh); from a path
#   kbuild cannot build in (white space), the run goes on from a copy in $LH_CACHE/checkouts/, with the
#   logs still in this checkout's build/logs.

set -euo pipefail

LH_DIE_STATUS=2
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# From a checkout kbuild cannot build in (white space in its path), this runs again from a copy.
lh_safe_checkout "$@"
LH_BUILD=$LH_TOP/build
LH_DEBUG_TESTS=${LH_DEBUG_TESTS:-"tree.sh wakeup_pid.sh timer_pid.sh critical_sections.sh threshold_events.sh counters.sh kmemleak.sh"}
LH_FORMAT_TESTS=${LH_FORMAT_TESTS:-"empty_format.sh invalid_input.sh fuzz_input.sh lh_tool.sh"}
LH_FORMAT_KERNELS=${LH_FORMAT_KERNELS:-"6.1 6.12-preempt"}
LH_DEBUG_TEST_TIMEOUT=${LH_DEBUG_TEST_TIMEOUT:-1800}

# Totals over all kernels and host tests.
total_pass=0
total_fail=0
total_skip=0
# One summary line per kernel / host step, printed at the end.
dkms_releases=()
summaries=()

# boot_state - print what this machine boots: its installed kernel image and headers packages, the
# listing of /boot and the /vmlinuz and /initrd.img links (the test command must leave them as they were)
boot_state() {
	local f
	dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' 'linux-image-*' 'linux-headers-*' 2> /dev/null |
		awk '$1 ~ /^.i/ { print "package", $2, $3 }' || true
	find /boot -printf 'boot %p %y %s %T@ %l\n' 2> /dev/null | LC_ALL=C sort || true
	for f in /vmlinuz /vmlinuz.old /initrd.img /initrd.img.old; do
		if [ -L "$f" ] || [ -e "$f" ]; then echo "link $f -> $(readlink "$f")"; fi
	done
}

# check_boot_untouched - one test: the boot state is the one recorded before the set-up
check_boot_untouched() {
	local before=$1 after
	after=$(boot_state)
	if [ "$after" = "$before" ]; then
		count 1 0 0
		summaries+=("host boot untouched: $(grep -c '^package' <<< "$after") linux-image/headers packages and $(grep -c '^boot' <<< "$after") /boot entries as before")
	else
		count 0 1 0
		diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | sed 's/^/    /' >&2 || true
		summaries+=("host boot untouched: FAILED: linux-image/headers packages or /boot changed during the run (diff above)")
	fi
}

# count - add passed/failed/skipped numbers to the totals
count() {
	total_pass=$((total_pass + $1))
	total_fail=$((total_fail + $2))
	total_skip=$((total_skip + $3))
}

# run_unit_tests - run the host unit tests and count their "unit: N passed, N failed" line
run_unit_tests() {
	local log=$LH_LOGS/unit.log line p f
	if [ ! -f "$LH_TOP/selftests/unit/Makefile" ]; then
		summaries+=("host unit tests: none (selftests/unit/Makefile missing)")
		return 0
	fi
	log "host unit tests: make -C selftests/unit run"
	if make -C "$LH_TOP/selftests/unit" run > "$log" 2>&1; then :; fi
	sed 's/^/    /' "$log"
	line=$(grep -E '^unit: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
	if [ -z "$line" ]; then
		count 0 1 0
		summaries+=("host unit tests: FAILED (no 'unit: N passed, N failed' line; see $log)")
		return 0
	fi
	p=$(echo "$line" | sed -E 's/^unit: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/^unit: [0-9]+ passed, ([0-9]+) failed.*/\1/')
	count "$p" "$f" 0
	summaries+=("host unit tests: $p passed, $f failed")
}

# run_lh_tool_tests - run the host tests of scripts/lh and count their summary line
run_lh_tool_tests() {
	local log=$LH_LOGS/lh_tool.log line p f s
	[ -f "$LH_TOP/selftests/lh_tool/test_lh.sh" ] || return 0
	log "host tests of scripts/lh: sh selftests/lh_tool/test_lh.sh"
	sh "$LH_TOP/selftests/lh_tool/test_lh.sh" > "$log" 2>&1 || true
	grep -v '^ok ' "$log" | sed 's/^/    /'
	line=$(grep -E '^lh_tool: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -n 1 || true)
	if [ -z "$line" ]; then
		count 0 1 0
		summaries+=("lh tool host tests: FAILED (no 'lh_tool: N passed...' line; see $log)")
		return 0
	fi
	read -r p f s < <(echo "$line" | sed -E 's/^lh_tool: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/')
	count "$p" "$f" "$s"
	summaries+=("lh tool host tests: $p passed, $f failed, $s skipped")
}

# build_user_programs - build the selftests' user-space programs once, in the checkout
build_user_programs() {
	local log=$LH_LOGS/selftests-user.build.log
	[ -f "$LH_TOP/selftests/Makefile" ] || return 0
	log "building selftest programs: make -C selftests"
	if make -C "$LH_TOP/selftests" > "$log" 2>&1 && ! grep -qi 'warning:' "$log"; then
		count 1 0 0
		summaries+=("selftest programs: build ok")
	else
		sed 's/^/    /' "$log" >&2
		count 0 1 0
		summaries+=("selftest programs: build FAILED (errors or warnings; see $log)")
	fi
}

# copy_tree - copy the working tree, without build/ and .git, to a fresh directory
copy_tree() {
	local dst=$1
	rm -rf "$dst"
	mkdir -p "$dst"
	tar -C "$LH_TOP" --exclude=./build --exclude=./.git -cf - . | tar -C "$dst" -xf -
}

# build_for_kernel - build the module (and the test-load module) in a tree copy; 0 if clean
build_for_kernel() {
	local src=$1 kdir=$2 log=$3 rc=0
	{
		echo "== make -C $src KDIR=$kdir W=1"
		if [ ! -f "$src/Makefile" ] || [ ! -f "$src/Kbuild" ]; then
			echo "error: no top-level Makefile/Kbuild: the module is not in the tree yet"
			rc=1
		elif ! make -C "$src" KDIR="$kdir" W=1; then
			rc=1
		elif [ ! -f "$src/latency_hist.ko" ]; then
			echo "error: the build did not produce $src/latency_hist.ko"
			rc=1
		fi
		if [ "$rc" = 0 ] && [ -f "$src/selftests/Kbuild" ]; then
			echo "== make -C $src/selftests KDIR=$kdir modules"
			make -C "$src/selftests" KDIR="$kdir" modules || rc=1
		fi
	} > "$log" 2>&1 || rc=1
	if grep -qi 'warning:' "$log"; then
		echo "compiler/modpost warnings:" >&2
		grep -i 'warning:' "$log" | head -n 20 | sed 's/^/    /' >&2
		rc=1
	fi
	return "$rc"
}

# start_kernel_builds - build the kernels built from source in the background, at idle priority
# Building them takes 15-20 minutes on 2 cores, and the VM tests of the packaged kernels leave about half
# the CPU time unused (their guests sleep and wait): the builds run in that time instead of after it.
# They run under SCHED_IDLE and the idle I/O class, so a VM thread that wakes preempts them at once.
# test_kernel's fetch of such a kernel waits on build-kernel.sh's lock and reuses the finished build; a
# cached build returns at once. Progress: build/logs/kbuild-NAME.log.
start_kernel_builds() {
	local k names=""
	for k in $1; do
		lh_kernel_is_built_flavour "$k" && names="$names $k"
	done
	[ -n "$names" ] || return 0
	log "building${names} in the background at idle priority (build/logs/kbuild-*.log)"
	# shellcheck disable=SC2016 # expanded by the inner shell
	setsid bash -c 'for k in $2; do
			chrt --idle 0 ionice -c 3 bash "$1/build-kernel.sh" "$k" > /dev/null 2> "$3/kbuild-$k.log" || true
		done' kbuild "$LH_SCRIPTS" "$names" "$LH_LOGS" < /dev/null &
	kbuild_pid=$!
}

# stop_kernel_builds - on exit, stop background builds still running (none after a complete run)
stop_kernel_builds() {
	[ -n "${kbuild_pid:-}" ] || return 0
	kill -TERM -- "-$kbuild_pid" 2> /dev/null || true
	wait "$kbuild_pid" 2> /dev/null || true
}

# run_dkms_tests - dkms add/build against the headers of every tested packaged kernel
run_dkms_tests() {
	local log=$LH_LOGS/dkms.log p f
	[ "${#dkms_releases[@]}" -gt 0 ] || return 0
	log "== dkms: add and build for ${dkms_releases[*]%%=*}"
	"$LH_SCRIPTS/test-dkms.sh" "${dkms_releases[@]}" > "$log" 2>&1 || true
	p=$(grep -c '^ok dkms build' "$log" || true)
	f=$((${#dkms_releases[@]} - p))
	count "$p" "$f" 0
	summaries+=("dkms: $p passed, $f failed (see $log)")
}

# result_field - print the value of KEY in a vm-run.sh NAME.result file (empty if it has none)
result_field() {
	sed -n "s/^$2=//p" "$1" 2> /dev/null || true
}

# count_dmesg - count a guest's dmesg check as one test: "clean" passes
count_dmesg() {
	if [ "$1" = clean ]; then
		count 1 0 0
	else
		count 0 1 0
	fi
}

# tests_without MAKEFILE LIST - print the TEST_PROGS of MAKEFILE, in order, minus the tests in LIST
tests_without() {
	awk -v skip=" $2 " '/^TEST_PROGS[ \t]*[:+]?=/ {
		sub(/^[^=]*=/, "")
		for (i = 1; i <= NF; i++) if (index(skip, " " $i " ") == 0) printf "%s%s", (n++ ? " " : ""), $i
	} END { print "" }' "$1"
}

# parse_totals - print "pass fail skip" from the last top-level KTAP "# Totals:" line of a file
parse_totals() {
	local line
	line=$(grep -E '^# Totals: ' "$1" | tail -n 1 || true)
	[ -n "$line" ] || return 1
	echo "$line" | awk '{
		for (i = 3; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] + 0 }
		print v["pass"] + v["xfail"], v["fail"] + v["error"] + v["xpass"], v["skip"] }'
}

# test_kernel - build, boot and test one kernel; adds to the totals and the summaries
test_kernel() {
	local k=$1 quick=$2 timeout=$3 kinfo src blog status p f s extra="" vrc=0
	# shellcheck disable=SC2034 # set by eval of kernels.sh output
	local LH_KREL LH_VMLINUZ LH_KMODDIR LH_KDIR LH_KROOT
	if ! kinfo=$("$LH_SCRIPTS/kernels.sh" fetch "$k"); then
		count 0 1 0
		summaries+=("kernel $k: FAILED: cannot fetch the kernel (see the messages above)")
		booted_all=0
		return 0
	fi
	eval "$kinfo"
	src=$LH_BUILD/$LH_KREL/src
	blog=$LH_LOGS/$LH_KREL.build.log
	log "== $k ($LH_KREL): build"
	copy_tree "$src"
	if ! build_for_kernel "$src" "$LH_KDIR" "$blog"; then
		tail -n 30 "$blog" | sed 's/^/    /' >&2
		count 0 1 0
		summaries+=("kernel $k ($LH_KREL): build FAILED (see $blog); selftests not run")
		return 0
	fi
	count 1 0 0
	# dkms for the packaged kernels, against the headers kernels.sh unpacked (built trees have no
	# headers package, and a rig's DKMS builds against installed headers: test-dkms.sh's default)
	[ "$LH_KDIR" = "$LH_KROOT/usr/src/linux-headers-$LH_KREL" ] && dkms_releases+=("$LH_KREL=$LH_KDIR")
	if [ ! -f "$src/selftests/run.sh" ]; then
		count 0 1 0
		summaries+=("kernel $k ($LH_KREL): build ok; selftests FAILED: selftests/run.sh is missing")
		return 0
	fi

	local -a envs=(--env "LH_MODULE=$src/latency_hist.ko" --env "LH_SELFTEST_DIR=$src/selftests"
		--env "LH_QUICK=$quick")
	if [ "$k" = 7.3-rt-debug ]; then
		envs+=(--env "LH_TEST_TIMEOUT=$LH_DEBUG_TEST_TIMEOUT")
	fi
	if [ -n "${LH_TESTS:-}" ]; then
		envs+=(--env "LH_TESTS=$LH_TESTS")
	elif [ "$k" = 7.3-rt-debug ] && [ "$full_debug" = 1 ]; then
		extra=" (--full-debug: every selftest)"
	elif [ "$k" = 7.3-rt-debug ]; then
		envs+=(--env "LH_TESTS=$LH_DEBUG_TESTS")
		extra=" (LH_DEBUG_TESTS subset; --full-debug runs all)"
	elif [ "$all_tests" = 0 ] && [[ " $LH_FORMAT_KERNELS " != *" $k "* ]]; then
		envs+=(--env "LH_TESTS=$(tests_without "$src/selftests/Makefile" "$LH_FORMAT_TESTS")")
		extra=" (without LH_FORMAT_TESTS, run on $LH_FORMAT_KERNELS; --all-tests runs them)"
	fi
	[ -f "$src/selftests/lh_load_test.ko" ] && envs+=(--env "LH_LOAD_TEST_MODULE=$src/selftests/lh_load_test.ko")
	local setting
	for setting in ${LH_GUEST_ENV:-}; do
		envs+=(--env "$setting")
	done
	log "== $k ($LH_KREL): selftests in the VM"
	local -a vmopts=(--smp "${LH_VM_SMP:-2}")
	if [ "${LH_VM_ICOUNT:-0}" = 1 ]; then
		vmopts+=(--icount)
		envs+=(--env LH_VM_ICOUNT=1)
	fi
	"$LH_SCRIPTS/vm-run.sh" --timeout "$timeout" --log-dir "$LH_LOGS" --cwd "$src/selftests" \
		"${vmopts[@]}" "${envs[@]}" "$k" -- sh ./run.sh || vrc=$?

	local out=$LH_LOGS/$LH_KREL.out result=$LH_LOGS/$LH_KREL.result verdict dmesg_state boot_s
	verdict=$(result_field "$result" verdict)
	dmesg_state=$(result_field "$result" dmesg)
	status=$(result_field "$result" status)
	boot_s=$(result_field "$result" boot_s)
	if [ -z "$status" ]; then
		# The guest never reached or never finished the command: that kernel failed as a whole.
		booted_all=0
		count 0 1 0
		summaries+=("kernel $k ($LH_KREL): build ok; VM FAILED ($verdict, vm-run exit $vrc; see $LH_LOGS/$LH_KREL.log)")
		return 0
	fi
	if read -r p f s < <(parse_totals "$out"); then
		if [ "$status" != 0 ] && [ "$f" = 0 ]; then
			f=1
			extra="$extra (run.sh exited $status without failing a test)"
		fi
	else
		p=0 f=1 s=0
		extra="$extra (no '# Totals:' line in $out; run.sh exited $status)"
	fi
	count "$p" "$f" "$s"
	count_dmesg "$dmesg_state"
	summaries+=("kernel $k ($LH_KREL): build ok; selftests pass:$p fail:$f skip:$s$extra; dmesg $dmesg_state; boot ${boot_s:-?}s")
	test_lockdown "$k" "$LH_KREL" "$LH_KDIR" "$src" "$timeout"
}

# test_lockdown - boot a kernel with the lockdown LSM and module signing again, with lockdown=integrity,
# and run lockdown.sh there with a copy of the module signed with the build's own key, as DKMS users sign
# with a MOK key (Documentation/stress.rst, "Lockdown"). Only build trees have that key (6.12-preempt);
# with LH_TESTS set, only when it names lockdown.sh.
test_lockdown() {
	local k=$1 krel=$2 kdir=$3 src=$4 timeout=$5 hash dir out result status dmesg_state p f s vrc=0
	grep -q '^CONFIG_SECURITY_LOCKDOWN_LSM=y' "$kdir/.config" 2> /dev/null || return 0
	grep -q '^CONFIG_MODULE_SIG=y' "$kdir/.config" || return 0
	[ -f "$kdir/certs/signing_key.pem" ] && [ -x "$kdir/scripts/sign-file" ] || return 0
	case " ${LH_TESTS:-lockdown.sh} " in
	*" lockdown.sh "*) ;;
	*) return 0 ;;
	esac
	hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$kdir/.config")
	dir=$LH_BUILD/$krel/lockdown
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$src/latency_hist.ko" "$dir/"
	if ! "$kdir/scripts/sign-file" "${hash:-sha512}" "$kdir/certs/signing_key.pem" \
		"$kdir/certs/signing_key.x509" "$dir/latency_hist.ko" >> "$LH_LOGS/$krel.build.log" 2>&1; then
		count 0 1 0
		summaries+=("kernel $k ($krel) under lockdown=integrity: FAILED: sign-file failed (see $LH_LOGS/$krel.build.log)")
		return 0
	fi
	local -a envs=(--env "LH_MODULE=$dir/latency_hist.ko" --env "LH_SELFTEST_DIR=$src/selftests"
		--env "LH_TESTS=lockdown.sh")
	# lh_load_test.ko stays unsigned: lockdown must refuse it.
	[ -f "$src/selftests/lh_load_test.ko" ] && envs+=(--env "LH_LOAD_TEST_MODULE=$src/selftests/lh_load_test.ko")
	log "== $k ($krel): lockdown.sh in a VM booted with lockdown=integrity"
	"$LH_SCRIPTS/vm-run.sh" --timeout "$timeout" --log-dir "$LH_LOGS" --name "$krel.lockdown" \
		--cwd "$src/selftests" --append lockdown=integrity "${envs[@]}" "$k" -- sh ./run.sh || vrc=$?
	out=$LH_LOGS/$krel.lockdown.out
	result=$LH_LOGS/$krel.lockdown.result
	status=$(result_field "$result" status)
	dmesg_state=$(result_field "$result" dmesg)
	if [ -z "$status" ] || ! read -r p f s < <(parse_totals "$out"); then
		count 0 1 0
		summaries+=("kernel $k ($krel) under lockdown=integrity: FAILED (vm-run exit $vrc; see $LH_LOGS/$krel.lockdown.log)")
		return 0
	fi
	# lockdown.sh skips when the kernel is not locked down: here that is a failure.
	if [ "$s" != 0 ] || [ "$p" = 0 ]; then
		f=$((f + 1))
	fi
	count "$p" "$f" 0
	count_dmesg "$dmesg_state"
	summaries+=("kernel $k ($krel) under lockdown=integrity: selftests pass:$p fail:$f skip:$s; dmesg $dmesg_state")
}

# main - parse options, prepare the host, test every kernel, print the summary
main() {
	local kernels=${LH_KERNELS:-6.1 6.1-rt 6.12 6.12-rt 6.12-preempt 7.3-rt-debug} quick=0 timeout=${LH_VM_TIMEOUT:-1200} k t0
	full_debug=0
	all_tests=0
	while [ $# -gt 0 ]; do
		case $1 in
		--kernels) kernels=$2; shift 2 ;;
		--kernels=*) kernels=${1#--kernels=}; shift ;;
		--quick) quick=1; shift ;;
		--full-debug) full_debug=1; shift ;;
		--all-tests) all_tests=1; shift ;;
		--timeout) timeout=$2; shift 2 ;;
		-h | --help) sed -n '3,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
		*) die "unknown argument $1 (see --help)" ;;
		esac
	done
	[ -n "$kernels" ] || die "no kernels given"
	t0=$(date +%s)
	booted_all=1
	mkdir -p "$LH_LOGS" || die "cannot create the log directory $LH_LOGS"
	lh_need_space "$LH_BUILD" 512 "the module builds in $LH_BUILD"
	boot_before=$(boot_state)

	# shellcheck disable=SC2086 # the kernel list is space-separated
	if ! "$LH_SCRIPTS/setup-host.sh" $kernels; then
		# setup-host.sh said what went wrong and what to do
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	# shellcheck source=./kernels.sh disable=SC1091 # sourced for lh_kernel_is_built_flavour only
	. "$LH_SCRIPTS/kernels.sh"
	trap stop_kernel_builds EXIT
	start_kernel_builds "$kernels"
	run_unit_tests
	run_lh_tool_tests
	build_user_programs
	for k in $kernels; do
		test_kernel "$k" "$quick" "$timeout"
	done
	run_dkms_tests
	check_boot_untouched "$boot_before"

	echo
	echo "== summary ($(($(date +%s) - t0))s)"
	printf '%s\n' "${summaries[@]}"
	[ "$booted_all" = 1 ] || echo "at least one kernel could not be fetched or booted"
	echo "$total_pass passed, $total_fail failed, $total_skip skipped"
	[ "$total_fail" = 0 ] && [ "$booted_all" = 1 ]
}

main "$@"
