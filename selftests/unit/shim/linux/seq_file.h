/* SPDX-License-Identifier: GPL-2.0 */
/* A seq_file that appends to a growing buffer, for checking output byte by byte. */
#ifndef LH_SHIM_SEQ_FILE_H
#define LH_SHIM_SEQ_FILE_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seq_file {
	char *buf;
	size_t len, size;
};

static inline void seq_reserve(struct seq_file *m, size_t more)
{
	if (m->len + more + 1 > m->size) {
		m->size = (m->len + more + 1) * 2;
		m->buf = realloc(m->buf, m->size);
		if (!m->buf)
			abort();
	}
}

__attribute__((format(printf, 2, 3)))
static inline void seq_printf(struct seq_file *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	seq_reserve(m, n);
	va_start(ap, fmt);
	vsnprintf(m->buf + m->len, n + 1, fmt, ap);
	va_end(ap);
	m->len += n;
}

static inline void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

static inline void seq_putc(struct seq_file *m, char c)
{
	seq_printf(m, "%c", c);
}
#endif
