// SPDX-License-Identifier: GPL-2.0
/*
 * lh_write - write (or read) one latency_hist control file and name the errno
 *
 * The selftests must prove that a bad write fails with one exact errno
 * (EINVAL, ENODEV), and that some writes the shell cannot express are
 * rejected: an empty write, a write at a non-zero file offset, a write of
 * N raw bytes. A shell "echo x > file" only tells success from failure, and
 * its redirection opens with O_TRUNC; this helper does one open(O_WRONLY),
 * at most one lseek, exactly one write() and one close(), and prints
 *
 *	OK <bytes>		on success (exit 0)
 *	<ERRNAME>		when write() fails, e.g. "EINVAL" (exit 1)
 *	open:<ERRNAME>		when open() fails (exit 1)
 *	lseek:<ERRNAME>		when the offset cannot be reached (exit 1)
 *	SHORT <bytes>		when write() accepted only part of the data (exit 1)
 *
 * on stdout; usage errors exit 2.
 *
 * Usage:
 *	lh_write [-e] [-o OFFSET] FILE DATA     write DATA (with -e: \n \t \\ \xHH escapes)
 *	lh_write [-o OFFSET] -n COUNT [-c CHAR] FILE
 *	                                        write COUNT bytes of CHAR (default '1')
 *	lh_write -R FILE                        read FILE to its end, print OK <bytes> or
 *	                                        the errno of the failing read()
 *	lh_write -M MODULE.ko PARAMS            load a module with finit_module(), print
 *	                                        OK 0 or the errno
 *
 * With -F N (a kernel with CONFIG_FAULT_INJECTION and failslab set up) the
 * N-th fault-injection point the write or load passes fails: N goes to
 * /proc/thread-self/fail-nth just before the call, and the result line
 * gains " fault=injected" or " fault=unused" (the call passed fewer points).
 *
 * It is static-friendly (no locale, no stdio buffering tricks) so it runs in
 * a busybox initramfs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LH_MAX_DATA_BYTES (1 << 20)	/* largest write we generate: 1 MiB */

struct errno_name {
	int nr;
	const char *name;
};

#define E(x) { x, #x }
static const struct errno_name errno_names[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(EBADF), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY),
	E(EEXIST), E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE),
	E(EMFILE), E(ENOTTY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS),
	E(ERANGE), E(ENOSYS), E(EOVERFLOW), E(EOPNOTSUPP), E(ETIMEDOUT),
	/* what a module load's signature check gives (module_sig_check()) */
	E(ENODATA), E(EBADMSG), E(ENOPKG), E(ENOKEY), E(EKEYREJECTED),
};
#undef E

/* errno_name - symbolic name of an errno value, "E<nr>" when unknown */
static const char *errno_name(int nr)
{
	static char buf[32];
	size_t i;

	for (i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (errno_names[i].nr == nr)
			return errno_names[i].name;
	snprintf(buf, sizeof(buf), "E%d", nr);
	return buf;
}

/* hexval - value of one hex digit, -1 if c is not one */
static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* unescape - decode \n \t \\ \xHH in place, return the decoded length */
static size_t unescape(char *s)
{
	char *in = s, *out = s;

	while (*in) {
		if (*in != '\\' || !in[1]) {
			*out++ = *in++;
			continue;
		}
		in++;
		switch (*in) {
		case 'n':
			*out++ = '\n';
			in++;
			break;
		case 't':
			*out++ = '\t';
			in++;
			break;
		case '0':
			*out++ = '\0';
			in++;
			break;
		case 'x':
			if (hexval(in[1]) >= 0 && hexval(in[2]) >= 0) {
				*out++ = (char)(hexval(in[1]) * 16 + hexval(in[2]));
				in += 3;
			} else {
				*out++ = *in++;	/* not an escape: keep it */
			}
			break;
		default:
			*out++ = *in++;
			break;
		}
	}
	return (size_t)(out - s);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: lh_write [-e] [-o OFFSET] FILE DATA\n"
		"       lh_write [-o OFFSET] -n COUNT [-c CHAR] FILE\n"
		"       lh_write -R FILE\n"
		"       lh_write -M MODULE.ko PARAMS\n"
		"       (write and load also take -F N: fail the N-th fault-injection point)\n");
	exit(2);
}

