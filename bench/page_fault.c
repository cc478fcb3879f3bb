// SPDX-License-Identifier: GPL-2.0
/*
 * bench/page_fault.c - will-it-scale page_fault1/2/3 semantics, written for
 * mmscale (see will-it-scale's tests/page_fault{1,2,3}.c for the originals;
 * no code is taken from them).
 *
 * Each task loops: map 128 MiB, write one byte per page (one write is one
 * operation), munmap.  The mapping is
 *   pf1: anonymous private;
 *   pf2: private mapping of the task's own unlinked sparse file;
 *   pf3: shared mapping of the task's own unlinked sparse file.
 * Tasks are threads (-m threads) or processes (-m processes).  Each task
 * counts its operations in its own 128-byte slot of a shared page; the
 * parent samples the sum once a second, drops the first -w samples as
 * warm-up and prints ops/s per sample and their mean.
 *
 * Usage: page_fault [-k 1|2|3] [-m threads|processes] [-t TASKS]
 *                    [-s SECONDS] [-w WARMUP] [-d DIR]
 * The file lives in DIR (default /tmp; the lab mounts tmpfs there).
 * Output, one line per sample, then the mean with an LKP-style key:
 *   sample N ops_per_sec X
 *   page_fault3 will-it-scale.2.threads MEAN
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAP_BYTES	(128UL << 20)
#define SLOT		128

static int kind = 3, nr_tasks = 1, seconds = 5, warmup = 1, use_threads = 1;
static const char *dir = "/tmp";
static char *slots;
static long page_size;

static void die(const char *what)
{
	fprintf(stderr, "page_fault: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int task_file(void)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/page_fault.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0)
		die("mkstemp");
	unlink(path);
	if (ftruncate(fd, MAP_BYTES))
		die("ftruncate");
	return fd;
}

static void *task(void *arg)
{
	volatile unsigned long *ops = (unsigned long *)(slots + (long)arg * SLOT);
	int fd = kind == 1 ? -1 : task_file();
	int flags = kind == 3 ? MAP_SHARED : MAP_PRIVATE;

	if (kind == 1)
		flags |= MAP_ANONYMOUS;
	for (;;) {
		char *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE, flags, fd, 0);
		unsigned long off;

		if (p == MAP_FAILED)
			die("mmap");
		for (off = 0; off < MAP_BYTES; off += page_size) {
			p[off] = 0;
			(*ops)++;
		}
		munmap(p, MAP_BYTES);
	}
	return NULL;
}

static unsigned long total_ops(void)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < nr_tasks; i++)
		sum += *(volatile unsigned long *)(slots + i * SLOT);
	return sum;
}

int main(int argc, char **argv)
{
	unsigned long prev, now;
	double mean = 0;
	pid_t *pids;
	int opt, i;

	while ((opt = getopt(argc, argv, "k:m:t:s:w:d:")) != -1) {
		switch (opt) {
		case 'k': kind = atoi(optarg); break;
		case 'm': use_threads = !strcmp(optarg, "threads"); break;
		case 't': nr_tasks = atoi(optarg); break;
		case 's': seconds = atoi(optarg); break;
		case 'w': warmup = atoi(optarg); break;
		case 'd': dir = optarg; break;
		default: goto usage;
		}
	}
	if (kind < 1 || kind > 3 || nr_tasks < 1 || seconds < 1 || warmup < 0)
		goto usage;
	page_size = sysconf(_SC_PAGESIZE);
	slots = mmap(NULL, (size_t)nr_tasks * SLOT, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slots == MAP_FAILED)
		die("mmap counters");
	pids = calloc(nr_tasks, sizeof(*pids));
	for (i = 0; i < nr_tasks; i++) {
		if (use_threads) {
			pthread_t t;

			if (pthread_create(&t, NULL, task, (void *)(long)i))
				die("pthread_create");
		} else {
			pids[i] = fork();
			if (pids[i] < 0)
				die("fork");
			if (!pids[i])
				task((void *)(long)i);
		}
	}
	prev = total_ops();
	for (i = 0; i < warmup + seconds; i++) {
		sleep(1);
		now = total_ops();
		if (i >= warmup) {
			printf("sample %d ops_per_sec %lu\n", i - warmup, now - prev);
			mean += (double)(now - prev) / seconds;
		}
		prev = now;
	}
	printf("page_fault%d will-it-scale.%d.%s %.0f\n", kind, nr_tasks,
	       use_threads ? "threads" : "processes", mean);
	fflush(stdout);
	if (!use_threads)
		for (i = 0; i < nr_tasks; i++)
			kill(pids[i], SIGKILL);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-k 1|2|3] [-m threads|processes] [-t TASKS] [-s SECONDS] [-w WARMUP] [-d DIR]\n",
		argv[0]);
	return 2;
}
