# SPDX-License-Identifier: GPL-2.0
SUMMARY = "PREEMPT_RT latency histograms as a kernel module, and the lh tool"
DESCRIPTION = "latency_hist.ko brings back the PREEMPT_RT patch's latency \
histograms (wakeup, missed timer offsets, switch time, irqs-off/preempt-off) \
as an out-of-tree module for kernels 5.10 and later; lh reads them."
LICENSE = "GPL-2.0-only"
LIC_FILES_CHKSUM = "file://COPYING;md5=b234ee4d69f5fce4486a80fdaf4a4263"

# A release, pinned as openembedded-core's rt-tests.inc pins its own: the tag in SRC_URI and the
# commit it names in SRCREV (the fetcher checks that they agree). PV is ./VERSION
# (scripts/set-version.sh writes it). Point SRC_URI at your copy of latency-hist and SRCREV at the
# commit its tag v${PV} names.
SRC_URI = "git://example.org/latency-hist.git;protocol=https;branch=main;tag=v${PV}"
SRCREV = "acf4d855f65b7c8f40b1d4db7bb5684a7dd2b00c"
PV = "0.1.0"
# No S: openembedded-core since mid-2025 unpacks git into ${UNPACKDIR}/${BP}, S's default, and
# refuses S = "${WORKDIR}/git". On older releases (scarthgap, kirkstone) add that line.

# module.bbclass runs the top-level Makefile, a thin wrapper around kbuild:
#   make KERNEL_SRC=<kernel source> O=<kernel build dir> KERNEL_PATH=... CC=... LD=...
#   make DEPMOD=echo MODLIB=${D}/lib/modules/<release> O=... modules_install
# Kbuild generates the feature header itself; no file needs an exec bit. The man pages are made
# from Documentation/*.rst with rst2man, as the Debian and RPM packages make them.
inherit module systemd
DEPENDS += "python3-docutils-native"

RPROVIDES:${PN} += "kernel-module-latency-hist"

# lh, the tool: POSIX sh and awk, which busybox or any other provider gives (no RDEPENDS on one),
# its man pages, bash completion and the lh-monitor service (not enabled: it is opt-in).
PACKAGES =+ "${PN}-tools"
FILES:${PN}-tools = "${bindir}/lh ${mandir}/man1/lh.1* ${mandir}/man7/latency_hist.7* \
	${datadir}/bash-completion/completions/lh ${systemd_system_unitdir}/lh-monitor.service \
	${sysconfdir}/default/lh-monitor"
CONFFILES:${PN}-tools = "${sysconfdir}/default/lh-monitor"
SYSTEMD_PACKAGES = "${PN}-tools"
SYSTEMD_SERVICE:${PN}-tools = "lh-monitor.service"
SYSTEMD_AUTO_ENABLE:${PN}-tools = "disable"

do_compile:append() {
	rst2man=$(command -v rst2man || command -v rst2man.py)
	sh ${S}/scripts/gen-man.sh ${S}/Documentation/lh.rst lh 1 "answers from latency_hist" | \
		$rst2man --halt=warning > ${B}/lh.1
	sh ${S}/scripts/gen-man.sh ${S}/Documentation/latency_hist.rst latency_hist 7 \
		"the PREEMPT_RT patch's latency histograms as a kernel module" | \
		$rst2man --halt=warning > ${B}/latency_hist.7
}

do_install:append() {
	install -D -m 0755 ${S}/scripts/lh ${D}${bindir}/lh
	install -D -m 0644 ${B}/lh.1 ${D}${mandir}/man1/lh.1
	install -D -m 0644 ${B}/latency_hist.7 ${D}${mandir}/man7/latency_hist.7
	install -D -m 0644 ${S}/contrib/bash-completion/lh ${D}${datadir}/bash-completion/completions/lh
	install -D -m 0644 ${S}/contrib/systemd/lh-monitor.service \
		${D}${systemd_system_unitdir}/lh-monitor.service
	install -D -m 0644 ${S}/contrib/systemd/lh-monitor.default ${D}${sysconfdir}/default/lh-monitor
}
