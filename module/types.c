// SPDX-License-Identifier: GPL-2.0
/*
 * types.c - the tables of include/latency_hist/types.h, one entry per row of
 * its lists; nothing here is written after load.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include <latency_hist/control.h>
#include <latency_hist/types.h>

#define LH_PID			true
#define LH_NO_PID		false

const struct lh_switch lh_switches[LH_NR_SWITCHES] = {
#define LH_SWITCH(ID, sw_name, pid, sw_needs, sw_ops, sw_clock)		\
	[LH_SW_##ID] = {						\
		.name = #sw_name, .has_pid = pid, .needs = sw_needs,	\
		.ops = sw_ops, .clock = sw_clock,			\
	},
#include <latency_hist/type_list.h>
};

const struct lh_hist_type lh_hist_types[LH_NR_HISTS] = {
#define LH_HIST(ID, hist_name, hist_param, hist_parent, hist_sw,	\
		hist_flags, hist_window)				\
	[LH_HIST_##ID] = {						\
		.name = hist_name, .param = #hist_param,		\
		.parent = LH_HIST_##hist_parent, .sw = LH_SW_##hist_sw,	\
		.flags = hist_flags, .window = hist_window,		\
	},
#include <latency_hist/type_list.h>
};

/**
 * lh_types_check() - refuse tables whose order breaks the rules of types.h
 *
 * A switch may only need switches listed before it and a histogram's
 * parent must come before it (enable, replay and tree creation go in list
 * order, disable and unload in reverse); a name must fit the trace events'
 * type_name field.
 *
 * Context: module init.
 * Return: 0, or -EINVAL (with a warning) for a table a later change broke.
 */
int lh_types_check(void)
{
	int sw, id;

	for (sw = 0; sw < LH_NR_SWITCHES; sw++) {
		if (WARN_ON_ONCE(lh_switches[sw].needs & ~(BIT(sw) - 1)))
			return -EINVAL;
	}
	for (id = 0; id < LH_NR_HISTS; id++) {
		if (WARN_ON_ONCE((lh_hist_types[id].parent != LH_HIST_ROOT &&
				  lh_hist_types[id].parent >= id) ||
				 strlen(lh_hist_types[id].name) >=
				 LH_TYPE_NAME_MAX))
			return -EINVAL;
	}
	return 0;
}
