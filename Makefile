# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of latency_hist.ko: a thin wrapper around kbuild, which does
# all the work from ./Kbuild (feature header included). These two are the same:
#
#   make KDIR=<build dir>          make -C <build dir> M=$PWD modules
#
#   make                      build for the running kernel (KDIR defaults to its build tree)
#   make KDIR=<build dir>     build against another kernel tree or headers package;
#                             O=, ARCH=, CROSS_COMPILE=, W=, C= pass through to kbuild
#   make modules_install      kbuild's, unchanged (Yocto's module.bbclass runs this file with
#                             KERNEL_SRC= O= ... and then modules_install MODLIB= DEPMOD=echo)
#   make install              modules_install into INSTALL_MOD_PATH (or DESTDIR, default /)
#                             lib/modules/<KDIR's release>/updates, then depmod for that release
#   make uninstall            removes what install put there (same KDIR, DESTDIR or
#                             INSTALL_MOD_PATH), then depmod for that release; a DKMS or
#                             package install is the package manager's to remove
#   make sign                 build, then sign latency_hist.ko for a kernel that enforces module
#                             signatures (Secure Boot, lockdown, module.sig_enforce=1): with
#                             DKMS's key, the one a rig enrols with mokutil, unless
#                             SIGN_KEY= SIGN_CERT= name another; KDIR's scripts/sign-file
#                             (SIGN_FILE=) and its CONFIG_MODULE_SIG_HASH; then make install
#   make clean
#   make lh                   scripts/lh, the one file rigs copy, from its sources in scripts/lh.d/,
#                             and its bash completion (contrib/bash-completion/lh)
#                             (committed both: a host test fails when they differ)
#   make checkpatch           checkpatch --strict over the module sources (needs CHECKPATCH=)
#   make bench                lh's read cost on the host (scripts/bench-read.sh), then the
#                             benchmark in qemu guests (scripts/bench.sh; BENCH_ARGS=...)
#   make bench-read           the first alone
#   make validate             cross-checks against cyclictest and hist triggers in qemu guests
#                             (scripts/validate.sh; VALIDATE_ARGS=--kernels "...")
#   make stress               the long stress and fault suite in 4-CPU qemu guests
#                             (scripts/stress.sh; STRESS_ARGS="--kernels ... --minutes M")
#
# Kbuild itself reads ./Kbuild, so dkms (which passes KERNELRELEASE= on the
# command line) never confuses this file with the kbuild pass.

# KERNEL_SRC is what Yocto's module.bbclass passes (with O= the kernel's build
# directory, which passes on to kbuild like every command-line variable).
ifneq ($(KERNEL_SRC),)
KDIR ?= $(KERNEL_SRC)
endif
KDIR ?= /lib/modules/$(shell uname -r)/build
INSTALL_MOD_DIR ?= updates
DEPMOD ?= depmod
# DESTDIR (the packagers' staging root) prefixes kbuild's INSTALL_MOD_PATH.
lh-mod-path = $(DESTDIR)$(INSTALL_MOD_PATH)
KBUILD := $(MAKE) -C $(KDIR) M=$(CURDIR)

all: modules

modules:
	$(KBUILD) modules

# kbuild's modules_install as it is (module.bbclass: MODLIB=, DEPMOD=echo).
modules_install:
	$(KBUILD) modules_install

# The release is KDIR's (the kernel the module is for; with O= its build
# directory's), never the build host's: the one the kernel reports in uname -r,
# UTS_RELEASE. Not include/config/kernel.release, which a Debian headers tree
# leaves at the upstream version (6.1.192) while .kernelvariables overrides
# KERNELRELEASE (6.1.0-57-amd64) for kbuild's modules_install.
lh-release-file = $(or $(O),$(KDIR))/include/generated/utsrelease.h
lh-release = krel=$$(sed -n 's/^\#define UTS_RELEASE "\(.*\)"$$/\1/p' "$(lh-release-file)" 2>/dev/null) && \
	[ -n "$$krel" ] || \
	{ echo "$@: cannot read the release of $(KDIR) ($(lh-release-file))" >&2; exit 1; }
lh-depmod = echo "  DEPMOD  $$krel$(if $(lh-mod-path), in $(lh-mod-path))"; \
	$(DEPMOD) $(if $(lh-mod-path),-b "$(lh-mod-path)") -a "$$krel" || \
		{ echo "$@: $(DEPMOD) failed for $$krel" >&2; exit 1; }
