// SPDX-License-Identifier: GPL-2.0
/*
 * bench/programs/sigqueue/sigqueue.c - a deterministic allocate/free
 * pattern on the kernel's "sigqueue" slab cache, for comparing SLUB counters between two kernels.
 *
 * What it does: blocks the real-time signals SIGRTMIN .. SIGRTMIN+K-1,
 * then for each round queues N signals to itself with sigqueue(3), round
 * robin over the K signals, so that each queued signal allocates one
 * struct sigqueue, and then takes them back with sigtimedwait(2) one
 * signal number at a time, so that every K-th object is freed first.
 * The frees hit full, partial and cpu-partial slabs in a fixed order, so
 * on a single-CPU guest the SLUB_STATS of the cache are a function of
 * the kernel's free path only: the same kernel code gives the same
 * counts, boot after boot.  Nothing is timed.
 *
 * Usage: sigqueue [-n SIGNALS] [-r ROUNDS] [-k STRIDE] [-a CPU -b CPU]
 *   defaults: 4096 signals, 8 rounds, stride 4
 *   -a CPU -b CPU: queue on CPU a and take back on CPU b (the process
 *   moves between them each round): with a and b on two NUMA nodes, each
 *   struct sigqueue is freed on the other node than it was allocated on,
 *   a remote free, which the slab allocator's per cpu sheaves do not take
 * Prints "total_ops N" (the objects freed) for bench/workloads.sh.
 * What it needs: Linux, and RLIMIT_SIGPENDING >= SIGNALS (raised here
 * when the hard limit allows; root may raise it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long arg(const char *s, const char *name, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < min || v > max) {
		fprintf(stderr, "sigqueue: %s must be %ld..%ld, not '%s'\n", name, min, max, s);
		exit(2);
	}
	return v;
}

/* pin the process to @cpu (-1: leave it where it is) */
static int pin(long cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "sigqueue: cannot run on cpu %ld: %s\n", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long n = 4096, rounds = 8, k = 4, r, i, taken, cpu_a = -1, cpu_b = -1;
	struct timespec zero = { 0, 0 };
	struct rlimit rl;
	sigset_t set, one;
	union sigval val;
	int opt;

	while ((opt = getopt(argc, argv, "n:r:k:a:b:")) != -1) {
		switch (opt) {
		case 'n': n = arg(optarg, "SIGNALS", 1, 1L << 20); break;
		case 'r': rounds = arg(optarg, "ROUNDS", 1, 1L << 20); break;
		case 'k': k = arg(optarg, "STRIDE", 1, 16); break;
		case 'a': cpu_a = arg(optarg, "CPU", 0, CPU_SETSIZE - 1); break;
		case 'b': cpu_b = arg(optarg, "CPU", 0, CPU_SETSIZE - 1); break;
		default:
			fprintf(stderr, "usage: sigqueue [-n SIGNALS] [-r ROUNDS] [-k STRIDE] [-a CPU -b CPU]\n");
			return 2;
		}
	}
	if ((cpu_a < 0) != (cpu_b < 0)) {
		fprintf(stderr, "sigqueue: -a and -b go together\n");
		return 2;
	}
	if (SIGRTMIN + k - 1 > SIGRTMAX) {
		fprintf(stderr, "sigqueue: STRIDE %ld needs more real-time signals than there are\n", k);
		return 2;
	}
	if (getrlimit(RLIMIT_SIGPENDING, &rl) == 0 && rl.rlim_cur < (rlim_t)n + 16) {
		rl.rlim_cur = n + 16;
		if (rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;
		if (setrlimit(RLIMIT_SIGPENDING, &rl)) {
			fprintf(stderr, "sigqueue: cannot raise RLIMIT_SIGPENDING to %ld: %s\n",
				n + 16, strerror(errno));
			return 1;
		}
	}
	sigemptyset(&set);
	for (i = 0; i < k; i++)
		sigaddset(&set, SIGRTMIN + i);
	if (sigprocmask(SIG_BLOCK, &set, NULL)) {
		perror("sigqueue: sigprocmask");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		if (pin(cpu_a))
			return 1;
		for (i = 0; i < n; i++) {
			val.sival_int = i;
			if (sigqueue(getpid(), SIGRTMIN + i % k, val)) {
				fprintf(stderr, "sigqueue: queueing signal %ld of round %ld: %s\n",
					i, r, strerror(errno));
				return 1;
			}
		}
		if (pin(cpu_b))
			return 1;
		taken = 0;
		for (i = 0; i < k; i++) {
			sigemptyset(&one);
			sigaddset(&one, SIGRTMIN + i);
			while (sigtimedwait(&one, NULL, &zero) == SIGRTMIN + i)
				taken++;
		}
		if (taken != n) {
			fprintf(stderr, "sigqueue: round %ld took back %ld of %ld signals\n",
				r, taken, n);
			return 1;
		}
	}
	printf("total_ops %ld\n", n * rounds);
	return 0;
}
