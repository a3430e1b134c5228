#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh - the project's test command: build latency_hist for each test kernel and run the
# selftests in qemu VMs booted with those kernels, two at a time.
#
# For every kernel the build, the selftests and the guest's dmesg all count. The module is never loaded
# into the kernel of this machine: it only runs inside the VMs started by scripts/vm-run.sh. Which
# kernels, and what runs on each, is scripts/matrix.conf (the "test" suite unless --suite says another).
#
# Usage: run-tests.sh [--kernels LIST] [--suite NAME] [--quick] [--full-debug] [--all-tests] [--timeout S]
#                     [--jobs N] [--no-icount]
#   --kernels LIST  flavours, releases or build trees (default: $LH_KERNELS or the kernels of the suite;
#                   the "built" ones are built from source by scripts/build-kernel.sh when not cached)
#   --suite NAME    the suite of matrix.conf whose settings apply: test (default), stress, validate
#   --quick         pass LH_QUICK=1 to the selftests (they may shorten their workloads)
#   --full-debug    lift the restrictions marked unless=full-debug: every selftest on 7.3-rt-debug
#                   (about two hours there)
#   --all-tests     lift the restrictions marked unless=all-tests: the format tests on every kernel
#                   (a line marked unless=named is lifted for a kernel --kernels names: every
#                   selftest on the arm64 kernels of `--kernels "6.12-arm64 6.12-rt-arm64"`)
#   --timeout S     per-kernel VM timeout (default: the matrix's timeout=, $LH_VM_TIMEOUT, or 1200
#                   for a set of selftests and 3600 for every one)
#   --jobs N        guests at a time (default $LH_GUESTS or 2)
#   --no-icount     ignore the matrix's icount=1 (the 6.1 kernels hang under -icount)
#
# Steps:
#   1. scripts/setup-host.sh KERNELS (installs the tools when something is missing; kernel images and
#      headers are unpacked into the cache by scripts/kernels.sh, never installed)
#   2. the kernels built from source start building in the background (scripts/build-kernel.sh, one
#      after the other in the order of their kernel lines, at nice 5)
#   3. user-space test programs: `make -C selftests` (once, in the checkout)
#   4. in the background: the host tests of HOST_TESTS: the unit tests of the engine and of explain's
#      replay, built with char signed and unsigned, and of the cycle counter's scaling (unit-clock),
#      the requirement lines of the selftests, the reference's lists of the types (check_docs.sh),
#      the tests of scripts/lh (selftests/lh_host/; one of them
#      has a prometheus server scrape two node exporters fed by lh prom, on loopback), and the
#      litmus tests of the memory ordering (tools/litmus/run.sh: herd7
#      and tools/memory-model, fetched into the cache on first use); each prints KTAP ending in a
#      "# Totals:" line, counted by the parser of the guests'
#      run.sh output; at nice 10, as the package test (7.), so that the first guests keep their cores
#   5. per kernel, as a job (at most --jobs at once, in matrix order; a kernel built here starts once its
#      build is done, before the packaged kernels still waiting), logging to build/logs/kernel-K.log:
#      a. fetch it (scripts/kernels.sh: release R, KDIR) and copy the working tree to build/R/src
#      b. `make -C build/R/src KDIR=KDIR W=1` (must produce latency_hist.ko), and
#         `make -C build/R/src/selftests KDIR=KDIR modules` (lh_load_test.ko, lh_probe_test.ko); any compiler
#         warning ("warning:" in build/logs/R.build.log) fails the build test
#      c. for a packaged kernel, scripts/test-dkms.sh R=KDIR (dkms build --kernelsourcedir against the
#         headers tree kernels.sh unpacked), while the guest runs: one test
#      d. boot R with scripts/vm-run.sh, cwd build/R/src/selftests, running `sh ./run.sh` with
#         LH_MODULE, LH_LOAD_TEST_MODULE (if built), LH_SELFTEST_DIR (absolute host paths, visible in the
#         guest through the shared root), LH_QUICK, LH_DISPOSABLE_BOOT=1 (the guest is powered off after:
#         tests that leave the boot changed may run), and the matrix's selection: LH_TESTS, and
#         LH_SKIP_TESTS with the reason of each test left out (run.sh reports those as KTAP SKIP)
#      e. the build and the guest dmesg check are one test each; the selftests count by the last
#         "# Totals: pass:P fail:F xfail:X xpass:XP skip:S error:E" line (pass+xfail pass;
#         fail+error+xpass fail; skip skips)
#      f. an extra boot of the matrix (boot=lockdown on 6.12-preempt: lockdown=integrity, the module
#         signed with the build's key, lh_load_test.ko unsigned and refused, then module.sig_enforce
#         on: unsigned and untrusted copies refused, "Key was rejected by service"): its tests must pass
#         without a skip; its dmesg check is one more test
#   6. the host boot check (below): one test
#   7. in the background from the start, when the kernel with the boot "package" (6.12-rt) takes part:
#      scripts/test-packages.sh (Debian packages built, lintian, installed in a fresh Debian 12 root with
#      that kernel's headers so that DKMS builds the module, purged): KTAP in build/logs/packages.log;
#      that kernel's package boot loads the DKMS-built module and runs the packaged lh (selftests/package.sh)
# LH_TESTS="a.sh b.sh" runs only those selftests (no matrix selection; extra boots only if named).
# LH_GUEST_ENV="NAME=VALUE ..." passes more settings to the selftests (scripts/stress.sh: durations).
# LH_HOST_TESTS=0 leaves out the host tests (a guest run of a few selftests while the host tests run
# elsewhere: they cost minutes of both cores; the summary then counts none).
# Output: progress lines, then a summary line per kernel (with its wall time) and per host step, then
# the last line "N passed, N failed, N skipped".
# Exit status: 0 only if nothing failed and every kernel booted.
# Logs: build/logs/kernel-K.log (everything of kernel K's job, guest output included),
#   R.build.log, R.log (serial console), R.out (selftest output), R.dmesg, R.result, R.dkms.log;
#   an extra boot writes R.NAME.{log,out,dmesg,result}; the host tests write the logs HOST_TESTS names.
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
LH_JOBDIR=$LH_LOGS/.jobs