/* read_all - read FILE to EOF, report like a write */
static int read_all(const char *path)
{
	char buf[4096];
	long long total = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("open:%s\n", errno_name(errno));
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	if (n < 0) {
		printf("%s\n", errno_name(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("OK %lld\n", total);
	return 0;
}

static int fail_nth_fd = -1;	/* /proc/thread-self/fail-nth with -F */

/* fault_arm - make the @nth fault-injection point from now on fail */
static void fault_arm(long nth)
{
	char num[32];
	int len = snprintf(num, sizeof(num), "%ld", nth);

	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (fail_nth_fd < 0 || write(fail_nth_fd, num, len) != len) {
		printf("fail-nth:%s\n", errno_name(errno));
		exit(1);
	}
}

/*
 * fault_disarm - stop injecting; print whether the fault was injected (the
 * count reads 0 then) and end the result line
 */
static void fault_disarm(void)
{
	char num[32] = "";
	ssize_t n;

	if (fail_nth_fd < 0) {
		printf("\n");
		return;
	}
	n = pread(fail_nth_fd, num, sizeof(num) - 1, 0);
	if (n > 0)
		num[n] = '\0';
	if (write(fail_nth_fd, "0", 1) < 0)
		num[0] = '?';
	printf(" fault=%s\n", n > 0 && atol(num) == 0 ? "injected" : "unused");
}

/* load_module - finit_module(@path, @params), reported like a write */
static int load_module(const char *path, const char *params, long nth)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long ret;

	if (fd < 0) {
		printf("open:%s\n", errno_name(errno));
		return 1;
	}
	if (nth > 0)
		fault_arm(nth);
	ret = syscall(SYS_finit_module, fd, params, 0);
	if (ret < 0)
		printf("%s", errno_name(errno));
	else
		printf("OK 0");
	fault_disarm();
	close(fd);
	return ret < 0;
}

int main(int argc, char **argv)
{
	long long offset = -1, count = -1;
	int escapes = 0, do_read = 0, do_load = 0, fill = '1';
	long nth = 0;
	const char *path;
	char *data;
	size_t len;
	ssize_t n;
	int fd, opt;

	while ((opt = getopt(argc, argv, "+eo:n:c:RMF:")) != -1) {
		switch (opt) {
		case 'e':
			escapes = 1;
			break;
		case 'o':
			offset = strtoll(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoll(optarg, NULL, 0);
			if (count < 0 || count > LH_MAX_DATA_BYTES)
				usage();
			break;
		case 'c':
			if (!optarg[0] || optarg[1])
				usage();
			fill = (unsigned char)optarg[0];
			break;
		case 'R':
			do_read = 1;
			break;
		case 'M':
			do_load = 1;
			break;
		case 'F':
			nth = strtol(optarg, NULL, 0);
			if (nth <= 0)
				usage();
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;

	if (do_read) {
		if (argc != 1)
			usage();
		return read_all(argv[0]);
	}
	if (do_load) {
		if (argc != 2)
			usage();
		return load_module(argv[0], argv[1], nth);
	}

	if (count >= 0) {
		if (argc != 1)
			usage();
		len = (size_t)count;
		data = malloc(len + 1);
		if (!data)
			return 2;
		memset(data, fill, len);
		data[len] = '\0';
	} else {
		if (argc != 2)
			usage();
		data = argv[1];
		len = escapes ? unescape(data) : strlen(data);
	}
	path = argv[0];

	fd = open(path, O_WRONLY);
	if (fd < 0) {
		printf("open:%s\n", errno_name(errno));
		return 1;
	}
	if (offset >= 0) {
		off_t got = lseek(fd, (off_t)offset, SEEK_SET);

		if (got < 0) {
			printf("lseek:%s\n", errno_name(errno));
			close(fd);
			return 1;
		}
		if (got != (off_t)offset) {
			/* noop_llseek: the write would land at offset 0 */
			printf("lseek:IGNORED\n");
			close(fd);
			return 1;
		}
	}
	if (nth > 0)
		fault_arm(nth);
	n = write(fd, data, len);
	if (n < 0) {
		printf("%s", errno_name(errno));
		fault_disarm();
		close(fd);
		return 1;
	}
	if (close(fd) < 0) {
		printf("close:%s\n", errno_name(errno));
		return 1;
	}
	if ((size_t)n != len) {
		printf("SHORT %zd", n);
		fault_disarm();
		return 1;
	}
	printf("OK %zd", n);
	fault_disarm();
	return 0;
}
