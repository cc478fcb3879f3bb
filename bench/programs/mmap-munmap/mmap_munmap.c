// SPDX-License-Identifier: GPL-2.0
/*
 * bench/programs/mmap-munmap/mmap_munmap.c - will-it-scale mmap1 semantics
 * in threads mode, written for mmscale (no code is taken from
 * will-it-scale's tests/mmap1.c).
 *
 * TASKS threads of one process each map 128 MiB of anonymous memory and
 * unmap it again, untouched, in a loop; one pair is one operation.  Both
 * calls take the process's mmap_lock for writing and change its VMA tree,
 * so the threads contend on the lock and on the tree, not on pages.
 *
 * Usage: mmap_munmap TASKS SECONDS.  Samples SECONDS seconds after one of
 * warm-up ("sample" lines), then prints the mean operations per second as
 * "mmap-munmap will-it-scale.TASKS.threads N", the same per thread, and
 * "total_ops N", the lines bench/workloads.sh's run_sampled reads.
 */
#include <pthread.h>
#include "sampler.h"

#define MAP_BYTES	(128UL << 20)

static void *task(void *arg)
{
	volatile unsigned long *ops = sampler_counter((long)arg);

	for (;;) {
		void *p = mmap(NULL, MAP_BYTES, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			sampler_die("mmap_munmap", "mmap");
		if (munmap(p, MAP_BYTES))
			sampler_die("mmap_munmap", "munmap");
		(*ops)++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int tasks = argc == 3 ? atoi(argv[1]) : 0;
	int seconds = argc == 3 ? atoi(argv[2]) : 0;
	double mean;
	long i;

	if (tasks < 1 || tasks > 8192 || seconds < 1) {
		fprintf(stderr, "usage: %s TASKS (1..8192) SECONDS\n", argv[0]);
		return 2;
	}
	sampler_init("mmap_munmap", tasks);
	for (i = 0; i < tasks; i++) {
		pthread_t t;

		errno = pthread_create(&t, NULL, task, (void *)i);
		if (errno)
			sampler_die("mmap_munmap", "pthread_create");
	}
	mean = sampler_run(1, seconds);
	printf("mmap-munmap will-it-scale.%d.threads %.0f\n", tasks, mean);
	printf("mmap-munmap will-it-scale.per_thread_ops %.0f\n", mean / tasks);
	printf("total_ops %lu\n", sampler_total());
	return 0;
}
