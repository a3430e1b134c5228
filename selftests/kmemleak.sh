#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119 # lh_load takes optional module parameters
#
# kmemleak.sh - load, record, reset and unload leave no leaked memory
#
# Proves, on kernels with CONFIG_DEBUG_KMEMLEAK (and not booted with
# kmemleak=off): after earlier reports are cleared, LH_CYCLES (default 3)
# cycles of load -> enable every available type -> activity (and injected
# sections where lh_load_test and the preemptirq tracepoints exist) -> pid
# filters, resets, status read -> unload, kmemleak finds no new unreferenced
# object. kmemleak reports only objects older than 5 s, so the test waits
# that long before its final scans. Elsewhere it skips.
#
# requires: kmemleak

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak
cycles=${LH_CYCLES:-3}

lh_setup
echo clear >"$KMEMLEAK" 2>/dev/null ||
	lh_skip_all "kmemleak is disabled (kmemleak=off or it turned itself off)"
lh_plan 3

lh_case_begin
i=1
while [ "$i" -le "$cycles" ]; do
	lh_load || { lh_err "cycle $i: load failed"; break; }
	lh_enable_available
	[ -n "$LH_ENABLED" ] || lh_err "cycle $i: nothing could be enabled"
	lh_write "$LH_DIR/wakeup/pid" $$ || lh_err "cycle $i: wakeup/pid refused"
	lh_write "$LH_DIR/wakeup/pid" 0 || lh_err "cycle $i: wakeup/pid refused"
	lh_activity
	if lh_available irqsoff && [ -r "${LH_LOAD_TEST_MODULE:-}" ]; then
		insmod "$LH_LOAD_TEST_MODULE" cpu="$LH_CPU0" delay_us=200 count=20 \
			gap_us=100 trigger=1 || lh_err "cycle $i: lh_load_test failed"
		rmmod lh_load_test || lh_err "cycle $i: cannot unload lh_load_test"
	fi
	cat "$LH_DIR/status" "$LH_DIR/wakeup/CPU$LH_CPU0" >/dev/null
	for r in $(find "$LH_DIR" -name reset); do
		lh_write "$r" 1 || lh_err "cycle $i: $r refused"
	done
	if [ $((i % 2)) -eq 1 ]; then
		lh_disable_all
	fi
	lh_unload || { lh_err "cycle $i: unload failed"; break; }
	i=$((i + 1))
done
lh_case_end load_record_unload_cycles

lh_case_begin
# Two scans 6 s apart: everything the cycles freed is gone, anything they
# leaked is old enough to be reported.
sleep 6
echo scan >"$KMEMLEAK"
echo scan >"$KMEMLEAK"
leaks=$(grep -c '^unreferenced object' "$KMEMLEAK")
if [ "$leaks" -ne 0 ]; then
	lh_err "kmemleak: $leaks unreferenced objects"
	head -n 60 "$KMEMLEAK" | while IFS= read -r l; do lh_diag "$l"; done
fi
lh_case_end no_kmemleak_reports

lh_case_dmesg_clean
lh_finished
