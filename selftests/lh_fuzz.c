// SPDX-License-Identifier: GPL-2.0
/*
 * lh_fuzz - many malformed writes to one control file, and reads at odd
 * offsets and sizes
 *
 * Write mode sends COUNT writes that the file's grammar rejects: random
 * bytes, huge numbers, negatives, signs, blanks, junk after a number, hex,
 * embedded NULs, empty writes, 64 bytes and more, writes at a file offset,
 * and a write whose buffer runs into an unmapped page. Each must fail with
 * EINVAL (EFAULT for the unmapped page), and the witness files (the file
 * itself when it is readable, or what a write to it would change) must read
 * the same afterwards. Inputs are drawn from a seeded generator; one the
 * grammar would accept is discarded, not written, so the oracle is the
 * grammar below and not the module under test.
 *
 * Grammars (the module's documented ones, Documentation/latency_hist.rst):
 *	uint:MAX	decimal digits, at most one trailing '\n', value <= MAX,
 *			shorter than LIMIT bytes
 *	names:A,B,..	one of the names, at most one trailing '\n'
 *	events		event list: anything made only of event-name bytes and
 *			separators may be valid; any other byte makes it invalid
 *
 * Read mode reads each file whole, then at random offsets and sizes with
 * pread() on the same open file, and sequentially with odd sizes, and
 * requires the same bytes every time (the caller keeps the files still).
 *
 * Usage:
 *	lh_fuzz -g GRAMMAR [-n COUNT] [-s SEED] [-l LIMIT] [-d] [-w WITNESS]... FILE
 *	lh_fuzz -r [-s SEED] FILE...
 *
 *	-d	debugfs control rules: a write at a non-zero offset or with an
 *		embedded NUL is refused whatever its text (a sysfs store
 *		ignores the offset and sees the text up to the first NUL)
 *
 * Prints one "# " line per failure and a final "lh_fuzz: ..." line; exits 0
 * when every check held, 1 otherwise, 2 on usage errors.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LH_FUZZ_MAX_WITNESS	16
#define LH_FUZZ_MAX_INPUT	1100		/* bytes of the longest input */
#define LH_FUZZ_FILE_MAX	(4 << 20)	/* bytes of the largest file read */
#define LH_FUZZ_CHECK_EVERY	50		/* writes between witness reads */
#define LH_FUZZ_MAX_REPORTS	10		/* failures printed per file */

enum grammar { G_UINT, G_NAMES, G_EVENTS };

static enum grammar grammar;
static unsigned long long uint_max;
static char *names;			/* "a,b,c" for G_NAMES */
static size_t limit = 64;		/* an input this long is invalid */
static int debugfs_rules;		/* -d: offsets and NULs are refused */
static uint64_t rng_state = 88172645463325252ULL;
static int failures;

/* rng - xorshift64: reproducible from the seed, no libc state */
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* rng_below - a number in 0..n-1 */
static size_t rng_below(size_t n)
{
	return n ? rng() % n : 0;
}

/* fail - report one failure, up to LH_FUZZ_MAX_REPORTS; @buf NULL: no input */
static void fail(const char *file, const char *what, const char *buf,
		 size_t len, off_t at)
{
	size_t i;

	if (++failures > LH_FUZZ_MAX_REPORTS)
		return;
	if (!buf) {
		printf("# %s: %s\n", file, what);
		return;
	}
	printf("# %s: %s; input (%zu bytes at offset %lld): ", file, what, len,
	       (long long)at);
	for (i = 0; i < len && i < 80; i++)
		printf(isprint((unsigned char)buf[i]) && buf[i] != '\\' ?
		       "%c" : "\\x%02x", (unsigned char)buf[i]);
	printf("\n");
}

/* strip_newline - length without one trailing '\n' */
static size_t strip_newline(const char *buf, size_t len)
{
	return len && buf[len - 1] == '\n' ? len - 1 : len;
}

/* uint_valid - the strict unsigned decimal grammar of the controls */
static int uint_valid(const char *buf, size_t len)
{
	unsigned long long val = 0;
	size_t i, n = strip_newline(buf, len);

	if (len >= limit || !n)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned int d = (unsigned char)buf[i] - '0';

		if (d > 9)
			return 0;
		if (val > (~0ULL - d) / 10)
			return 0;	/* overflows 64 bits */
		val = val * 10 + d;
	}
	return val <= uint_max;
}

/* names_valid - exactly one of the names, an optional trailing '\n' */
static int names_valid(const char *buf, size_t len)
{
	size_t n = strip_newline(buf, len);
	const char *p = names;

	if (len >= limit)
		return 0;
	while (*p) {
		size_t l = strcspn(p, ",");

		if (l == n && !memcmp(p, buf, n))
			return 1;
		p += l + (p[l] == ',');
	}
	return 0;
}

