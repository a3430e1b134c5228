/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - the result lines of the host unit tests (ktap.c): one KTAP
 * stream for every test file, closed by the plan and the kselftest
 * "# Totals:" line that scripts/run-tests.sh reads.
 */
#ifndef LH_UNIT_KTAP_H
#define LH_UNIT_KTAP_H

void check(int ok, const char *what);

void test_hist_run(void);
void test_explain_run(void);

#endif /* LH_UNIT_KTAP_H */
