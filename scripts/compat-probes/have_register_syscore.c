// SPDX-License-Identifier: GPL-2.0
/*
 * Compiles only when register_syscore() takes a struct syscore whose const
 * ops' callbacks take a data pointer (6.19, and Debian's 6.12.117); older
 * kernels register the struct syscore_ops itself, callbacks without one.
 */
#include <linux/syscore_ops.h>

static void lh_probe_resume(void *data)
{
}

static const struct syscore_ops lh_probe_ops = {
	.resume = lh_probe_resume,
};

static struct syscore lh_probe_syscore = {
	.ops = &lh_probe_ops,
};

void lh_probe_register_syscore(void)
{
	register_syscore(&lh_probe_syscore);
}
