# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2034,SC3043 # variables here are used by the tests; local: dash, busybox ash, bash
#
# lib.sh - what every selftest needs: KTAP output, setup and cleanup, module
# load/unload, the status file and the controls, writes, and the kernel log
#
# Sourced by every test script (". lib.sh"), and by run.sh for the checks of
# the tests' requirements; never run on its own. The others are sourced after
# it by the tests that need them: hist_lib.sh (the
# readers of CPUx, max_latency-CPUx and the checks over them), sleeper_lib.sh
# (the rt_sleeper handshake), inject_lib.sh (lh_load_test, lh_probe_test),
# validate_lib.sh (comparisons with other tools). POSIX sh only: the tests
# must run under dash, bash and a busybox ash on a minimal rig, so no arrays,
# no "echo -n", no process substitution, and only tools busybox also
# provides (awk, grep, sed, cmp, find, ls, stat, dmesg, insmod, rmmod,
# modprobe, mktemp, timeout). "local" is in all three shells: functions
# declare their temporaries with it (one name a line or "local a b", an
# assignment with it only of a plain value); results go to UPPER-case
# globals (LH_RESULT, LH_VALUE, LH_FIELD, MR_*).
#
# Output follows tools/testing/selftests/kselftest/ktap_helpers.sh: a
# "TAP version 13" header, a "1..N" plan, "ok N desc" / "not ok N desc" /
# "ok N desc # SKIP reason" lines, diagnostics prefixed "# ", a closing
# "# Totals: pass:N fail:N xfail:0 xpass:0 skip:N error:0", and the kselftest
# exit codes (0 pass, 1 fail, 4 skip).
#
# Under emulation (TCG, root over 9p) every exec costs 60-400 ms, so the
# helpers use shell builtins (read, case, parameter expansion) wherever a
# result fits in a variable, and one awk/grep over many files elsewhere.
#
# A test case usually checks many things (every CPU file, every control);
# it calls lh_case_begin, reports each problem with lh_err (a diagnostic
# line), and ends with lh_case_end "name", which passes only if lh_err was
# never called. Keep lh_err out of pipelines and $(...): a subshell cannot
# count the error.
#
# Environment (also in README.md, "Build and install on a real rig"):
#   LH_MODULE            path of latency_hist.ko; unset: modprobe latency_hist
#   LH_LOAD_TEST_MODULE  path of lh_load_test.ko (tests needing it SKIP if unset)
#   LH_SELFTEST_DIR      directory holding the built helpers (lh_write, rt_sleeper);
#                        default: the directory of the test script

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

LH_NAME=latency_hist
LH_SYSMOD=/sys/module/$LH_NAME
LH_TESTNO=1
LH_CNT_PASS=0
LH_CNT_FAIL=0
LH_CNT_SKIP=0
LH_PLAN=0
LH_ERRS=0

# The types, read from the status file when the module is loaded
# (lh_load_types): every histogram in status order (its name is the
# directory holding its files), the enable switches in an order they can be
# switched on, the histograms with max_latency-CPUx records, with a pid
# filter, with counters. tree.sh checks the list against the documented one.
LH_HISTS=
LH_ENABLES=
LH_MAXLAT_HISTS=
LH_PID_DIRS=
LH_COUNTER_HISTS=
# PID_MAX_LIMIT (include/linux/threads.h): 4 M where long is 64-bit, PID_MAX_DEFAULT on 32-bit
case $(uname -m) in
*64 | s390x | ppc64le) LH_PID_MAX=4194304 ;;
*) LH_PID_MAX=32768 ;;
esac
LH_BUCKETS=10240		# rows in a CPUx file, 0..10239 us

LH_TESTDIR=${LH_TESTDIR:-$(cd "$(dirname "$0")" && pwd)}
LH_BINDIR=${LH_SELFTEST_DIR:-$LH_TESTDIR}
LH_WRITE_BIN=$LH_BINDIR/lh_write
LH_TEST=$(basename "$0" .sh)

# ---------------------------------------------------------------- KTAP

# lh_header - print the KTAP version line
lh_header()
{
	echo "TAP version 13"
}

# lh_plan - announce how many results follow
lh_plan()
{
	LH_PLAN=$1
	echo "1..$LH_PLAN"
}

# lh_diag - print a diagnostic line
lh_diag()
{
	case "$*" in
	*"
"*)	printf '%s\n' "$*" | sed 's/^/# /' ;;
	*)	printf '# %s\n' "$*" ;;
	esac
}

# lh_result - print one result line and count it
lh_result()
{
	printf '%s %s %s%s\n' "$1" "$LH_TESTNO" "$2" "${3:+ # $3}"
	LH_TESTNO=$((LH_TESTNO + 1))
}

# lh_pass - report a passing test case
lh_pass()
{
	lh_result ok "$1"
	LH_CNT_PASS=$((LH_CNT_PASS + 1))
}

# lh_fail - report a failing test case
lh_fail()
{
	lh_result "not ok" "$1"
	LH_CNT_FAIL=$((LH_CNT_FAIL + 1))
}

# lh_skip - report a skipped test case, $2 says why
lh_skip()
{
	lh_result ok "$1" "SKIP ${2:-}"
	LH_CNT_SKIP=$((LH_CNT_SKIP + 1))
}

