# SPDX-License-Identifier: GPL-2.0
SUMMARY = "PREEMPT_RT latency histograms as a kernel module, and the lh tool"
DESCRIPTION = "latency_hist.ko brings back the PREEMPT_RT patch's latency \
histograms (wakeup, missed timer offsets, switch time, irqs-off/preempt-off) \
as an out-of-tree module for kernels 5.10 and later; lh reads them."
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://module/main.c;beginline=1;endline=1;md5=50d2ba0afecd20f74c12a4bdbcfcfe61"

# Set SRC_URI and SRCREV to where your copy of latency-hist lives.
SRC_URI = "git://example.org/latency-hist.git;protocol=https;branch=main"
SRCREV = "${AUTOREV}"
PV = "0.1.0+git${SRCPV}"
S = "${WORKDIR}/git"

# module.bbclass runs the top-level Makefile, a thin wrapper around kbuild:
#   make KERNEL_SRC=<kernel source> O=<kernel build dir> KERNEL_PATH=... CC=... LD=...
#   make DEPMOD=echo MODLIB=${D}/lib/modules/<release> O=... modules_install
# Kbuild generates the feature header itself; no file needs an exec bit.
inherit module

RPROVIDES:${PN} += "kernel-module-latency-hist"

# lh, the tool (POSIX sh and awk; busybox is enough).
PACKAGES =+ "${PN}-tools"
RDEPENDS:${PN}-tools = "busybox"
FILES:${PN}-tools = "${bindir}/lh"

do_install:append() {
	install -D -m 0755 ${S}/scripts/lh ${D}${bindir}/lh
}
