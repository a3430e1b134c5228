################################################################################
#
# latency-hist
#
################################################################################

# ./VERSION (scripts/set-version.sh writes it here)
LATENCY_HIST_VERSION = 0.1.0
LATENCY_HIST_SITE = https://example.org/latency-hist/releases
LATENCY_HIST_LICENSE = GPL-2.0
LATENCY_HIST_LICENSE_FILES = COPYING

# The kernel-module infrastructure runs kbuild directly:
#   $(MAKE) -C $(LINUX_DIR) $(LINUX_MAKE_FLAGS) PWD=$(@D) M=$(@D) modules
# and the same with modules_install. ./Kbuild generates the feature header
# itself, so nothing else is needed for the module.

# What the module needs of the kernel (dkms.conf's BUILD_EXCLUSIVE_CONFIG
# and selftests/config): the tracepoints it hooks (TRACEPOINTS is not
# user-visible; FTRACE and the default tracers' TRACING select it), debugfs,
# where its files are, high-resolution timers, and modules at all.
define LATENCY_HIST_LINUX_CONFIG_FIXUPS
	$(call KCONFIG_ENABLE_OPT,CONFIG_MODULES)
	$(call KCONFIG_ENABLE_OPT,CONFIG_MODULE_UNLOAD)
	$(call KCONFIG_ENABLE_OPT,CONFIG_FTRACE)
	$(call KCONFIG_ENABLE_OPT,CONFIG_ENABLE_DEFAULT_TRACERS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_DEBUG_FS)
	$(call KCONFIG_ENABLE_OPT,CONFIG_HIGH_RES_TIMERS)
endef

define LATENCY_HIST_INSTALL_TARGET_CMDS
	$(INSTALL) -D -m 0755 $(@D)/scripts/lh $(TARGET_DIR)/usr/bin/lh
endef

$(eval $(kernel-module))
$(eval $(generic-package))