# lh_totals - print the kselftest totals line
lh_totals()
{
	echo "# Totals: pass:$LH_CNT_PASS fail:$LH_CNT_FAIL xfail:0 xpass:0 skip:$LH_CNT_SKIP error:0"
}

# lh_skip_all - nothing can run here: empty plan, skip exit code
lh_skip_all()
{
	printf '1..0 # SKIP %s\n' "$*"
	lh_totals
	exit $KSFT_SKIP
}

# lh_bail - abort the whole test program (cleanup runs from the EXIT trap)
lh_bail()
{
	printf 'Bail out! %s\n' "$*"
	LH_CNT_FAIL=$((LH_CNT_FAIL + 1))
	lh_totals
	exit $KSFT_FAIL
}

# lh_finished - print totals and exit with the kselftest code
lh_finished()
{
	lh_totals
	if [ "$LH_CNT_FAIL" -ne 0 ] ||
	   [ $((LH_CNT_PASS + LH_CNT_SKIP)) -ne "$LH_PLAN" ]; then
		exit $KSFT_FAIL
	fi
	if [ "$LH_CNT_PASS" -eq 0 ] && [ "$LH_CNT_SKIP" -gt 0 ]; then
		exit $KSFT_SKIP
	fi
	exit $KSFT_PASS
}

# lh_case_begin - start collecting errors for one test case
lh_case_begin()
{
	LH_ERRS=0
}

# lh_err - record one problem in the current test case
lh_err()
{
	lh_diag "$LH_TEST: $*"
	LH_ERRS=$((LH_ERRS + 1))
}

# lh_case_end - report the current test case: pass if lh_err was not called
lh_case_end()
{
	if [ "$LH_ERRS" -eq 0 ]; then
		lh_pass "$1"
	else
		lh_fail "$1"
	fi
}

# ---------------------------------------------------------------- setup

LH_TMP=
LH_CLEANUP_HOOKS=	# functions lh_cleanup calls first (the other libraries add theirs)
LH_MOUNTED_DEBUGFS=
LH_LOADED_BY_US=
LH_DEBUGFS=
LH_DIR=
LH_START_MARK=

# lh_cleanup - EXIT trap: leave the system as the test found it
lh_cleanup()
{
	local hook
	for hook in $LH_CLEANUP_HOOKS; do
		"$hook"
	done
	if [ -n "$LH_LOADED_BY_US" ] && lh_loaded; then
		lh_unload >/dev/null 2>&1 ||
			echo "# $LH_TEST: cleanup: could not unload $LH_NAME"
	fi
	if [ -n "$LH_MOUNTED_DEBUGFS" ]; then
		umount "$LH_DEBUGFS" 2>/dev/null
	fi
	if [ -n "$LH_TMP" ]; then
		rm -rf "$LH_TMP"
	fi
}

# lh_find_debugfs - set LH_DEBUGFS to a debugfs mount, mounting it if needed
lh_find_debugfs()
{
	LH_DEBUGFS=$(awk '$3 == "debugfs" { print $2; exit }' /proc/mounts)
	if [ -z "$LH_DEBUGFS" ]; then
		LH_DEBUGFS=/sys/kernel/debug
		mount -t debugfs nodev "$LH_DEBUGFS" 2>/dev/null || return 1
		LH_MOUNTED_DEBUGFS=1
	fi
	LH_DIR=$LH_DEBUGFS/$LH_NAME
}

# lh_setup - common start: root, debugfs, module available and not loaded,
# and what the test's "# requires:" line asks for
#
# Prints the KTAP header; skips the whole test when it cannot run here.
lh_setup()
{
	lh_header
	trap lh_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM

	[ "$(id -u)" -eq 0 ] || lh_skip_all "must run as root"
	[ -r /proc/mounts ] || lh_skip_all "/proc is not mounted"
	lh_find_debugfs || lh_skip_all "debugfs is not mounted and cannot be mounted"
	if lh_loaded; then
		lh_skip_all "$LH_NAME is already loaded; rmmod it to run the tests"
	fi
	if [ -n "${LH_MODULE:-}" ]; then
		[ -r "$LH_MODULE" ] || lh_skip_all "LH_MODULE=$LH_MODULE does not exist"
	elif ! modinfo "$LH_NAME" >/dev/null 2>&1; then
		lh_skip_all "$LH_NAME is not installed and LH_MODULE is not set"
	fi
	# LH_CPUS: the possible CPUs (space separated), LH_CPU0: the first one
	LH_CPUS=$(lh_possible_cpus | tr '\n' ' ')
	LH_CPU0=${LH_CPUS%% *}
	[ -n "$LH_CPU0" ] || lh_skip_all "cannot read /sys/devices/system/cpu/possible"
	if lh_req_header "$0"; then
		# shellcheck disable=SC2086 # a word list
		lh_requires $LH_REQ
	fi
	LH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/lh-$LH_TEST.XXXXXX") ||
		lh_skip_all "cannot create a temporary directory"
	lh_mark "$LH_TEST start"
	LH_START_MARK=$LH_MARK
}