# Totals over all kernels and host tests.
total_pass=0
total_fail=0
total_skip=0
booted_all=1
# One summary line per kernel / host step, printed at the end.
summaries=()

# count - add passed/failed/skipped numbers to the totals
count() {
	total_pass=$((total_pass + $1))
	total_fail=$((total_fail + $2))
	total_skip=$((total_skip + $3))
}

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

# parse_totals - print "pass fail skip" from the last top-level KTAP "# Totals:" line of a file
parse_totals() {
	local line
	line=$(grep -E '^# Totals: ' "$1" 2> /dev/null | tail -n 1 || true)
	[ -n "$line" ] || return 1
	echo "$line" | awk '{
		for (i = 3; i <= NF; i++) { split($i, kv, ":"); v[kv[1]] = kv[2] + 0 }
		print v["pass"] + v["xfail"], v["fail"] + v["error"] + v["xpass"], v["skip"] }'
}

# count_ktap - count a host test's KTAP output by its "# Totals:" line; add its summary line
count_ktap() {
	local what=$1 log=$2 p f s
	if read -r p f s < <(parse_totals "$log"); then
		count "$p" "$f" "$s"
		summaries+=("$what: $p passed, $f failed, $s skipped")
	else
		count 0 1 0
		summaries+=("$what: FAILED (no KTAP '# Totals:' line; see $log)")
	fi
}

# The host tests: "log|what|command" (the command runs in the copy of the tree, KTAP on stdout). The
# unit tests run twice, with char signed (x86) and unsigned (arm64), so the text formats are checked
# under both rules on any host.
HOST_TESTS=(
	"unit.log|host unit tests (signed char)|make -s -C selftests/unit run-signed-char"
	"unit-unsigned-char.log|host unit tests (unsigned char)|make -s -C selftests/unit run-unsigned-char"
	"unit-clock.log|host unit tests of the cycle-counter scaling|make -s -C selftests/unit run-clock"
	"lh_host.log|lh tool host tests|sh selftests/lh_host/test_lh.sh"
	"lh_host_monitor.log|lh monitor host tests|sh selftests/lh_host/test_monitor.sh"
	"lh_host_explain.log|lh explain host tests|sh selftests/lh_host/test_explain.sh"
	"lh_host_outliers.log|lh outliers host tests|sh selftests/lh_host/test_outliers.sh"
	"lh_host_cli.log|lh command line: CPU lists, durations, help, man page and completion agree|sh selftests/lh_host/test_lh_cli.sh"
	"lh_host_man.log|man pages: their sections, no developer-only one, no groff warning at 80 columns|sh selftests/lh_host/test_man.sh"
	"lh_host_report_html.log|lh report --html rendered by chromium headless|sh selftests/lh_host/test_report_html.sh"
	"lh_host_prom_fleet.log|lh prom scraped by prometheus through two node exporters|sh selftests/lh_host/test_prom_fleet.sh"
	"lh_host_task_views.log|lh summary --by, prom --top: the per-task and per-cgroup views|sh selftests/lh_host/test_task_views_lh.sh"
	"alert_rules.log|Prometheus alert rules: promtool check and unit tests|sh selftests/lh_host/test_alert_rules.sh"
	"lh_host_source.log|scripts/lh is its sources assembled; lh's awk libraries alone|sh selftests/lh_host/test_lh_source.sh"
	"check_requires.log|requirement lines of the selftests|sh selftests/check_requires.sh"
	"check_docs.log|the reference lists every type of the type table|sh selftests/check_docs.sh"
	"litmus.log|litmus tests of the ordering (herd7, tools/memory-model)|bash tools/litmus/run.sh"
)

