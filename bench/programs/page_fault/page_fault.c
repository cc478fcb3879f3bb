// SPDX-License-Identifier: GPL-2.0
/*
 * bench/programs/page_fault/page_fault.c - will-it-scale page_fault1/2/3
 * semantics, written for mmscale (see will-it-scale's tests/page_fault{1,2,3}.c for the originals;
 * no code is taken from them).
 *
 * Each task loops: map 128 MiB, write one byte per page (one write is one
 * operation), munmap.  The mapping is
 *   pf1: anonymous private;
 *   pf2: private mapping of the task's own unlinked sparse file;
 *   pf3: shared mapping of the task's own unlinked sparse file.
 * Tasks are threads (-m threads) or processes (-m processes).  Each task
 * counts its operations in its own 128-byte slot (bench/sampler.h); the
 * parent samples the sum once a second, drops the first -w samples as
 * warm-up and prints ops/s per sample and their mean.
 *
 * -a keeps the mapping: the task maps once, then loops writing one byte
 * per page and madvise(MADV_DONTNEED) of the whole range, so every round
 * faults in and frees (and charges and uncharges) every page without the
 * mmap/munmap of the other modes.  This is the fault loop of upstream's
 * page_counter stock proposal; with -k 1 -c it runs one per cgroup
 * (bench/programs/memcg-madvise-fault/run).
 *
 * -b MIB changes the mapping size (default 128).  -c PREFIX moves process
 * i into the cgroup directory PREFIX<i> before it starts (processes mode
 * only): with -k 1 -b 64 that is the 2009 parallel page-fault test, one
 * task per memory cgroup (bench/programs/memcg-parallel-fault/run).
 *
 * Usage: page_fault [-k 1|2|3] [-a] [-m threads|processes] [-t TASKS] [-b MIB]
 *                   [-s SECONDS] [-w WARMUP] [-d DIR] [-c CGROUP_PREFIX]
 * The file lives in DIR (default /tmp; the lab mounts tmpfs there).
 * Output, one line per sample, then the mean with LKP-style keys and the
 * operations counted from start to end (warm-up included, for counters):
 *   sample N ops_per_sec X
 *   page_fault3 will-it-scale.2.threads MEAN
 *   page_fault3 will-it-scale.per_thread_ops MEAN/TASKS
 *   total_ops N
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include "sampler.h"

static int kind = 3, nr_tasks = 1, seconds = 5, warmup = 1, use_threads = 1, advise;
static unsigned long map_bytes = 128UL << 20;
static const char *dir = "/tmp", *cgroup_prefix;
static long page_size;

static void die(const char *what)
{
	sampler_die("page_fault", what);
}

/* join_cgroup: move the calling process into PREFIX<i>. */
static void join_cgroup(int i)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s%d/cgroup.procs", cgroup_prefix, i);
	f = fopen(path, "w");
	if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
		die(path);
}

static void *task(void *arg)
{
	volatile unsigned long *ops = sampler_counter((long)arg);
	int fd = kind == 1 ? -1 : sampler_sparse_file("page_fault", dir, map_bytes);
	int flags = kind == 3 ? MAP_SHARED : MAP_PRIVATE;

	if (kind == 1)
		flags |= MAP_ANONYMOUS;
	if (advise) {
		char *p = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, flags, fd, 0);
		unsigned long off;

		if (p == MAP_FAILED)
			die("mmap");
		for (;;) {
			for (off = 0; off < map_bytes; off += page_size) {
				p[off] = 0;
				(*ops)++;
			}
			if (madvise(p, map_bytes, MADV_DONTNEED))
				die("madvise");
		}
	}
	for (;;) {
		char *p = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE, flags, fd, 0);
		unsigned long off;

		if (p == MAP_FAILED)
			die("mmap");
		for (off = 0; off < map_bytes; off += page_size) {
			p[off] = 0;
			(*ops)++;
		}
		munmap(p, map_bytes);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode;
	pid_t *pids;
	double mean;
	int opt, i;

	while ((opt = getopt(argc, argv, "k:am:t:b:s:w:d:c:")) != -1) {
		switch (opt) {
		case 'k': kind = atoi(optarg); break;
		case 'a': advise = 1; break;
		case 'm':
			if (strcmp(optarg, "threads") && strcmp(optarg, "processes"))
				goto usage;
			use_threads = !strcmp(optarg, "threads");
			break;
		case 't': nr_tasks = atoi(optarg); break;
		case 'b': map_bytes = strtoul(optarg, NULL, 10) << 20; break;
		case 's': seconds = atoi(optarg); break;
		case 'w': warmup = atoi(optarg); break;
		case 'd': dir = optarg; break;
		case 'c': cgroup_prefix = optarg; break;
		default: goto usage;
		}
	}
	if (kind < 1 || kind > 3 || nr_tasks < 1 || seconds < 1 || warmup < 0 ||
	    !map_bytes || (cgroup_prefix && use_threads))
		goto usage;
	page_size = sysconf(_SC_PAGESIZE);
	sampler_init("page_fault", nr_tasks);
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
			if (!pids[i]) {
				sampler_child();
				if (cgroup_prefix)
					join_cgroup(i);
				task((void *)(long)i);
			}
		}
	}
	mean = sampler_run(warmup, seconds);
	mode = use_threads ? "threads" : "processes";
	printf("page_fault%d%s will-it-scale.%d.%s %.0f\n", kind, advise ? "-madvise" : "",
	       nr_tasks, mode, mean);
	printf("page_fault%d%s will-it-scale.per_%s_ops %.0f\n", kind, advise ? "-madvise" : "",
	       use_threads ? "thread" : "process", mean / nr_tasks);
	printf("total_ops %lu\n", sampler_total());
	fflush(stdout);
	if (!use_threads) {
		for (i = 0; i < nr_tasks; i++)
			kill(pids[i], SIGKILL);
		for (i = 0; i < nr_tasks; i++)
			waitpid(pids[i], NULL, 0);
	}
	return 0;
usage:
	fprintf(stderr, "usage: %s [-k 1|2|3] [-a] [-m threads|processes] [-t TASKS] [-b MIB] [-s SECONDS] [-w WARMUP] [-d DIR] [-c CGROUP_PREFIX (processes)]\n",
		argv[0]);
	return 2;
}
