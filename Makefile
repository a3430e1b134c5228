# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of latency_hist.ko.
#
#   make                      build for the running kernel
#   make KDIR=<build dir>     build against another kernel tree or header package
#   make install              install into /lib/modules/<release>/updates and run depmod
#   make checkpatch           checkpatch --strict over the module sources (needs CHECKPATCH=)
#   make bench                the benchmark in qemu guests (scripts/bench.sh; BENCH_ARGS=...)
#   make validate             cross-checks against cyclictest and hist triggers in qemu guests
#                             (scripts/validate.sh; VALIDATE_ARGS=--kernels "...")
#   make stress               the long stress and fault suite in 4-CPU qemu guests
#                             (scripts/stress.sh; STRESS_ARGS="--kernels ... --minutes M")
#
# Kbuild itself reads ./Kbuild, so dkms (which passes KERNELRELEASE= on the
# command line) never confuses this file with the kbuild pass.

KERNELRELEASE ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KERNELRELEASE)/build
FEATURES := include/generated/lh_features.h

all: modules

# The feature header depends on the kernel tree, not on our sources, so it is
# regenerated whenever KDIR changes (the stamp records which tree it was made for).
$(FEATURES): scripts/gen-compat.sh $(wildcard scripts/compat-probes/*.c) FORCE
	@./scripts/gen-compat.sh "$(KDIR)" "$@"

modules: $(FEATURES)
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KERNELRELEASE) 2>/dev/null || true

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf include/generated

CHECKPATCH ?= checkpatch.pl
checkpatch:
	$(CHECKPATCH) --no-tree --strict --show-types -f module/*.c include/latency_hist/*.h

bench:
	./scripts/bench.sh $(BENCH_ARGS)

validate:
	./scripts/validate.sh $(VALIDATE_ARGS)

stress:
	./scripts/stress.sh $(STRESS_ARGS)

.PHONY: all modules install clean checkpatch bench validate stress FORCE
