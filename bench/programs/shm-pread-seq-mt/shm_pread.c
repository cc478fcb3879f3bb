// SPDX-License-Identifier: GPL-2.0
/*
 * bench/programs/shm-pread-seq-mt/shm_pread.c - vm-scalability
 * "shm-pread-seq-mt" semantics, written for mmscale (see vm-scalability's case-shm-pread-seq-mt and usemem's
 * --readonly mode for the original; no code is taken from them).
 *
 * One sparse file of -b MIB (default 128) is created in DIR (a tmpfs: the
 * lab mounts one on /tmp in the guest; on a host use /dev/shm).  TASKS
 * threads each loop: map the whole file read-only and shared, read it
 * sequentially one word (unsigned long) at a time, munmap.  Every pass maps
 * the shmem pages again, so the loop exercises the file read-fault path
 * (fault-around, page-table allocation and its ptlock) as well as memory
 * reads.  One operation is one page read; throughput is reported in KB/s
 * summed over the threads, as vm-scalability does.
 *
 * Usage: shm_pread [-t TASKS] [-b MIB] [-s SECONDS] [-w WARMUP] [-d DIR]
 * Output:
 *   sample N ops_per_sec X               (pages/s)
 *   shm-pread-seq-mt vm-scalability.throughput KB_PER_SEC
 *   total_ops N                          (pages, warm-up included)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include "sampler.h"

static int nr_tasks = 1, seconds = 5, warmup = 1, fd;
static unsigned long file_bytes = 128UL << 20;
static const char *dir = "/tmp";
static long page_size;
static volatile unsigned long sink;

static void die(const char *what)
{
	sampler_die("shm_pread", what);
}

static void *task(void *arg)
{
	volatile unsigned long *ops = sampler_counter((long)arg);
	unsigned long words_per_page = page_size / sizeof(unsigned long);

	for (;;) {
		const unsigned long *p = mmap(NULL, file_bytes, PROT_READ, MAP_SHARED, fd, 0);
		unsigned long i, n = file_bytes / sizeof(unsigned long), sum = 0;

		if (p == MAP_FAILED)
			die("mmap");
		for (i = 0; i < n; i++) {
			sum += p[i];
			if ((i + 1) % words_per_page == 0)
				(*ops)++;
		}
		sink += sum;
		munmap((void *)p, file_bytes);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	double mean;
	int opt, i;

	while ((opt = getopt(argc, argv, "t:b:s:w:d:")) != -1) {
		switch (opt) {
		case 't': nr_tasks = atoi(optarg); break;
		case 'b': file_bytes = strtoul(optarg, NULL, 10) << 20; break;
		case 's': seconds = atoi(optarg); break;
		case 'w': warmup = atoi(optarg); break;
		case 'd': dir = optarg; break;
		default: goto usage;
		}
	}
	if (nr_tasks < 1 || seconds < 1 || warmup < 0 || !file_bytes)
		goto usage;
	page_size = sysconf(_SC_PAGESIZE);
	fd = sampler_sparse_file("shm_pread", dir, file_bytes);
	sampler_init("shm_pread", nr_tasks);
	for (i = 0; i < nr_tasks; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, task, (void *)(long)i))
			die("pthread_create");
	}
	mean = sampler_run(warmup, seconds);
	printf("shm-pread-seq-mt vm-scalability.throughput %.0f\n", mean * page_size / 1024);
	printf("total_ops %lu\n", sampler_total());
	fflush(stdout);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-t TASKS] [-b MIB] [-s SECONDS] [-w WARMUP] [-d DIR]\n",
		argv[0]);
	return 2;
}
