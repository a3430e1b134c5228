################################################################################
#
# latency-hist
#
################################################################################

LATENCY_HIST_VERSION = 0.1.0
LATENCY_HIST_SITE = https://example.org/latency-hist/releases
LATENCY_HIST_LICENSE = GPL-2.0
LATENCY_HIST_LICENSE_FILES = debian/copyright

# The kernel-module infrastructure runs kbuild directly:
#   $(MAKE) -C $(LINUX_DIR) $(LINUX_MAKE_FLAGS) PWD=$(@D) M=$(@D) modules
# and the same with modules_install. ./Kbuild generates the feature header
# itself, so nothing else is needed for the module.

define LATENCY_HIST_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/scripts/lh $(TARGET_DIR)/usr/bin/lh
endef

$(eval $(kernel-module))
$(eval $(generic-package))