# ---------------------------------------------------------------- requirements
#
# A test says what it needs on one line of its header, as ftracetest's test.d
# files do, and the runner checks it before the test loads anything:
#
#   # requires: rt_sleeper cpu1 preemptirq lh_load_test type:irqsoff
#
# run.sh reports a test whose requirement is not met as a SKIP with the
# requirement's reason, without starting it; lh_setup checks the line again
# (a test run on its own), in its order, and lh_load the type: words, which
# need the module's status. A test that needs nothing more than lh_setup
# checks says "none". Where only one test case needs something, the case
# asks lh_req_met and skips with its LH_REQ_WHY: one wording per requirement.
# The words (check_requires.sh, a host test, rejects any other):
#   cpu1               CPU 1 online (2 or more CPUs)
#   cpu1-hotplug       CPU 1 can be taken offline
#   disposable-boot    LH_DISPOSABLE_BOOT=1: the test leaves the boot changed
#   icount             LH_VM_ICOUNT=1: the guest runs in instruction time
#   not-rt, not-lockdep  a kernel without PREEMPT_RT, without lockdep
#   lockdown           the kernel is locked down (LH_LOCKDOWN gets the level)
#   preemptirq         the kernel has the preemptirq tracepoints (or cannot
#                      tell: then a type: word decides after the load)
#   failslab kmemleak s2idle ns_last_pid tracefs
#   synthetic-events timerlat   those kernel features
#   lh_load_test lh_probe_test  the test modules (inject_lib.sh)
#   lh_irq_test        the threaded interrupt line module (irq.sh)
#   lh_softirq_test    the module that raises HI_SOFTIRQ (softirq.sh)
#   module-file        LH_MODULE names the .ko (modprobe will not do)
#   module-sig         the kernel checks module signatures (CONFIG_MODULE_SIG:
#                      /sys/module/module/parameters/sig_enforce exists)
#   packaged-lh        LH_PKG_LH names the packaged lh (the package boot)
#   lh-tool            scripts/lh beside the selftests (or LH_TOOL)
#   rt_sleeper rt_hog timer_fd lh_readcheck lh_write lh_fuzz
#                      helper programs built by make -C selftests
#   suspend-wake       something wakes a suspend lh_suspend starts: in a
#                      qemu guest vm-run.sh --s3 (LH_VM_WAKE=1), on a rig
#                      the RTC alarm (rtcwake and rtc0's wakealarm)
#   cyclictest rtla trace-cmd cpp   programs installed on the system
#   type:NAME          status says histogram NAME is available
LH_REQ_WORDS="none cpu1 cpu1-hotplug disposable-boot icount not-rt not-lockdep
lockdown preemptirq failslab kmemleak s2idle s3 suspend-wake ns_last_pid tracefs
synthetic-events timerlat lh_load_test lh_probe_test lh_irq_test lh_softirq_test
module-file module-sig packaged-lh
lh-tool rt_sleeper rt_hog timer_fd lh_readcheck lh_write lh_fuzz cyclictest
rtla trace-cmd cpp type:NAME"
LH_REQ=			# the words of this test's "# requires:" line
LH_REQ_MET=		# the words found met so far (each is checked once)
LH_REQ_TYPES=		# the type: words, checked at the first load
LH_REQ_WHY=		# why the last requirement lh_req_met tried is not met
LH_LOCKDOWN=		# the lockdown level, after lh_req_met lockdown

# lh_req_header FILE - LH_REQ gets the words of FILE's "# requires:" line
# (builtins only: run.sh reads every test's); false if its header has none
lh_req_header()
{
	local line
	LH_REQ=
	while IFS= read -r line; do
		case $line in
		"# requires:"*)
			LH_REQ=${line#"# requires:"}
			return 0
			;;
		"#"* | "") ;;
		*) break ;;
		esac
	done <"$1"
	return 1
}

