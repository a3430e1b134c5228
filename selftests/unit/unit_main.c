// SPDX-License-Identifier: GPL-2.0
/*
 * unit_main.c - the main of the histogram, explain and line statistics unit tests: every
 * test file's tests in one KTAP stream (ktap.c); exits non-zero on any
 * failure.
 */
#include <linux/types.h>

#include "ktap.h"

void (*lh_shim_read_hook)(const void *addr);

int main(void)
{
	ktap_begin();
	test_hist_run();
	test_explain_run();
	test_line_stats_run();
	return ktap_end();
}