/* events_valid - may be a valid event list: only name bytes and separators */
static int events_valid(const char *buf, size_t len)
{
	size_t i;

	if (len >= limit)
		return 0;
	for (i = 0; i < len; i++) {
		unsigned char c = buf[i];

		if (!isalnum(c) && !strchr("_-./:= \t\n,", c))
			return 0;
	}
	return 1;
}

/*
 * maybe_valid - could the grammar accept this write? A sysfs store sees the
 * text up to its first NUL; our debugfs controls refuse an embedded NUL.
 */
static int maybe_valid(const char *buf, size_t len)
{
	if (!debugfs_rules)
		len = strnlen(buf, len);
	else if (memchr(buf, '\0', len))
		return 0;
	switch (grammar) {
	case G_UINT:
		return uint_valid(buf, len);
	case G_NAMES:
		return names_valid(buf, len);
	default:
		return events_valid(buf, len);
	}
}

/* put_digits - append n random digits */
static size_t put_digits(char *buf, size_t at, size_t n)
{
	while (n-- && at < LH_FUZZ_MAX_INPUT)
		buf[at++] = '0' + rng_below(10);
	return at;
}

/* a_valid_value - a value the grammar accepts, for offset writes */
static size_t a_valid_value(char *buf)
{
	size_t n;

	if (grammar == G_NAMES) {
		n = strcspn(names, ",");
		memcpy(buf, names, n);
		return n;
	}
	if (grammar == G_EVENTS) {
		memcpy(buf, "cpu-clock", 9);
		return 9;
	}
	buf[0] = '0';
	return 1;
}

/*
 * gen_input - one candidate input of a random kind; returns its length.
 * *at gets the file offset to write it at (0 mostly).
 */
static size_t gen_input(char *buf, off_t *at)
{
	static const char *const odd[] = {
		"0x10", "0X1", "1e3", "1.0", ".5", "0b1", "1_000", "1,000",
		"1\r\n", "1\n\n", "\n1", "1\t", "\t1", "1 ", " 1", "1 2",
		"--1", "+-1", "-0", "+0", "1-", "\xd9\xa1", "\xef\xbc\x91",
		"inf", "nan", "true", "on", "yes", "all all", "ALL", "Wakeup",
	};
	static const char junk[] = "!\"#$%&'()*;<>?@[\\]^`{|}~\x7f\x01\x1b";
	size_t n = 0, i;

	*at = 0;
	switch (rng_below(12)) {
	case 0:		/* random bytes */
		n = 1 + rng_below(100);
		for (i = 0; i < n; i++)
			buf[i] = rng();
		break;
	case 1:		/* huge numbers */
		n = put_digits(buf, 0, 20 + rng_below(60));
		buf[0] = '1' + rng_below(9);
		break;
	case 2:		/* negatives */
		buf[n++] = '-';
		n = put_digits(buf, n, 1 + rng_below(12));
		break;
	case 3:		/* signs */
		buf[n++] = "+-~"[rng_below(3)];
		buf[n++] = "+- "[rng_below(3)];
		n = put_digits(buf, n, 1 + rng_below(5));
		break;
	case 4:		/* blanks around or inside a number */
		n = put_digits(buf, 0, 1 + rng_below(4));
		memmove(buf + 1, buf, n++);
		buf[0] = " \t\v\f\r"[rng_below(5)];
		if (rng_below(2))
			buf[rng_below(n)] = " \t"[rng_below(2)];
		break;
	case 5:		/* junk after a number */
		n = put_digits(buf, 0, 1 + rng_below(4));
		buf[n++] = junk[rng_below(sizeof(junk) - 1)];
		if (rng_below(2))
			buf[n++] = '\n';
		break;
	case 6:		/* the odd forms above */
		n = strlen(strcpy(buf, odd[rng_below(sizeof(odd) / sizeof(odd[0]))]));
		break;
	case 7:		/* empty */
		break;
	case 8:		/* LIMIT bytes and more: digits, "0..01\n", letters */
		n = limit + rng_below(80);
		memset(buf, "0a "[rng_below(3)], n);
		buf[n - 2] = '1';
		buf[n - 1] = '\n';
		break;
	case 9:		/* embedded NUL */
		n = a_valid_value(buf);
		buf[n++] = '\0';
		n = put_digits(buf, n, 1 + rng_below(3));
		break;
	case 10:	/* at an offset: invalid text, or a valid one with -d */
		n = 1 + rng_below(8);
		for (i = 0; i < n; i++)
			buf[i] = junk[rng_below(sizeof(junk) - 1)];
		*at = 1 + rng_below(100);
		break;
	default:	/* a number with one byte flipped */
		n = put_digits(buf, 0, 1 + rng_below(6));
		buf[rng_below(n)] ^= 1 << rng_below(8);
		break;
	}
	return n;
}

