/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/sampler.h - per-task operation counters and the 1 s sampling loop
 * shared by the C workloads of bench/programs/ (built with -I bench).
 *
 * Each task owns one 128-byte slot of a shared anonymous mapping (so that
 * counters of different tasks never share a cache line, as will-it-scale
 * does) and bumps it once per operation.  The parent sums the slots once a
 * second, drops the first WARMUP samples, prints one "sample" line per
 * measured second and returns the mean operations per second.
 */
#ifndef MMSCALE_SAMPLER_H
#define MMSCALE_SAMPLER_H

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#define SAMPLER_SLOT	128

static char *sampler_slots;
static int sampler_tasks;

static void sampler_die(const char *prog, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

/*
 * sampler_sparse_file: an unlinked sparse file of @bytes in @dir (named
 * after @prog), for workloads that map a file; dies on error.
 */
static inline int sampler_sparse_file(const char *prog, const char *dir,
				      unsigned long bytes)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s.XXXXXX", dir, prog);
	fd = mkstemp(path);
	if (fd < 0)
		sampler_die(prog, "mkstemp");
	unlink(path);
	if (ftruncate(fd, bytes))
		sampler_die(prog, "ftruncate");
	return fd;
}

/* sampler_init: one slot per task, shared with forked children. */
static void sampler_init(const char *prog, int tasks)
{
	sampler_tasks = tasks;
	sampler_slots = mmap(NULL, (size_t)tasks * SAMPLER_SLOT, PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sampler_slots == MAP_FAILED)
		sampler_die(prog, "mmap counters");
}

/* sampler_counter: the operation counter of task i. */
static volatile unsigned long *sampler_counter(int i)
{
	return (volatile unsigned long *)(sampler_slots + (size_t)i * SAMPLER_SLOT);
}

/* sampler_child: a forked task dies with its parent (no strays in a run). */
static inline void sampler_child(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
}

static unsigned long sampler_total(void)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < sampler_tasks; i++)
		sum += *sampler_counter(i);
	return sum;
}

/*
 * sampler_run: sample once a second for warmup + seconds seconds; print
 * "sample N ops_per_sec X" for the measured ones; return their mean.
 */
static double sampler_run(int warmup, int seconds)
{
	unsigned long prev = sampler_total(), now;
	double mean = 0;
	int i;

	for (i = 0; i < warmup + seconds; i++) {
		sleep(1);
		now = sampler_total();
		if (i >= warmup) {
			printf("sample %d ops_per_sec %lu\n", i - warmup, now - prev);
			mean += (double)(now - prev) / seconds;
		}
		prev = now;
	}
	return mean;
}

#endif
