# SPDX-License-Identifier: GPL-2.0
#
# 00-head.sh - the head of scripts/lh: the shebang, the header a reader of the one
# file sees (what lh is, its environment, its exit status), lh's version and the
# settings every command shares. A part of scripts/lh: see assemble.sh.

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lh - answers from latency_hist's files: status, controls, percentiles, JSON,
# snapshots with pass/fail gates, plots and Prometheus metrics, long-term
# monitoring (lh monitor, report, plot --over-time) and the outlier logs
# (lh outliers).
#
# The module writes plain text files under /sys/kernel/debug/latency_hist/;
# lh turns them into the answers an RT engineer or a fleet's CI wants, one
# command each. It is POSIX sh plus awk and the tools busybox has (cat, date,
# mkdir, sort, uname), so it runs on a rig with nothing but busybox. gnuplot
# is needed for `lh plot` only.
#
# Usage: lh COMMAND [ARGS]     (lh help: the list; Documentation/lh.rst: all)
#
# This file is assembled by `make lh` from its sources in scripts/lh.d/:
# change them, not it (Documentation/testing.rst, "The sources of lh").
#
# Environment:
#   LH_DEBUGFS     where debugfs is mounted (default /sys/kernel/debug)
#   LH_ROOT        the tree to read (default $LH_DEBUGFS/latency_hist);
#                  a snapshot's DIR/latency_hist works for every reading command
#   LH_SYSMODULE   the module's sysfs directory, for its version
#                  (default /sys/module/latency_hist; beside it,
#                  module/parameters/sig_enforce)
#   LH_SECURITYFS  where securityfs is mounted, for the lockdown level
#                  (default /sys/kernel/security)
#   LH_PROGRESS_S  `lh run` progress interval in seconds (default 10, 0 = off)
#   LH_MONITOR_RUNDIR  where `lh monitor` keeps the rows of its last read, in
#                  RAM (default /dev/shm)
#
# Exit status: 0 success, 1 a --fail-if gate tripped (compare), 2 bad input or
# unreadable/malformed files (nothing was changed), 3 the module's tree cannot
# be reached (module not loaded, debugfs not mounted, not root), else the
# status of the command `lh run` ran.
#
# The files are read as the module writes them (Documentation/latency_hist.rst,
# "File formats"): a file that does not have that shape is an error naming the
# file and line, never a silently wrong number. Counts are exact up to 2^53.

LH_VERSION=0.1.0
LH_JSON_SCHEMA_VERSION=1
LH_SNAPSHOT_VERSION=1
LH_DEBUGFS=${LH_DEBUGFS:-/sys/kernel/debug}
LH_ROOT=${LH_ROOT:-$LH_DEBUGFS/latency_hist}
LH_SYSMODULE=${LH_SYSMODULE:-/sys/module/latency_hist}
LH_SECURITYFS=${LH_SECURITYFS:-/sys/kernel/security}
LH_PROGRESS_S=${LH_PROGRESS_S:-10}

# The vocabulary is the module's, read from the tree's status file by
# load_types (need_tree): the histograms in status order, the enable
# switches in an order they can be switched on, the types with a pid filter.
LH_HISTS=
LH_SWITCHES=
LH_PID_SWITCHES=
LH_TYPE_ROWS=
# The largest CPU number an option takes (CONFIG_NR_CPUS is at most 8192).
LH_MAX_CPU=8191
# Prometheus bucket bounds (le), in microseconds, up to the end of the
# histogram's range; the last bucket is +Inf. --buckets replaces them.
LH_PROM_BOUNDS="1 2 5 10 20 50 100 200 500 1000 2000 5000 10000 10240"
# 1: the exposition has a host label (--host-label; the tree's host).
LH_PROM_HOST=
# The last of those options given (prom_opt).
PO_OPT=

# Byte-wise text handling in awk and sort, whatever the locale.
LC_ALL=C
export LC_ALL
LH_NL='
'