/* read_whole - read an open file from offset 0 into buf; -1 on error */
static ssize_t read_whole(int fd, char *buf, size_t size, size_t chunk)
{
	size_t len = 0;
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	while (len < size) {
		r = read(fd, buf + len, chunk < size - len ? chunk : size - len);
		if (r < 0)
			return -1;
		if (!r)
			break;
		len += r;
	}
	return len;
}

/* slurp - the whole content of a file into a fresh buffer; -1 on error */
static ssize_t slurp(const char *path, char **out)
{
	char *buf = malloc(LH_FUZZ_FILE_MAX);
	ssize_t len = -1;
	int fd;

	*out = buf;
	if (!buf)
		return -1;
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		len = read_whole(fd, buf, LH_FUZZ_FILE_MAX, 65536);
		close(fd);
	}
	return len;
}

struct witness {
	const char *path;
	char *data;
	ssize_t len;
};

static struct witness witness[LH_FUZZ_MAX_WITNESS];
static int nr_witness;

/* witness_changed - 1 if any witness reads differently than at the start */
static int witness_changed(const char **which)
{
	int i, changed = 0;

	for (i = 0; i < nr_witness && !changed; i++) {
		char *now;
		ssize_t len = slurp(witness[i].path, &now);

		changed = len != witness[i].len ||
			  memcmp(now, witness[i].data, len);
		if (changed)
			*which = witness[i].path;
		free(now);
	}
	return changed;
}

