#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2119,SC2015,SC2086 # lh_load_or_bail takes optional parameters; A && B || C reports; word lists
#
# wakeup_comm.sh - a max record prints the comm bytes of the task as the
# kernel holds them, whatever the signedness of char: bytes from 0x80 up as
# they are, ASCII control bytes (below 0x20, and 0x7f) as '?'
#
# Proves (Documentation/latency_hist.rst, "max_latency-CPUx"): an RT sleeper
# started through a link named "lh_" + UTF-8 e-acute (0xc3 0xa9) + 0xff +
# 0x01 + 0x7f + "x" (so that is its comm, as /proc/<tid>/comm shows) and
# followed by the wakeup pid filter leaves a wakeup/max_latency-CPU1 record
# whose victim comm is "lh_" 0xc3 0xa9 0xff "??x". char is unsigned on arm64
# and signed on x86 up to 6.1 (kbuild passes -funsigned-char everywhere since
# 6.2): a comparison of plain char bytes against 0x20 masks the bytes from
# 0x80 up on one and not on the other, so the same expected bytes on arm64
# and on 6.1 x86 in the matrix catch that difference.
#
# requires: rt_sleeper cpu1

LH_TESTDIR=$(cd "$(dirname "$0")" && pwd)
. "$LH_TESTDIR/lib.sh"
. "$LH_TESTDIR/hist_lib.sh"
. "$LH_TESTDIR/sleeper_lib.sh"

L=20		# loops
PERIOD=10000	# us
PRIO=71

sl_setup
lh_plan 4
lh_load_or_bail

name=lh_$(printf '\303\251\377\001\177')x
want="lh_$(printf '\303\251\377')??x"
link=$LH_TMP/$name
ln -s "$LH_BINDIR/rt_sleeper" "$link" || lh_bail "cannot create the link $link"

lh_case_begin
lh_enable wakeup
if ! sl_start_bin "$link" "$LH_TMP/sl" -c 1 -p $PRIO -i $PERIOD -l $L; then
	lh_bail "rt_sleeper did not start through the link"
fi
tid=$SL_TID
# the task's comm as the kernel holds it (the name, 15 bytes at most)
IFS= read -r comm < "/proc/$SL_PID/task/$tid/comm"
[ "$comm" = "$name" ] ||
	lh_err "/proc/$SL_PID/task/$tid/comm is '$comm', not the link's name: the test set-up did not work"
lh_filter wakeup "$tid"
lh_reset wakeup wakeup/sharedprio
sl_go
sl_wait
lh_expect_write_ok "$LH_DIR/enable/wakeup" 0
lh_case_end the_sleeper_runs_with_bytes_from_0x80_up_and_control_bytes_in_its_comm

lh_case_begin
if ! hl_maxrec wakeup 1; then
	lh_err "wakeup/max_latency-CPU1 malformed: '$MR_LINE'"
elif [ -n "$MR_NONE" ]; then
	lh_err "wakeup/max_latency-CPU1 is (none) after $L wakeups of tid $tid"
elif [ "$MR_VPID" != "$tid" ]; then
	lh_err "max record victim pid $MR_VPID, expected $tid"
elif [ "$MR_VCOMM" != "$want" ]; then
	lh_err "max record victim comm bytes: $(printf '%s' "$MR_VCOMM" | od -An -tx1)"
	lh_err "expected:                     $(printf '%s' "$want" | od -An -tx1)"
fi
lh_case_end max_record_prints_bytes_from_0x80_up_as_they_are_and_control_bytes_as_question_marks

hl_finish_checked 0
