// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c - the result lines of the host unit tests, shared by both of their
 * programs: one KTAP line per check, then the plan and the kselftest
 * "# Totals:" line.
 */
#include <stdio.h>

#include "ktap.h"

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

/* ktap_begin - the KTAP version line, before the first check */
void ktap_begin(void)
{
	printf("TAP version 13\n");
}

/* ktap_end - the plan and the totals; the exit status, non-zero on a failure */
int ktap_end(void)
{
	printf("1..%d\n", nr_test);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:0 error:0\n",
	       nr_passed, nr_failed);
	return nr_failed ? 1 : 0;
}
