/*
 * Making CPUs switch: this thread runs a moment on each CPU of a list, and
 * its affinity is then restored.  The CPU sets are sized for the machine's
 * possible CPUs, allocated once: a fixed cpu_set_t holds 1,024 CPUs, and
 * past that sched_getaffinity fails with EINVAL (a 1,920-CPU POWER10 is
 * such a machine).
 */
#ifndef SMTCPU_CPUSWEEP_H
#define SMTCPU_CPUSWEEP_H

#include <sched.h>
#include <stddef.h>

struct cpusweep {
	cpu_set_t *was, *one;	/* the caller's affinity; one CPU's */
	size_t bytes;		/* each set's size, CPU_ALLOC_SIZE(ncpus) */
	int ncpus;
};

/* Sets for ncpus possible CPUs (at least the kernel's count).  0 or -ENOMEM. */
int cpusweep_init(struct cpusweep *w, int ncpus);
void cpusweep_free(struct cpusweep *w);

/* Runs this thread on each of cpus[0..n) in turn, then where it ran before.
 * Returns how many it ran on (an offline or absent CPU is passed by), or
 * -errno when the thread's own affinity cannot be read. */
int cpusweep_run(struct cpusweep *w, const int *cpus, int n);

#endif