# lh_req_met WORD - true if requirement WORD is met here; else LH_REQ_WHY
# says why not (the SKIP reason); 2 for a word that is not a requirement
lh_req_met()
{
	local dir
	LH_REQ_WHY=
	case " $LH_REQ_MET " in *" $1 "*) return 0 ;; esac
	case $1 in
	none) ;;
	cpu1)
		awk -F, '{ for (i = 1; i <= NF; i++) if ($i ~ /-/ || $i == "1") { f = 1; exit } }
			END { exit !f }' /sys/devices/system/cpu/online ||
			LH_REQ_WHY="needs CPU 1 online (2 or more CPUs)"
		;;
	cpu1-hotplug)
		[ -w /sys/devices/system/cpu/cpu1/online ] ||
			LH_REQ_WHY="CPU 1 cannot be taken offline here"
		;;
	disposable-boot)
		[ "${LH_DISPOSABLE_BOOT:-0}" = 1 ] ||
			LH_REQ_WHY="it leaves the boot changed: runs only with LH_DISPOSABLE_BOOT=1 (a VM, or a rig you reboot after)"
		;;
	icount)
		[ "${LH_VM_ICOUNT:-0}" = 1 ] ||
			LH_REQ_WHY="needs instruction time (LH_VM_ICOUNT=1, scripts/validate.sh)"
		;;
	not-rt)
		! grep -q PREEMPT_RT /proc/version 2>/dev/null ||
			LH_REQ_WHY="PREEMPT_RT kernel: this test runs only without PREEMPT_RT"
		;;
	not-lockdep)
		# The validate_* tests: on a lockdep kernel a probe's slow paths
		# (lockdep validating a lock chain it sees for the first time) fall
		# between the two tools' clock reads: one sample in 400 differed by
		# 5 to 27 us on 6.12-preempt. The agreement is checked on
		# production kernels.
		[ ! -e /proc/lockdep ] ||
			LH_REQ_WHY="lockdep kernel: probe slow paths skew single samples"
		;;
	lockdown)
		# The level shows in securityfs; a kernel without it says so in its log.
		dir=/sys/kernel/security
		[ -r "$dir/lockdown" ] || mount -t securityfs securityfs "$dir" 2>/dev/null
		if [ -r "$dir/lockdown" ]; then
			LH_LOCKDOWN=$(cat "$dir/lockdown")
		else
			LH_LOCKDOWN=$(dmesg | sed -n 's/.*\(Kernel is locked down from .*\); see.*/\1/p' | head -n 1)
		fi
		case $LH_LOCKDOWN in
		*"[integrity]"* | *"[confidentiality]"* | "Kernel is locked down from"*) ;;
		*) LH_REQ_WHY="the kernel is not locked down (boot with lockdown=integrity)" ;;
		esac
		;;
	preemptirq)
		[ "$(lh_preemptirq_tracepoints)" != absent ] ||
			LH_REQ_WHY="no preemptirq tracepoints in this kernel"
		;;
	failslab)
		[ -e /proc/self/fail-nth ] && [ -d "$LH_DEBUGFS/failslab" ] ||
			LH_REQ_WHY="kernel without failslab and fail-nth (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)"
		;;
	kmemleak)
		[ -e "$LH_DEBUGFS/kmemleak" ] ||
			LH_REQ_WHY="kernel without kmemleak (CONFIG_DEBUG_KMEMLEAK)"
		;;
	s2idle)
		grep -qw s2idle /sys/power/mem_sleep 2>/dev/null ||
			LH_REQ_WHY="this kernel cannot suspend to idle (no s2idle in /sys/power/mem_sleep)"
		;;
	s3)
		grep -qw deep /sys/power/mem_sleep 2>/dev/null ||
			LH_REQ_WHY="this machine cannot suspend to RAM (no deep in /sys/power/mem_sleep; under qemu: -global PIIX4_PM.disable_s3=0)"
		;;
	suspend-wake)
		case ${LH_VM_WAKE:-} in
		1) ;;
		0) LH_REQ_WHY="a qemu guest that nothing wakes from a suspend (vm-run.sh --s3 does: the matrix's boot suspend)" ;;
		*)
			if ! command -v rtcwake >/dev/null 2>&1; then
				LH_REQ_WHY="rtcwake (util-linux) is not installed"
			elif [ ! -e /sys/class/rtc/rtc0/wakealarm ]; then
				LH_REQ_WHY="no RTC with a wake alarm (rtc0)"
			fi
			;;
		esac
		;;
	ns_last_pid)
		[ -w /proc/sys/kernel/ns_last_pid ] ||
			LH_REQ_WHY="no writable /proc/sys/kernel/ns_last_pid to choose a thread id"
		;;
	tracefs)
		lh_tracefs >/dev/null || LH_REQ_WHY="no tracefs"
		;;
	synthetic-events)
		dir=$(lh_tracefs) && [ -w "$dir/synthetic_events" ] ||
			LH_REQ_WHY="no hist triggers / synthetic events in this kernel"
		;;
	timerlat)
		dir=$(lh_tracefs) && grep -qw timerlat "$dir/available_tracers" ||
			LH_REQ_WHY="no timerlat tracer in this kernel"
		;;
	lh_load_test)
		[ -n "${LH_LOAD_TEST_MODULE:-}" ] && [ -r "$LH_LOAD_TEST_MODULE" ] ||
			LH_REQ_WHY="LH_LOAD_TEST_MODULE (lh_load_test.ko) is not set"
		;;
	lh_probe_test | lh_irq_test | lh_softirq_test)
		# built next to lh_load_test.ko
		dir=${LH_LOAD_TEST_MODULE:+${LH_LOAD_TEST_MODULE%/*}}
		[ -n "$dir" ] && [ -r "$dir/$1.ko" ] ||
			LH_REQ_WHY="$1 is not built (make -C selftests modules)"
		;;
	module-file)
		[ -n "${LH_MODULE:-}" ] ||
			LH_REQ_WHY="needs LH_MODULE (the .ko to load, not modprobe's)"
		;;
	module-sig)
		[ -e /sys/module/module/parameters/sig_enforce ] ||
			LH_REQ_WHY="the kernel does not check module signatures (no CONFIG_MODULE_SIG)"
		;;
	packaged-lh)
		[ -n "${LH_PKG_LH:-}" ] && [ -r "$LH_PKG_LH" ] ||
			LH_REQ_WHY="LH_PKG_LH (the packaged lh) is not set: scripts/run-tests.sh sets it in the package boot"
		;;
	lh-tool)
		[ -r "${LH_TOOL:-$LH_TESTDIR/../scripts/lh}" ] ||
			LH_REQ_WHY="scripts/lh is not beside the selftests"
		;;
	rt_sleeper | rt_hog | timer_fd | lh_readcheck | lh_write | lh_fuzz)
		[ -x "$LH_BINDIR/$1" ] ||
			LH_REQ_WHY="$1 is not built (make -C selftests)"
		;;
	cyclictest | rtla | trace-cmd | cpp)
		if ! command -v "$1" >/dev/null 2>&1; then
			case $1 in
			cyclictest) LH_REQ_WHY="cyclictest (rt-tests) is not installed" ;;
			*) LH_REQ_WHY="$1 is not installed" ;;
			esac
		fi
		;;
	type:?*)
		if ! lh_available "${1#type:}"; then
			dir=$(lh_status_line "${1#type:}")
			case $dir in
			*" reason="*) dir=": ${dir#* reason=}" ;;
			*) dir= ;;
			esac
			LH_REQ_WHY="${1#type:} is not available here$dir"
		fi
		;;
	*)
		LH_REQ_WHY="unknown requirement '$1' (lib.sh: LH_REQ_WORDS)"
		return 2
		;;
	esac
	[ -z "$LH_REQ_WHY" ] || return 1
	LH_REQ_MET="$LH_REQ_MET $1"
}

# lh_requires WORD... - skip the whole test unless every requirement is met
# (an unknown word ends it); the type: words wait for the first load
lh_requires()
{
	local w
	for w in "$@"; do
		case $w in
		type:*)
			if ! lh_loaded; then
				LH_REQ_TYPES="$LH_REQ_TYPES $w"
				continue
			fi
			;;
		esac
		lh_req_met "$w" && continue
		[ $? -ne 2 ] || lh_bail "$LH_REQ_WHY"
		lh_skip_all "$LH_REQ_WHY"
	done
}

# lh_requires_types - lh_load: check the type: words lh_requires left
lh_requires_types()
{
	local types
	types=$LH_REQ_TYPES
	LH_REQ_TYPES=
	# shellcheck disable=SC2086 # a word list
	lh_requires $types
}

# ---------------------------------------------------------------- module

# lh_loaded - true if the module is loaded
lh_loaded()
{
	[ -d "$LH_SYSMOD" ]
}

# lh_load - load the module with optional parameters (LH_MODULE or modprobe)
lh_load()
{
	if [ -n "${LH_MODULE:-}" ]; then
		insmod "$LH_MODULE" "$@" || return 1
	else
		modprobe "$LH_NAME" "$@" || return 1
	fi
	LH_LOADED_BY_US=1
	[ -d "$LH_DIR" ] || return 1
	lh_load_types || lh_diag "$LH_TEST: cannot read the types from $LH_DIR/status"
	[ -z "$LH_REQ_TYPES" ] || lh_requires_types
}

# lh_status_rows - print "name switch needs pid max counters" per status line
lh_status_rows()
{
	awk '{
		sw = "?"; needs = "-"; pid = max = cnt = 0
		for (i = 2; i <= NF && $i !~ /^reason=/; i++) {
			if ($i ~ /^switch=/) sw = substr($i, 8)
			else if ($i ~ /^needs=/) needs = substr($i, 7)
			else if ($i == "pid=1") pid = 1
			else if ($i == "max=1") max = 1
			else if ($i == "counters=1") cnt = 1
		}
		print $1, sw, needs, pid, max, cnt
	}' "$LH_DIR/status"
}

# lh_load_types - set the type lists above from the status file
lh_load_types()
{
	lh_status_rows >"$LH_TMP/types" || return 1
	LH_HISTS=$(awk '{ printf "%s%s", s, $1; s = " " }' "$LH_TMP/types")
	LH_MAXLAT_HISTS=$(awk '$5 { printf "%s%s", s, $1; s = " " }' "$LH_TMP/types")
	LH_PID_DIRS=$(awk '$4 { printf "%s%s", s, $1; s = " " }' "$LH_TMP/types")
	LH_COUNTER_HISTS=$(awk '$6 { printf "%s%s", s, $1; s = " " }' "$LH_TMP/types")
	# switches in first-seen order, each after the switches it needs
	LH_ENABLES=$(awk '!($2 in nd) { o[++n] = $2; nd[$2] = $3 }
		END {
			for (pass = 0; pass < n; pass++)
				for (i = 1; i <= n; i++) {
					if (o[i] in done) continue
					k = split(nd[o[i]] == "-" ? "" : nd[o[i]], a, ",")
					for (ok = 1; k > 0; k--) if (!(a[k] in done)) ok = 0
					if (ok) { printf "%s%s", s, o[i]; s = " "; done[o[i]] = 1 }
				}
		}' "$LH_TMP/types")
	[ -n "$LH_HISTS" ] && [ -n "$LH_ENABLES" ]
}

# lh_switch_of HIST - print the enable switch that drives histogram HIST
lh_switch_of()
{
	awk -v h="$1" '$1 == h { print $2; exit }' "$LH_TMP/types"
}

# lh_switch_needs SWITCH - print the switches SWITCH needs (space separated)
lh_switch_needs()
{
	awk -v s="$1" '$2 == s && $3 != "-" { gsub(/,/, " ", $3); print $3; exit }' "$LH_TMP/types"
}

# lh_needs_all SWITCH - print every switch SWITCH needs, directly or through
# another, in switch-on order
lh_needs_all()
{
	local all more s n out
	all=" $(lh_switch_needs "$1") "
	more=1
	while [ -n "$more" ]; do
		more=
		for s in $all; do
			for n in $(lh_switch_needs "$s"); do
				case $all in
				*" $n "*) ;;
				*) all="$all$n "; more=1 ;;
				esac
			done
		done
	done
	out=
	for s in $LH_ENABLES; do
		case $all in
		*" $s "*) out="$out $s" ;;
		esac
	done
	echo "${out# }"
}

# lh_enable_needs SWITCH - lh_err unless every switch SWITCH needs goes on
lh_enable_needs()
{
	local s
	for s in $(lh_needs_all "$1"); do
		lh_expect_write_ok "$LH_DIR/enable/$s" 1
	done
}

# lh_count WORD.. - print how many words there are
lh_count()
{
	echo $#
}

# lh_reverse WORD.. - print the words in reverse order
lh_reverse()
{
	local out w
	out=
	for w in "$@"; do
		out="$w $out"
	done
	echo "${out% }"
}

# lh_unload - unload the module
lh_unload()
{
	if [ -n "${LH_MODULE:-}" ]; then
		rmmod "$LH_NAME" || return 1
	else
		modprobe -r "$LH_NAME" || return 1
	fi
	LH_LOADED_BY_US=
	! lh_loaded
}

# lh_load_or_bail - load the module; a failure ends the test
lh_load_or_bail()
{
	lh_load "$@" || lh_bail "cannot load $LH_NAME $* (or $LH_DIR missing)"
}

# lh_unload_or_bail - unload the module; a failure ends the test
lh_unload_or_bail()
{
	lh_unload || lh_bail "cannot unload $LH_NAME"
}

# ---------------------------------------------------------------- files

# lh_quick SHORT LONG - print SHORT with LH_QUICK=1 (shorter workloads), else LONG
lh_quick()
{
	if [ -n "${LH_QUICK:-}" ] && [ "$LH_QUICK" != 0 ]; then
		echo "$1"
	else
		echo "$2"
	fi
}

# lh_sleep_s SECONDS - sleep, also where sleep takes whole seconds only
lh_sleep_s()
{
	sleep "$1" 2>/dev/null || sleep 1
}

# lh_in_range VALUE LO HI - true if LO <= VALUE <= HI (integers)
lh_in_range()
{
	[ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ] 2>/dev/null
}

# lh_possible_cpus - print every possible CPU number, one a line
lh_possible_cpus()
{
	awk -F, '{
		for (i = 1; i <= NF; i++) {
			n = split($i, r, "-")
			lo = r[1] + 0; hi = (n > 1) ? r[2] + 0 : lo
			for (c = lo; c <= hi; c++)
				print c
		}
	}' /sys/devices/system/cpu/possible
}

# lh_read - print a file's content, exactly (including the final newline)
lh_read()
{
	cat "$1" 2>/dev/null
}

# lh_name PATH - print PATH relative to the debugfs tree or the parameters
lh_name()
{
	local n
	n=${1#"$LH_DIR"/}
	printf '%s\n' "${n#"$LH_SYSMOD"/}"
}

# lh_show FILE - print FILE on one line, newlines as \n, at most 80 bytes
lh_show()
{
	head -c 80 "$1" 2>/dev/null | awk '{ printf "%s\\n", $0 }'
}

# lh_content_is FILE TEXT - true if FILE holds exactly TEXT plus one newline
#
# Builtins only: the first read must end at a newline with TEXT, the second
# must find EOF at once.
lh_content_is()
{
	local first rest
	{
		IFS= read -r first || return 1
		[ "$first" = "$2" ] || return 1
		! IFS= read -r rest && [ -z "$rest" ]
	} <"$1" 2>/dev/null
}

# lh_value FILE - LH_VALUE gets the first line of FILE (builtin read)
lh_value()
{
	LH_VALUE=
	IFS= read -r LH_VALUE <"$1" 2>/dev/null
}

# lh_same_bytes EXPECTED FILE - true if FILE reads exactly as file EXPECTED
#
# debugfs files report st_size 0 and GNU cmp trusts sizes of regular files,
# so FILE is copied before the comparison; the copy stays in $LH_TMP/same.
lh_same_bytes()
{
	cat "$2" >"$LH_TMP/same" 2>/dev/null || return 1
	cmp -s "$1" "$LH_TMP/same"
}

# lh_first_diff EXPECTED - describe where the last lh_same_bytes copy differs
lh_first_diff()
{
	cmp "$1" "$LH_TMP/same" 2>&1 | head -n 1
	diff "$1" "$LH_TMP/same" 2>/dev/null | sed -n '2,5p'
}

# lh_expect_content FILE TEXT - lh_err unless FILE holds exactly "TEXT\n"
lh_expect_content()
{
	if ! lh_content_is "$1" "$2"; then
		lh_err "$(lh_name "$1"): expected '$2\\n', read '$(lh_show "$1")'"
	fi
}

# lh_write FILE DATA [lh_write options...] - one write(2), LH_RESULT gets
# "OK <n>" or the errno name ("EINVAL"); returns 0 only on success
#
# Options go to the C helper: -e (DATA has \n \t \xHH escapes), -o OFFSET.
# Without the helper (not built) the shell writes DATA (printf %b for -e) and
# LH_RESULT is "OK" or "ERR"; other options give LH_RESULT=NOHELPER.
lh_write()
{
	local file data fmt
	file=$1
	data=$2
	shift 2
	if [ -x "$LH_WRITE_BIN" ]; then
		LH_RESULT=$("$LH_WRITE_BIN" "$@" -- "$file" "$data" 2>/dev/null)
		[ "${LH_RESULT%% *}" = OK ]
		return
	fi
	fmt=%s
	case "$*" in
	"") ;;
	-e) fmt=%b ;;
	*)  LH_RESULT=NOHELPER; return 1 ;;
	esac
	# shellcheck disable=SC2059 # the format is %s or %b
	if printf "$fmt" "$data" 2>/dev/null >"$file"; then
		LH_RESULT=OK
		return 0
	fi
	LH_RESULT=ERR
	return 1
}

# lh_have_write_helper - true if exact errnos can be checked
lh_have_write_helper()
{
	[ -x "$LH_WRITE_BIN" ]
}

# lh_expect_write_ok FILE DATA - lh_err unless the write succeeds
lh_expect_write_ok()
{
	lh_write "$1" "$2" ||
		lh_err "$(lh_name "$1"): write '$2' failed: $LH_RESULT"
}

# lh_expect_write_errno FILE DATA ERRNO [lh_write options...] - lh_err unless
# the write fails with ERRNO (without the C helper: unless it fails at all)
lh_expect_write_errno()
{
	local file data errno
	file=$1
	data=$2
	errno=$3
	shift 3
	if lh_write "$file" "$data" "$@"; then
		lh_err "$(lh_name "$file"): write '$data'${*:+ ($*)}: succeeded, expected $errno"
	elif [ "$LH_RESULT" = NOHELPER ]; then
		lh_diag "$(lh_name "$file"): write '$data'${*:+ ($*)}: not tried, lh_write not built"
	elif [ "$LH_RESULT" != ERR ] && [ "$LH_RESULT" != "$errno" ]; then
		lh_err "$(lh_name "$file"): write '$data'${*:+ ($*)}: $LH_RESULT, expected $errno"
	fi
}

# lh_status_line NAME - print the status line of histogram NAME
lh_status_line()
{
	local line
	while IFS= read -r line; do
		case $line in
		"$1 "*) printf '%s\n' "$line"; return ;;
		esac
	done <"$LH_DIR/status"
}

# lh_status_get NAME FIELD - LH_FIELD gets FIELD (available, enabled, bytes)
# of histogram NAME, empty if missing (builtins only)
lh_status_get()
{
	local line
	LH_FIELD=
	while IFS= read -r line; do
		case " $line" in
		" $1 $2="* | " $1 "*" $2="*)
			LH_FIELD=${line#"$1 "*"$2="}
			LH_FIELD=${LH_FIELD%% *}
			return
			;;
		esac
	done <"$LH_DIR/status"
}

# lh_status_field NAME FIELD - print FIELD of histogram NAME
lh_status_field()
{
	lh_status_get "$1" "$2"
	printf '%s\n' "$LH_FIELD"
}

# lh_available NAME - true if status says histogram NAME is available
lh_available()
{
	lh_status_get "$1" available
	[ "$LH_FIELD" = 1 ]
}

# lh_switch_available SWITCH - true if status says SWITCH's histograms are available
lh_switch_available()
{
	local h
	for h in $LH_HISTS; do
		[ "$(lh_switch_of "$h")" = "$1" ] || continue
		lh_available "$h"
		return
	done
	return 1
}

# lh_enable_available - enable every enable switch whose histograms exist,
# in switch-on order (LH_ENABLED gets the ones that went on)
lh_enable_available()
{
	local s
	LH_ENABLED=
	for s in $LH_ENABLES; do
		lh_switch_available "$s" || continue
		lh_write "$LH_DIR/enable/$s" 1 && LH_ENABLED="$LH_ENABLED $s"
	done
}

# lh_disable_all - write 0 to every enable switch that is on, dependents first
lh_disable_all()
{
	local s
	# shellcheck disable=SC2086 # a word list
	for s in $(lh_reverse $LH_ENABLES); do
		lh_value "$LH_DIR/enable/$s"
		[ "$LH_VALUE" = 0 ] || lh_write "$LH_DIR/enable/$s" 0
	done
}

# lh_enable SWITCH... - lh_err unless each named enable switch goes on
lh_enable()
{
	local s
	for s in "$@"; do
		lh_expect_write_ok "$LH_DIR/enable/$s" 1
	done
}

# lh_reset HIST... - lh_err unless each named histogram resets
# (wakeup/sharedprio etc.)
lh_reset()
{
	local h
	for h in "$@"; do
		lh_expect_write_ok "$LH_DIR/$h/reset" 1
	done
}

# lh_filter HIST TID - lh_err unless HIST/pid (wakeup or
# missed_timer_offsets) takes TID
lh_filter()
{
	lh_expect_write_ok "$LH_DIR/$1/pid" "$2"
}

# lh_activity - cause wakeups and hrtimer expiries for a moment (~0.2 s)
#
# rt_sleeper (when built) adds SCHED_FIFO wakeups, two threads due at the
# same instants, which the wakeup and sharedprio histograms need.
lh_activity()
{
	if [ -x "$LH_BINDIR/rt_sleeper" ]; then
		"$LH_BINDIR/rt_sleeper" -p 80 -n 2 -i 2000 -l 25 -q >/dev/null 2>&1
	fi
	sleep 0.1 2>/dev/null || usleep 100000
}

# ---------------------------------------------------------------- dmesg

# lh_mark TEXT - put a unique marker line into the kernel log; LH_MARK gets it
lh_mark()
{
	LH_MARKNO=$((${LH_MARKNO:-0} + 1))
	LH_MARK="lh-selftest-mark: $* pid=$$ n=$LH_MARKNO"
	printf '%s\n' "$LH_MARK" >/dev/kmsg 2>/dev/null
}

# lh_dmesg_since MARK - print the kernel log after the line holding MARK
lh_dmesg_since()
{
	dmesg 2>/dev/null | awk -v m="$1" 'seen { print } index($0, m) { seen = 1 }'
}

LH_BADNESS='WARNING:|BUG:|Oops|Call Trace:|general protection|UBSAN|KASAN|kernel BUG|list_(add|del) corruption|refcount_t:|stack-protector|detected stall|sleeping function called from invalid context|possible circular locking|Tainted: .*D'

# lh_case_dmesg_clean - test case: no warning/oops in the log since lh_setup
lh_case_dmesg_clean()
{
	local line
	lh_case_begin
	if ! dmesg >/dev/null 2>&1; then
		lh_skip dmesg_clean "dmesg is not readable"
		return
	fi
	lh_dmesg_since "$LH_START_MARK" | grep -E "$LH_BADNESS" >"$LH_TMP/badness"
	if [ -s "$LH_TMP/badness" ]; then
		while IFS= read -r line; do
			lh_err "dmesg: $line"
		done <"$LH_TMP/badness"
	fi
	lh_case_end dmesg_clean
}

# ---------------------------------------------------------------- kernel

# lh_suspend MODE S - suspend the machine, to RAM (MODE deep) or to idle
# (s2idle), for about S s, and return once it runs again; false, with an
# lh_err, if it did not suspend. LH_SUSPEND_S gets the seconds it was
# away by the wall clock. Needs suspend-wake: on a rig the RTC alarm wakes
# it (rtcwake -m mem); in a qemu guest of vm-run.sh --s3 the host does,
# asked by the LH-VM-WAKE line (vm-run.sh, wake_guest), S s after it:
# through qemu's wakeup from S3, or from s2idle with the ACPI power button,
# whose driver this loads where it is a module.
lh_suspend()
{
	local n0 n1 t0 rc

	n0=$(cat /sys/power/suspend_stats/success)
	echo "$1" >/sys/power/mem_sleep 2>/dev/null ||
		{ lh_err "cannot choose $1 in /sys/power/mem_sleep ($(cat /sys/power/mem_sleep))"; return 1; }
	if [ "${LH_VM_WAKE:-}" = 1 ] && [ "$1" = s2idle ] && [ ! -d /sys/module/button ] &&
		! modprobe -q button; then
		lh_err "no ACPI button driver: nothing would wake the guest from s2idle"
		return 1
	fi
	t0=$(date +%s)
	if [ "${LH_VM_WAKE:-}" = 1 ]; then
		lh_diag "LH-VM-WAKE mode=$1 after=$2"
		rc=0
		# shellcheck disable=SC2320 # echo's status is the write's
		echo mem 2>"$LH_TMP/suspend" >/sys/power/state || rc=$?
		lh_diag "LH-VM-WOKE"
	else
		rtcwake -m mem -s "$2" >"$LH_TMP/suspend" 2>&1
		rc=$?
	fi
	LH_SUSPEND_S=$(($(date +%s) - t0))
	n1=$(cat /sys/power/suspend_stats/success)
	lh_diag "suspended ($1) for $LH_SUSPEND_S s: suspend_stats/success $n0 -> $n1"
	if [ "$rc" != 0 ] || [ "$n1" -le "$n0" ]; then
		lh_err "no suspend to $1 (exit $rc; suspend_stats/success $n0 -> $n1): $(cat "$LH_TMP/suspend")"
		return 1
	fi
}

# lh_tracefs - print the tracefs directory; false if there is none
lh_tracefs()
{
	local dir
	for dir in "$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)" \
		     /sys/kernel/tracing "$LH_DEBUGFS/tracing"; do
		# An unmounted mount point has no events/sched: keep looking.
		# The debugfs "tracing" directory automounts tracefs on access.
		if [ -n "$dir" ] && [ -d "$dir/events/sched" ]; then
			echo "$dir"
			return 0
		fi
	done
	return 1
}

# lh_preemptirq_tracepoints - print "present", "absent" or "unknown": does the
# running kernel have the preemptirq tracepoints (irq_disable/preempt_disable)?
lh_preemptirq_tracepoints()
{
	local dir
	if dir=$(lh_tracefs); then
		if [ -d "$dir/events/preemptirq" ]; then
			echo present
		else
			echo absent
		fi
		return
	fi
	# No tracefs: the tracepoint structures are in kallsyms either way.
	if grep -qE ' __tracepoint_(irq|preempt)_disable$' /proc/kallsyms 2>/dev/null; then
		echo present
	elif grep -q ' __tracepoint_sched_switch$' /proc/kallsyms 2>/dev/null; then
		echo absent
	else
		echo unknown
	fi
}