/* one_write - open, write at @at, close; returns 0 or the errno */
static int one_write(const char *file, const char *buf, size_t len, off_t at)
{
	int fd = open(file, O_WRONLY), err = 0;
	ssize_t r;

	if (fd < 0)
		return errno;
	r = at ? pwrite(fd, buf, len, at) : write(fd, buf, len);
	if (r < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * unmapped_write - a valid-looking value whose buffer runs off the end of
 * a mapping: the kernel's copy faults part way. Must be EFAULT or EINVAL.
 */
static int unmapped_write(const char *file, int *err)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *buf;

	if (map == MAP_FAILED)
		return -1;
	munmap(map + page, page);
	buf = map + page - 1;
	*buf = '1';
	*err = one_write(file, buf, 8, 0);
	munmap(map, page);
	return 0;
}

/*
 * write_refused_well - the errno an invalid write must fail with: EINVAL,
 * or ESPIPE at an offset of a file that cannot seek. An empty write to a
 * sysfs file returns 0 without reaching the module (sysfs_kf_write), which
 * is no change either.
 */
static int write_refused_well(int err, size_t len, off_t at)
{
	if (!len && !debugfs_rules)
		return !err;
	return err == EINVAL || (at && err == ESPIPE);
}

/* fuzz_writes - COUNT invalid writes to @file; witnesses must not change */
static void fuzz_writes(const char *file, long count)
{
	char buf[LH_FUZZ_MAX_INPUT + 8];
	const char *which = NULL;
	long done = 0, discarded = 0, efault = 0;
	size_t len = 0;
	off_t at = 0;
	int err;

	while (done < count) {
		if (done % 97 == 96) {
			if (unmapped_write(file, &err))
				break;
			if (err != EFAULT && err != EINVAL)
				fail(file, err ? strerror(err) :
				     "accepted a write from an unmapped page", "1", 1, 0);
			efault += err == EFAULT;
			len = 0;
			at = 0;
			done++;
		} else {
			len = gen_input(buf, &at);
			if (at && debugfs_rules && rng_below(2)) {
				len = a_valid_value(buf);	/* refused at an offset */
			} else if (maybe_valid(buf, len)) {
				discarded++;
				continue;
			}
			err = one_write(file, buf, len, at);
			if (!write_refused_well(err, len, at))
				fail(file, err ? strerror(err) :
				     "accepted an invalid write", buf, len, at);
			done++;
		}
		if (done % LH_FUZZ_CHECK_EVERY == 0 || done == count) {
			if (witness_changed(&which)) {
				fail(which, "changed by one of the last writes",
				     buf, len, at);
				break;
			}
		}
	}
	printf("lh_fuzz: %s: %ld invalid writes (%ld EFAULT), %ld valid candidates not sent, %d failures\n",
	       file, done, efault, discarded, failures);
}

/*
 * pread_full - pread() until @size bytes or the end: a seq_file read may
 * return less than asked (what fits its buffer), which is no error
 */
static ssize_t pread_full(int fd, char *buf, size_t size, off_t at)
{
	size_t got = 0;
	ssize_t r;

	while (got < size) {
		r = pread(fd, buf + got, size - got, at + got);
		if (r < 0)
			return r;
		if (!r)
			break;
		got += r;
	}
	return got;
}

/* odd_reads - the file reads the same whole, by pread and by odd chunks */
static void odd_reads(const char *file)
{
	static const size_t chunks[] = { 1, 7, 13, 64, 4093, 4097 };
	char *whole = malloc(LH_FUZZ_FILE_MAX), *part = malloc(LH_FUZZ_FILE_MAX);
	ssize_t len, r;
	size_t i;
	int fd = open(file, O_RDONLY), bad = 0;

	if (fd < 0 || !whole || !part) {
		fail(file, "cannot open or allocate", NULL, 0, 0);
		goto out;
	}
	len = read_whole(fd, whole, LH_FUZZ_FILE_MAX, 65536);
	if (len < 0) {
		fail(file, strerror(errno), NULL, 0, 0);
		goto out;
	}
	for (i = 0; i < 40 && !bad; i++) {
		off_t at = rng_below(len + 16);
		size_t size = 1 + rng_below(i & 1 ? 5000 : 64);

		r = pread_full(fd, part, size, at);
		if (r < 0 || (at >= len && r) ||
		    (at < len && (r != (ssize_t)(size < (size_t)(len - at) ?
						  size : (size_t)(len - at)) ||
				  memcmp(part, whole + at, r)))) {
			bad = 1;
			printf("# %s: pread(%zu bytes at %lld) returned %zd of %zd bytes%s\n",
			       file, size, (long long)at, r, len,
			       at < len && r > 0 && memcmp(part, whole + at, r) ?
			       ", not the same bytes" : "");
		}
	}
	if (bad)
		fail(file, "pread at an odd offset differs from the whole", NULL, 0, 0);
	for (i = 0; i < sizeof(chunks) / sizeof(chunks[0]) && !bad; i++) {
		if (chunks[i] == 1 && len > 65536)
			continue;	/* a byte at a time: small files only */
		r = read_whole(fd, part, LH_FUZZ_FILE_MAX, chunks[i]);
		if (r != len || memcmp(part, whole, len)) {
			bad = 1;
			fail(file, "reading in odd chunks differs from the whole",
			     NULL, 0, 0);
		}
	}
	printf("lh_fuzz: %s: %zd bytes, %s\n", file, len,
	       bad ? "odd reads differ" : "odd reads agree");
out:
	if (fd >= 0)
		close(fd);
	free(whole);
	free(part);
}

/* parse_grammar - set the grammar from its command-line form */
static int parse_grammar(const char *g)
{
	char *end;

	if (!strncmp(g, "uint:", 5)) {
		grammar = G_UINT;
		errno = 0;
		uint_max = strtoull(g + 5, &end, 10);
		return errno || *end || end == g + 5;
	}
	if (!strncmp(g, "names:", 6) && g[6]) {
		grammar = G_NAMES;
		names = strdup(g + 6);
		return !names;
	}
	if (!strcmp(g, "events")) {
		grammar = G_EVENTS;
		return 0;
	}
	return 1;
}

/* usage - print the synopsis and exit 2 */
static void usage(void)
{
	fprintf(stderr,
		"usage: lh_fuzz -g uint:MAX|names:A,B|events [-n COUNT] [-s SEED] [-l LIMIT] [-d] [-w WITNESS]... FILE\n"
		"       lh_fuzz -r [-s SEED] FILE...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long count = 1000;
	int opt, reads = 0, have_grammar = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((opt = getopt(argc, argv, "g:n:s:l:dw:r")) != -1) {
		switch (opt) {
		case 'g':
			if (parse_grammar(optarg))
				usage();
			have_grammar = 1;
			break;
		case 'n':
			count = strtol(optarg, NULL, 10);
			break;
		case 's':
			rng_state ^= strtoull(optarg, NULL, 10) * 0x9e3779b97f4a7c15ULL;
			if (!rng_state)
				rng_state = 1;
			break;
		case 'l':
			limit = strtoul(optarg, NULL, 10);
			break;
		case 'd':
			debugfs_rules = 1;
			break;
		case 'w':
			if (nr_witness == LH_FUZZ_MAX_WITNESS)
				usage();
			witness[nr_witness++].path = optarg;
			break;
		case 'r':
			reads = 1;
			break;
		default:
			usage();
		}
	}
	if (optind >= argc || count <= 0 || limit < 2 ||
	    limit >= LH_FUZZ_MAX_INPUT || (!reads && (!have_grammar ||
						       optind + 1 != argc)))
		usage();

	if (reads) {
		for (; optind < argc; optind++)
			odd_reads(argv[optind]);
	} else {
		int i;

		for (i = 0; i < nr_witness; i++) {
			witness[i].len = slurp(witness[i].path, &witness[i].data);
			if (witness[i].len < 0) {
				fprintf(stderr, "lh_fuzz: cannot read %s\n",
					witness[i].path);
				return 2;
			}
		}
		fuzz_writes(argv[optind], count);
	}
	return failures ? 1 : 0;
}
