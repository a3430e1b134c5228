/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LH_SHIM_KALLSYMS_H
#define LH_SHIM_KALLSYMS_H

#define KSYM_SYMBOL_LEN		700

/*
 * As the kernel's: "name" or "name [module]" of the symbol at @address,
 * else "0x<address>"; the tests define it over a table of their own.
 */
int sprint_symbol_no_offset(char *buffer, unsigned long address);
#endif
