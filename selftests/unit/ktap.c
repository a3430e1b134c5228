// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c - the host unit tests' main: runs every test file's tests in one
 * KTAP stream, closing with the plan and the kselftest "# Totals:" line;
 * exits non-zero on any failure.
 */
#include <stdio.h>

#include <linux/types.h>

#include "ktap.h"

void (*lh_shim_read_hook)(const void *addr);

static int nr_passed, nr_failed, nr_test;

/* check - one KTAP result line */
void check(int ok, const char *what)
{
	nr_test++;
	printf("%sok %d %s\n", ok ? "" : "not ", nr_test, what);
	if (ok)
		nr_passed++;
	else
		nr_failed++;
}

int main(void)
{
	printf("TAP version 13\n");
	test_hist_run();
	test_explain_run();
	printf("1..%d\n", nr_test);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n",
	       nr_passed, nr_failed);
	return nr_failed ? 1 : 0;
}
