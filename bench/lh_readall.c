// SPDX-License-Identifier: GPL-2.0
/*
 * lh_readall - read files to the end and print how long that took.
 *
 * The read-cost benchmark times reading every CPUx file of a histogram type.
 * Timing a `cat` would also time its exec and library loads, which in the
 * benchmark guest come over 9p from the host and make the -icount clock jump;
 * this program is started first and times only open/read/close.
 *
 *   lh_readall FILE...    prints "files=N bytes=B ns=T"
 */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

/* now_ns - CLOCK_MONOTONIC in ns */
static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	long long t0, bytes = 0;
	int i, fd, files = 0;
	ssize_t n;

	t0 = now_ns();
	for (i = 1; i < argc; i++) {
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			perror(argv[i]);
			return 1;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			bytes += n;
		close(fd);
		if (n < 0) {
			perror(argv[i]);
			return 1;
		}
		files++;
	}
	printf("files=%d bytes=%lld ns=%lld\n", files, bytes, now_ns() - t0);
	return 0;
}