# host_tests - run the host tests of HOST_TESTS in a copy of the tree (the jobs copy the checkout
# meanwhile), each into its log (a test that does not run leaves no "# Totals:" line: it fails)
host_tests() {
	local src=$LH_BUILD/host/src entry log cmd
	for entry in "${HOST_TESTS[@]}"; do
		rm -f "$LH_LOGS/${entry%%|*}"
	done
	copy_tree "$src"
	for entry in "${HOST_TESTS[@]}"; do
		log=${entry%%|*}
		cmd=${entry##*|}
		(cd "$src" && nice -n 10 $cmd) > "$LH_LOGS/$log" 2>&1 || true
	done
}

# count_host_tests - count what host_tests wrote, showing what did not pass
count_host_tests() {
	local entry log what
	for entry in "${HOST_TESTS[@]}"; do
		log=$LH_LOGS/${entry%%|*}
		if [ -f "$log" ]; then grep -E '^not ok' "$log" | sed 's/^/    /' >&2 || true; fi
	done
	for entry in "${HOST_TESTS[@]}"; do
		log=${entry%%|*}
		what=${entry#*|}
		count_ktap "${what%%|*}" "$LH_LOGS/$log"
	done
}

# build_user_programs - build the selftests' user-space programs once, in the checkout
build_user_programs() {
	local log=$LH_LOGS/selftests-user.build.log
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
	# shellcheck disable=SC2086 # LH_KMAKE: make arguments of a cross build (kernels.sh), or empty
	{
		echo "== make -C $src KDIR=$kdir $LH_KMAKE W=1"
		if [ ! -f "$src/Makefile" ] || [ ! -f "$src/Kbuild" ]; then
			echo "error: no top-level Makefile/Kbuild"
			rc=1
		elif ! make -C "$src" KDIR="$kdir" $LH_KMAKE W=1; then
			rc=1
		elif [ ! -f "$src/latency_hist.ko" ]; then
			echo "error: the build did not produce $src/latency_hist.ko"
			rc=1
		fi
		if [ "$rc" = 0 ]; then
			echo "== make -C $src/selftests KDIR=$kdir $LH_KMAKE modules"
			make -C "$src/selftests" KDIR="$kdir" $LH_KMAKE modules || rc=1
		fi
		# Another architecture's guest runs the test programs built for it (the copy has this machine's).
		if [ "$rc" = 0 ] && [ "$LH_UCC" != gcc ]; then
			echo "== make -C $src/selftests CC=$LH_UCC clean all"
			make -C "$src/selftests" CC="$LH_UCC" clean all || rc=1
		fi
	} > "$log" 2>&1 || rc=1
	if grep -qi 'warning:' "$log"; then
		echo "compiler/modpost warnings:" >&2
		grep -i 'warning:' "$log" | head -n 20 | sed 's/^/    /' >&2
		rc=1
	fi
	return "$rc"
}

# start_kernel_builds - build the kernels built from source in the background, one after the other
# Building them takes about 20 minutes of one core; they start at once, at nice 5 (a guest's vCPU thread
# wins when both want a core: a guest of a packaged kernel keeps about half a core busy, its tests
# mostly sleep and wait, so two guests and a build share the two cores). Once a guest slot is free
# and every kernel left waits for a build, run_jobs puts the builds back at nice 0.
# A job's fetch of such a kernel reuses the finished build (a cached build returns at once); each
# finished build leaves $LH_JOBDIR/built-NAME. Progress: build/logs/kbuild-NAME.log.
start_kernel_builds() {
	local k names=""
	for k in $(lh_matrix_kernels built); do
		case " $1 " in *" $k "*) names="$names $k" ;; esac
	done
	[ -n "$names" ] || return 0
	log "building ${names# } in the background (build/logs/kbuild-*.log)"
	# shellcheck disable=SC2016 # expanded by the inner shell
	setsid nice -n 5 bash -c 'for k in $2; do
			bash "$1/build-kernel.sh" "$k" > /dev/null 2> "$3/kbuild-$k.log" || true
			: > "$4/built-$k"
		done' kbuild "$LH_SCRIPTS" "$names" "$LH_LOGS" "$LH_JOBDIR" < /dev/null &
	kbuild_pid=$!
}

# process_tree - print a process and its descendants, by pid
process_tree() {
	local c
	echo "$1"
	for c in $(pgrep -P "$1" 2> /dev/null); do process_tree "$c"; done
}

# stop_background - on exit, stop the background builds, jobs and host tests this run started (none
# are left after a complete run), with everything they started (vm-run.sh's qemu among them)
stop_background() {
	local pid tree=""
	for pid in ${kbuild_pid:-} ${job_pids[@]+"${job_pids[@]}"} ${host_pid:-}; do
		tree="$tree $(process_tree "$pid")"
	done
	# shellcheck disable=SC2086 # a list of pids
	[ -z "${tree// /}" ] || kill -TERM $tree 2> /dev/null || true
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

# select_tests - set sel_tests (LH_TESTS for the guest, empty: all), sel_skip (LH_SKIP_TESTS: "NAME
# REASON" lines) and sel_note (for the summary line) from the matrix line of kernel K in the suite
# (LH_TESTS, when set, runs as it says)
select_tests() {
	local k=$1 makefile=$2 avoid avoided="" t
	sel_tests="" sel_skip="" sel_note=""
	if [ -n "${LH_TESTS:-}" ]; then
		sel_tests=$LH_TESTS
		return 0
	fi
	select_matrix_tests "$k" "$makefile"
	# avoid=SET: tests that this kernel's own bugs keep from passing, left out even where every
	# selftest runs (the set's why says which bug, and how it was shown without latency_hist)
	avoid=$(lh_matrix_get "$suite" "$k" avoid)
	[ -n "$avoid" ] || return 0
	lh_matrix_set "$avoid" > /dev/null || die "scripts/matrix.conf: kernel $k names the unknown set $avoid"
	# first: run.sh reports the first reason it finds for a test
	for t in $(lh_matrix_set "$avoid"); do
		[ -z "$sel_tests" ] || [[ " $sel_tests " == *" $t "* ]] || continue
		sel_skip="$t $(lh_matrix_why "$avoid")"$'\n'"$sel_skip"
		avoided+=" $t"
	done
	[ -z "$avoided" ] || sel_note+=" (skipped for a bug of this kernel:$avoided, see matrix.conf)"
}

# select_matrix_tests - select_tests for the line's tests=, skip= and unless=
select_matrix_tests() {
	local k=$1 makefile=$2 only skip unless set why t
	only=$(lh_matrix_get "$suite" "$k" tests)
	skip=$(lh_matrix_get "$suite" "$k" skip)
	unless=$(lh_matrix_get "$suite" "$k" unless)
	[ -n "$only$skip" ] || return 0
	for t in ${unless//,/ }; do
		if [ "$t" = named ] && [[ " $named " == *" $k "* ]]; then
			sel_note=" (named by --kernels: every selftest)"
			return 0
		fi
		if [[ " $lifted " == *" $t "* ]]; then
			sel_note=" (--$t: every selftest)"
			return 0
		fi
	done
	unless=${unless//named/}
	unless=${unless#,}
	unless=${unless%,}
	unless=${unless//,/ or --}
	set=${only:-$skip}
	lh_matrix_set "$set" > /dev/null || die "scripts/matrix.conf: kernel $k names the unknown set $set"
	why=$(lh_matrix_why "$set")
	if [ -n "$skip" ]; then
		for t in $(lh_matrix_set "$set"); do sel_skip+="$t ${why:-left out here by matrix.conf}"$'\n'; done
		sel_note=" (without set $set: skipped, see matrix.conf${unless:+; --$unless runs it})"
	elif [ -z "$why" ]; then
		# a set without a reason: only it runs, the rest is not this suite's business
		sel_tests=$(lh_matrix_set "$set")
	else
		for t in $(tests_without "$makefile" "$(lh_matrix_set "$set")"); do sel_skip+="$t $why"$'\n'; done
		sel_note=" (set $set only: the rest skipped, see matrix.conf${unless:+; --$unless runs all})"
	fi
}

# icount_wanted K - true if kernel K's guests, its boots too, run in instruction time (icount=1 of its
# line, unless --no-icount)
icount_wanted() {
	[ "$(job_setting "$1" icount 0)" = 1 ] && [ "$no_icount" = 0 ]
}

# job_setting - print a setting of kernel K: the matrix line of the suite, else the arch line of
# its architecture, else DEFAULT
job_setting() {
	local v
	v=$(lh_matrix_get "$suite" "$1" "$2")
	[ -n "$v" ] || v=$(lh_matrix_get arch "$(lh_kernel_arch "$1")" "$2")
	echo "${v:-$3}"
}

# guest_run - boot a kernel and run run.sh; count its tests and dmesg check (status: $run_status,
# "booted" or "noboot"; the failed tests' "not ok" lines: $run_notok); NAME is the log base name
guest_run() {
	local k=$1 name=$2 what=$3 src=$4 p f s vrc=0 out=$LH_LOGS/$2.out result=$LH_LOGS/$2.result
	local status verdict dmesg_state boot_s
	shift 4
	"$LH_SCRIPTS/vm-run.sh" --log-dir "$LH_LOGS" --name "$name" --cwd "$src/selftests" "$@" \
		"$k" -- sh ./run.sh || vrc=$?
	verdict=$(result_field "$result" verdict)
	dmesg_state=$(result_field "$result" dmesg)
	status=$(result_field "$result" status)
	boot_s=$(result_field "$result" boot_s)
	run_status=booted
	if [ -z "$status" ]; then
		# The guest never reached or never finished the command: that boot failed as a whole.
		run_status=noboot
		count 0 1 0
		summaries+=("$what: VM FAILED ($verdict, vm-run exit $vrc; see $LH_LOGS/$name.log)")
		return 0
	fi
	if read -r p f s < <(parse_totals "$out"); then
		if [ "$status" != 0 ] && [ "$f" = 0 ]; then
			f=1
			run_extra="$run_extra (run.sh exited $status without failing a test)"
		fi
	else
		p=0 f=1 s=0
		run_extra="$run_extra (no '# Totals:' line in $out; run.sh exited $status)"
	fi
	run_p=$p run_f=$f run_s=$s run_dmesg=$dmesg_state run_boot=$boot_s
	run_notok=$(grep -E '^(# )*not ok ' "$out" | head -n 12 || true)
	count "$p" "$f" "$s"
	count_dmesg "$dmesg_state"
}

# summarise_notok - add the last guest run's "not ok" lines (nested ones too) to the summaries, so
# that a CI summary alone names the test and case that failed
summarise_notok() {
	local line
	[ -n "$run_notok" ] || return 0
	while IFS= read -r line; do
		summaries+=("    $line")
	done <<< "$run_notok"
}

# test_kernel - build, boot and test one kernel; adds to the totals and the summaries
test_kernel() {
	local k=$1 kinfo src blog dkms_pid="" boot
	# shellcheck disable=SC2034 # set by eval of kernels.sh output
	local LH_KREL LH_VMLINUZ LH_KMODDIR LH_KDIR LH_KROOT LH_KARCH LH_KMAKE="" LH_UCC=gcc
	if ! kinfo=$("$LH_SCRIPTS/kernels.sh" fetch "$k"); then
		count 0 1 0
		summaries+=("kernel $k: FAILED: cannot fetch the kernel (see $(job_log "$k"))")
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
	# headers package, and a rig's DKMS builds against installed headers: test-dkms.sh's default),
	# while the guest runs, at nice 10 (the guest keeps its core)
	# (not for a cross build: dkms builds for the machine it runs on)
	if [ "$suite" = test ] && [ "$LH_KDIR" = "$LH_KROOT/usr/src/linux-headers-$LH_KREL" ] && [ -z "$LH_KMAKE" ]; then
		nice -n 10 "$LH_SCRIPTS/test-dkms.sh" "$LH_KREL=$LH_KDIR" > "$LH_LOGS/$LH_KREL.dkms.log" 2>&1 &
		dkms_pid=$!
	fi
	if [ ! -f "$src/selftests/run.sh" ]; then
		count 0 1 0
		summaries+=("kernel $k ($LH_KREL): build ok; selftests FAILED: selftests/run.sh is missing")
		return 0
	fi

	select_tests "$k" "$src/selftests/Makefile"
	# Every selftest in one guest (named by --kernels, --all-tests) took 1555 s on 5.10-rt beside one
	# other guest (5.10: 1878 s, one test timing out at 600 s): 3600 s then.
	local vm_timeout=1200
	[ -n "$sel_tests$sel_skip" ] || vm_timeout=3600
	local -a args=(--env "LH_MODULE=$src/latency_hist.ko" --env "LH_SELFTEST_DIR=$src/selftests"
		--env "LH_QUICK=$([ "$quick" = 1 ] && echo 1 || job_setting "$k" quick 0)" --env LH_DISPOSABLE_BOOT=1 --smp "$(job_setting "$k" cpus 2)" --mem "$(job_setting "$k" mem 2048)"
		--timeout "${timeout:-$(job_setting "$k" timeout "${LH_VM_TIMEOUT:-$vm_timeout}")}")
	local test_timeout setting
	test_timeout=$(job_setting "$k" test_timeout "")
	[ -z "$test_timeout" ] || args+=(--env "LH_TEST_TIMEOUT=$test_timeout")
	[ -z "$sel_tests" ] || args+=(--env "LH_TESTS=$sel_tests")
	[ -z "$sel_skip" ] || args+=(--env "LH_SKIP_TESTS=$sel_skip")
	[ -f "$src/selftests/lh_load_test.ko" ] && args+=(--env "LH_LOAD_TEST_MODULE=$src/selftests/lh_load_test.ko")
	icount_wanted "$k" && args+=(--icount --env LH_VM_ICOUNT=1)
	for setting in ${LH_GUEST_ENV:-}; do
		args+=(--env "$setting")
	done
	log "== $k ($LH_KREL): selftests in the VM"
	run_extra=$sel_note
	guest_run "$k" "$LH_KREL" "kernel $k ($LH_KREL): build ok" "$src" "${args[@]}"
	if [ "$run_status" = noboot ]; then
		booted_all=0
	else
		summaries+=("kernel $k ($LH_KREL): build ok; selftests pass:$run_p fail:$run_f skip:$run_s$run_extra; dmesg $run_dmesg; boot ${run_boot:-?}s")
		summarise_notok
		for boot in $(job_setting "$k" boot "" | tr ',' ' '); do
			extra_boot "$k" "$boot" "$src"
		done
	fi
	if [ -n "$dkms_pid" ]; then
		# counted by collect_job, into one dkms summary line
		if wait "$dkms_pid"; then
			summaries+=("kernel $k ($LH_KREL): dkms build ok")
		else
			summaries+=("kernel $k ($LH_KREL): dkms build FAILED (see $LH_LOGS/$LH_KREL.dkms.log)")
		fi
	fi
}

# extra_boot - boot a kernel once more as a boot line of the matrix says: kernel command line, tests,
# and with signed=1 a copy of the module signed with the build's own key, as DKMS users sign with a MOK
# key (Documentation/stress.rst, "Lockdown" and "Signed modules"), and another signed with a key the
# kernel does not trust (LH_WRONGKEY_MODULE); lh_load_test.ko stays unsigned. The guest is powered
# off after (LH_DISPOSABLE_BOOT=1: module_signature.sh turns sig_enforce on). The tests must pass
# without a skip (a skip means the boot was not what it is for). With LH_TESTS set, only when LH_TESTS
# names one of its tests.
extra_boot() {
	local k=$1 name=$2 src=$3 kdir=$LH_KDIR krel=$LH_KREL what tests append signed hash mod t s3 wrong
	local -a sign_env=()
	what="kernel $k ($krel) booted with $name"
	tests=$(lh_matrix_set "$(lh_matrix_get boot "$name" tests)") ||
		die "scripts/matrix.conf: boot $name names no known set in tests="
	append=$(lh_matrix_get boot "$name" append)
	signed=$(lh_matrix_get boot "$name" signed)
	s3=$(lh_matrix_get boot "$name" s3)
	if [ -n "${LH_TESTS:-}" ]; then
		for t in $tests; do [[ " $LH_TESTS " == *" $t "* ]] && break; t=""; done
		[ -n "$t" ] || return 0
	fi
	mod=$src/latency_hist.ko
	local -a pkg_env=()
	if [ "$(lh_matrix_get boot "$name" module)" = package ]; then
		# the module DKMS built in the package test (started by main, in the background)
		if ! wait_package_test || [ ! -s "$LH_BUILD/pkg/out/latency_hist.ko" ]; then
			count 0 1 0
			summaries+=("$what: FAILED: the package test built no module (see $LH_LOGS/packages.log)")
			return 0
		fi
		mod=$LH_BUILD/pkg/out/latency_hist.ko
		pkg_env=(--env "LH_PKG_LH=$LH_BUILD/pkg/out/lh")
	fi
	if [ "$signed" = 1 ]; then
		if ! grep -q '^CONFIG_MODULE_SIG=y' "$kdir/.config" 2> /dev/null || [ ! -f "$kdir/certs/signing_key.pem" ] ||
			[ ! -x "$kdir/scripts/sign-file" ]; then
			count 0 1 0
			summaries+=("$what: FAILED: the kernel has no module signing key to sign with")
			return 0
		fi
		hash=$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$/\1/p' "$kdir/.config")
		mkdir -p "$LH_BUILD/$krel/$name"
		mod=$LH_BUILD/$krel/$name/latency_hist.ko
		cp "$src/latency_hist.ko" "$mod"
		# and a copy signed as DKMS signs before its key is enrolled: a key of DKMS's kind (its
		# openssl command, prepare_signing() of dkms 3.0.10) that the kernel does not trust
		wrong=$LH_BUILD/$krel/$name/untrusted/latency_hist.ko
		mkdir -p "${wrong%/*}"
		cp "$src/latency_hist.ko" "$wrong"
		if ! "$kdir/scripts/sign-file" "${hash:-sha512}" "$kdir/certs/signing_key.pem" \
			"$kdir/certs/signing_key.x509" "$mod" >> "$LH_LOGS/$krel.build.log" 2>&1 ||
			! openssl req -new -x509 -nodes -days 36500 -subj "/CN=latency-hist untrusted test key" \
				-newkey rsa:2048 -keyout "${wrong%/*}/mok.key" -outform DER -out "${wrong%/*}/mok.pub" \
				>> "$LH_LOGS/$krel.build.log" 2>&1 ||
			! "$kdir/scripts/sign-file" "${hash:-sha512}" "${wrong%/*}/mok.key" "${wrong%/*}/mok.pub" \
				"$wrong" >> "$LH_LOGS/$krel.build.log" 2>&1; then
			count 0 1 0
			summaries+=("$what: FAILED: signing failed (see $LH_LOGS/$krel.build.log)")
			return 0
		fi
		sign_env=(--env "LH_WRONGKEY_MODULE=$wrong")
	fi
	local -a args=(--env "LH_MODULE=$mod" --env "LH_SELFTEST_DIR=$src/selftests" --env "LH_TESTS=$tests"
		"${pkg_env[@]}" "${sign_env[@]}" --env LH_DISPOSABLE_BOOT=1 --timeout "${timeout:-$(job_setting "$k" timeout "${LH_VM_TIMEOUT:-1200}")}")
	[ -z "$append" ] || args+=(--append "$append")
	# what the guest reads after a resume (no 9p mount survives it): the module and the selftests
	[ "$s3" = 1 ] && args+=(--s3 --ram "$src")
	[ -f "$src/selftests/lh_load_test.ko" ] && args+=(--env "LH_LOAD_TEST_MODULE=$src/selftests/lh_load_test.ko")
	icount_wanted "$k" && args+=(--icount --env LH_VM_ICOUNT=1)
	log "== $k ($krel): $tests in a VM booted with $name${append:+ ($append)}"
	run_extra=""
	guest_run "$k" "$krel.$name" "$what" "$src" "${args[@]}"
	[ "$run_status" = booted ] || return 0
	# a skip there is a failure: that boot exists to be what it says
	if [ "$run_s" != 0 ] || [ "$run_p" = 0 ]; then
		count 0 1 0
		run_extra=" (a skip or nothing passed: the boot was not $name)"
	fi
	summaries+=("$what: selftests pass:$run_p fail:$run_f skip:$run_s$run_extra; dmesg $run_dmesg")
	summarise_notok
}

# package_kernel KERNELS - print the kernel of KERNELS whose boot line has module=package (the package
# test builds the module for it), if the suite is test and LH_TESTS (when set) names that boot's tests
package_kernel() {
	local k boot t
	[ "$suite" = test ] || return 0
	for k in $1; do
		for boot in $(job_setting "$k" boot "" | tr ',' ' '); do
			[ "$(lh_matrix_get boot "$boot" module)" = package ] || continue
			if [ -n "${LH_TESTS:-}" ]; then
				for t in $(lh_matrix_set "$(lh_matrix_get boot "$boot" tests)"); do
					[[ " $LH_TESTS " == *" $t "* ]] && { echo "$k"; return 0; }
				done
				continue
			fi
			echo "$k"
			return 0
		done
	done
}

# start_package_test KERNEL - in the background: the Debian packages built and tried in a fresh root
# with KERNEL's headers (scripts/test-packages.sh), its KTAP in packages.log, its seconds in
# packages.seconds; the guest half runs in KERNEL's package boot (extra_boot)
start_package_test() {
	rm -rf "$LH_BUILD/pkg/out" "$LH_LOGS/packages.log" "$LH_LOGS/packages.seconds"
	(
		t=$(date +%s)
		eval "$("$LH_SCRIPTS/kernels.sh" fetch "$1")" &&
			nice -n 10 bash "$LH_SCRIPTS/test-packages.sh" "$LH_BUILD/pkg" "$LH_KREL" "$LH_KROOT"
		echo $(($(date +%s) - t)) > "$LH_LOGS/packages.seconds"
		# the package boot waits for a result: leave one whatever happened
		mkdir -p "$LH_BUILD/pkg/out"
		[ -f "$LH_BUILD/pkg/out/result" ] || echo "not ok" > "$LH_BUILD/pkg/out/result"
	) > "$LH_LOGS/packages.log" 2>&1 < /dev/null &
	package_pid=$!
}

# wait_package_test - wait (from any job) until the package test has left the module and lh for the
# boot (out/ready), or its result; its own checks, the purge among them, go on meanwhile and count in
# packages.log, which main waits for
wait_package_test() {
	local i
	for ((i = 0; i < 1800; i += 5)); do
		[ -f "$LH_BUILD/pkg/out/ready" ] || [ -f "$LH_BUILD/pkg/out/result" ] && return 0
		sleep 5
	done
	return 1
}

# job_log - print the log file of kernel K's job
job_log() {
	echo "$LH_LOGS/kernel-$(printf '%s' "$1" | tr -c 'A-Za-z0-9._+-' _).log"
}

# kernel_job - test one kernel in a background job: its output goes to its log, its counts and
# summary lines to $LH_JOBDIR/N.res for collect_job
kernel_job() {
	local k=$1 n=$2 t0 s
	total_pass=0 total_fail=0 total_skip=0 booted_all=1 summaries=()
	t0=$(date +%s)
	test_kernel "$k"
	{
		echo "job_pass=$total_pass job_fail=$total_fail job_skip=$total_skip job_booted=$booted_all"
		echo "job_seconds=$(($(date +%s) - t0))"
		for s in "${summaries[@]}"; do printf 'job_summaries+=(%q)\n' "$s"; done
	} > "$LH_JOBDIR/$n.res"
}

# collect_job - add a finished job's counts and summary lines (with its wall time) to the totals
collect_job() {
	local k=$1 n=$2 job_pass=0 job_fail=1 job_skip=0 job_booted=0 job_seconds="?" s
	local -a job_summaries=("kernel $k: FAILED: the job ended without a result (see $(job_log "$k"))")
	if [ -f "$LH_JOBDIR/$n.res" ]; then
		job_summaries=()
		# shellcheck disable=SC1090 # written by kernel_job
		. "$LH_JOBDIR/$n.res"
	fi
	count "$job_pass" "$job_fail" "$job_skip"
	[ "$job_booted" = 1 ] || booted_all=0
	for s in "${job_summaries[@]}"; do
		case $s in
		*"dkms build ok") dkms_ok=$((dkms_ok + 1)) ;;
		*"dkms build FAILED"*) dkms_failed=$((dkms_failed + 1)); summaries+=("$s") ;;
		*) summaries+=("$s") ;;
		esac
	done
	summaries+=("  ($k: ${job_seconds} s, log $(job_log "$k"))")
}

# kernel_ready - true if kernel K's job can start: not a kernel built here, or its build is done
kernel_ready() {
	! lh_kernel_is_built_flavour "$1" || [ -e "$LH_JOBDIR/built-$1" ] || [ -z "${kbuild_pid:-}" ] ||
		! kill -0 "$kbuild_pid" 2> /dev/null
}

# run_jobs - run kernel_job for every kernel, at most $jobs at once, in list order except that a kernel
# built here goes first once its build is done (those take longest)
run_jobs() {
	local -a queue=() pids=() names=()
	local k i n=0 running pid kbuild_reniced=""
	job_pids=()
	for k in "$@"; do queue+=("$k"); done
	while [ "${#queue[@]}" -gt 0 ] || [ "${#pids[@]}" -gt 0 ]; do
		# reap finished jobs
		for i in "${!pids[@]}"; do
			if ! kill -0 "${pids[$i]}" 2> /dev/null; then
				wait "${pids[$i]}" || true
				log "finished ${names[$i]%%:*}"
				unset "pids[$i]" "names[$i]"
			fi
		done
		running=${#pids[@]}
		k=""
		if [ "$running" -lt "$jobs" ]; then
			# a ready kernel built here first (they take longest), then the list order
			for i in "${!queue[@]}"; do
				lh_kernel_is_built_flavour "${queue[$i]}" && kernel_ready "${queue[$i]}" && { k=$i; break; }
			done
			if [ -z "$k" ]; then
				for i in "${!queue[@]}"; do kernel_ready "${queue[$i]}" && { k=$i; break; }; done
			fi
		fi
		if [ -z "$k" ]; then
			# A free slot and nothing ready: the rest waits for the builds, which get the CPU now.
			if [ "$running" -lt "$jobs" ] && [ -z "$kbuild_reniced" ] && [ -n "${kbuild_pid:-}" ]; then
				renice -n 0 -g "$kbuild_pid" > /dev/null 2>&1 || true
				kbuild_reniced=1
				log "nothing else to run: the kernel builds go on at nice 0"
			fi
			sleep 2
			continue
		fi
		n=${order[${queue[$k]}]}
		log "starting ${queue[$k]} (log: $(job_log "${queue[$k]}"))"
		( trap - EXIT; kernel_job "${queue[$k]}" "$n" ) > "$(job_log "${queue[$k]}")" 2>&1 < /dev/null &
		pid=$!
		pids+=("$pid")
		names+=("${queue[$k]}:$n")
		job_pids+=("$pid")
		unset "queue[$k]"
		queue=(${queue[@]+"${queue[@]}"})
	done
}

# main - parse options, prepare the host, test every kernel, print the summary
main() {
	local kernels="" k t0 boot_before i
	suite=test quick=0 timeout="" jobs=${LH_GUESTS:-2} no_icount=0 lifted="" named=""
	dkms_ok=0 dkms_failed=0
	while [ $# -gt 0 ]; do
		case $1 in
		--kernels) kernels=$2 named=$2; shift 2 ;;
		--kernels=*) kernels=${1#--kernels=} named=$kernels; shift ;;
		--suite) suite=$2; shift 2 ;;
		--quick) quick=1; shift ;;
		--full-debug) lifted="$lifted full-debug"; shift ;;
		--all-tests) lifted="$lifted all-tests"; shift ;;
		--timeout) timeout=$2; shift 2 ;;
		--jobs) jobs=$2; shift 2 ;;
		--no-icount) no_icount=1; shift ;;
		-h | --help) sed -n '3,/^$/s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; exit 0 ;;
		*) die "unknown argument $1 (see --help)" ;;
		esac
	done
	kernels=${kernels:-${LH_KERNELS:-$(lh_matrix_kernels "$suite")}}
	[ -n "$kernels" ] || die "no kernels given, and matrix.conf has no suite '$suite'"
	[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs wants a positive number"
	t0=$(date +%s)
	mkdir -p "$LH_LOGS" || die "cannot create the log directory $LH_LOGS"
	rm -rf "$LH_JOBDIR"
	mkdir -p "$LH_JOBDIR"
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
	trap stop_background EXIT
	start_kernel_builds "$kernels"
	build_user_programs
	if [ "${LH_HOST_TESTS:-1}" = 0 ]; then
		log "LH_HOST_TESTS=0: no host tests"
		HOST_TESTS=()
		host_pid=""
	else
		log "host unit tests, host tests of scripts/lh and litmus tests in the background (build/logs/unit*.log, lh_host*.log, litmus.log)"
		host_tests < /dev/null &
		host_pid=$!
	fi
	declare -gA order=()
	i=0
	for k in $kernels; do
		order[$k]=$i
		i=$((i + 1))
	done
	package_pid=""
	pkg_kernel=$(package_kernel "$kernels")
	if [ -n "$pkg_kernel" ]; then
		log "Debian packages: built and installed in a fresh root for $pkg_kernel in the background (build/logs/packages.log)"
		start_package_test "$pkg_kernel"
	fi
	# shellcheck disable=SC2086 # the kernel list is space-separated
	run_jobs $kernels
	[ -z "$host_pid" ] || wait "$host_pid" || true
	count_host_tests
	if [ -n "$package_pid" ]; then
		wait "$package_pid" || true
		count_ktap "Debian packages in a fresh root ($(cat "$LH_LOGS/packages.seconds" 2>/dev/null || echo "?") s)" \
			"$LH_LOGS/packages.log"
	fi
	for k in $kernels; do
		collect_job "$k" "${order[$k]}"
	done
	if [ $((dkms_ok + dkms_failed)) -gt 0 ]; then
		count "$dkms_ok" "$dkms_failed" 0
		summaries+=("dkms: $dkms_ok passed, $dkms_failed failed (build/logs/R.dkms.log)")
	fi
	check_boot_untouched "$boot_before"

	echo
	echo "== summary ($(($(date +%s) - t0))s; suite $suite, $jobs guests at a time)"
	printf '%s\n' "${summaries[@]}"
	[ "$booted_all" = 1 ] || echo "at least one kernel could not be fetched or booted"
	echo "$total_pass passed, $total_fail failed, $total_skip skipped"
	[ "$total_fail" = 0 ] && [ "$booted_all" = 1 ]
}

main "$@"