install: modules
	$(KBUILD) INSTALL_MOD_PATH=$(lh-mod-path) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	@$(lh-release); $(lh-depmod)

# The module as install put it (kbuild may have compressed it: .ko.xz, .ko.zst, ...); an
# install that left nothing is an error, so a wrong KDIR or DESTDIR is not taken for success.
uninstall:
	@$(lh-release); \
	dir="$(lh-mod-path)/lib/modules/$$krel/$(INSTALL_MOD_DIR)"; \
	set -- "$$dir"/latency_hist.ko*; [ -e "$$1" ] || \
		{ echo "uninstall: no latency_hist.ko in $$dir" >&2; exit 1; }; \
	echo "  RM      $$*"; rm -f "$$@"; rmdir "$$dir" 2>/dev/null || :; \
	$(lh-depmod)

# The key Debian's and Ubuntu's dkms sign with when the rig has no other (dkms makes it at its first
# build; framework.conf's mok_signing_key and mok_certificate), so that one enrolled key covers the
# DKMS builds and the hand builds. Nothing is built or signed when a piece is missing. A module signed
# before (another key) is linked again from its objects first: sign-file appends, never replaces.
SIGN_KEY ?= /var/lib/dkms/mok.key
SIGN_CERT ?= /var/lib/dkms/mok.pub
SIGN_FILE ?= $(KDIR)/scripts/sign-file
lh-config = $(or $(O),$(KDIR))/.config
sign:
	@[ -x "$(SIGN_FILE)" ] || { echo "sign: no sign-file at $(SIGN_FILE): install the kernel's headers (they carry scripts/sign-file) or set SIGN_FILE=" >&2; exit 1; }; \
	[ -r "$(SIGN_KEY)" ] || { echo "sign: cannot read the private key $(SIGN_KEY): run as root, or set SIGN_KEY= and SIGN_CERT= (a key the kernel trusts: README.md, \"Secure Boot and signed modules\")" >&2; exit 1; }; \
	[ -r "$(SIGN_CERT)" ] || { echo "sign: cannot read the certificate $(SIGN_CERT) of $(SIGN_KEY): set SIGN_CERT=" >&2; exit 1; }; \
	grep -q '^CONFIG_MODULE_SIG=y' "$(lh-config)" 2>/dev/null || \
		echo "sign: $(lh-config) has no CONFIG_MODULE_SIG=y: that kernel does not check signatures; signing anyway" >&2
	@if [ "$$(tail -c 28 latency_hist.ko 2>/dev/null)" = "~Module signature appended~" ]; then rm -f latency_hist.ko; fi
	$(KBUILD) modules
	@hash=$$(sed -n 's/^CONFIG_MODULE_SIG_HASH="\(.*\)"$$/\1/p' "$(lh-config)" 2>/dev/null); \
	echo "  SIGN    latency_hist.ko ($${hash:-sha512}, $(SIGN_CERT))"; \
	"$(SIGN_FILE)" "$${hash:-sha512}" "$(SIGN_KEY)" "$(SIGN_CERT)" latency_hist.ko || \
		{ echo "sign: $(SIGN_FILE) failed" >&2; exit 1; }

clean:
	$(KBUILD) clean

CHECKPATCH ?= checkpatch.pl
checkpatch:
	$(CHECKPATCH) --no-tree --strict --show-types -f module/*.c include/latency_hist/*.h

bench: bench-read
	bash scripts/bench.sh $(BENCH_ARGS)

bench-read:
	sh scripts/bench-read.sh

validate:
	bash scripts/validate.sh $(VALIDATE_ARGS)

stress:
	bash scripts/stress.sh $(STRESS_ARGS)

# Through a temporary file: a source the assembly refuses leaves scripts/lh as it was. The bash
# completion is made from lh's table of options (scripts/gen-completion.sh), so it follows.
lh:
	sh scripts/lh.d/assemble.sh > scripts/lh.tmp || { rm -f scripts/lh.tmp; exit 1; }
	chmod 755 scripts/lh.tmp
	mv scripts/lh.tmp scripts/lh
	sh scripts/gen-completion.sh scripts/lh > contrib/bash-completion/lh.tmp || \
		{ rm -f contrib/bash-completion/lh.tmp; exit 1; }
	mv contrib/bash-completion/lh.tmp contrib/bash-completion/lh

.PHONY: all modules modules_install install uninstall sign clean checkpatch bench bench-read validate stress lh
