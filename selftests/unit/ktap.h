/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - the result lines of the host unit tests (ktap.c): one KTAP
 * stream per program, closed by the plan and the kselftest "# Totals:"
 * line that scripts/run-tests.sh reads; and the test files of the
 * histogram and explain program (unit_main.c).
 */
#ifndef LH_UNIT_KTAP_H
#define LH_UNIT_KTAP_H

void ktap_begin(void);
void check(int ok, const char *what);
int ktap_end(void);

void test_hist_run(void);
void test_explain_run(void);
void test_line_stats_run(void);

#endif /* LH_UNIT_KTAP_H */
