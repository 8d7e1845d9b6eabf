#include "cpusweep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cpusweep_init(struct cpusweep *w, int ncpus)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);

	memset(w, 0, sizeof *w);
	if (conf > ncpus)
		ncpus = (int)conf;
	if (ncpus < 1)
		ncpus = 1;
	w->ncpus = ncpus;
	w->bytes = CPU_ALLOC_SIZE(ncpus);
	w->was = CPU_ALLOC(ncpus);
	w->one = CPU_ALLOC(ncpus);
	if (w->was == NULL || w->one == NULL) {
		cpusweep_free(w);
		return -ENOMEM;
	}
	return 0;
}

void cpusweep_free(struct cpusweep *w)
{
	if (w->was)
		CPU_FREE(w->was);
	if (w->one)
		CPU_FREE(w->one);
	memset(w, 0, sizeof *w);
}

int cpusweep_run(struct cpusweep *w, const int *cpus, int n)
{
	int ran = 0;

	if (w->was == NULL)
		return -EINVAL;
	if (sched_getaffinity(0, w->bytes, w->was) != 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		if (cpus[i] < 0 || cpus[i] >= w->ncpus)
			continue;
		CPU_ZERO_S(w->bytes, w->one);
		CPU_SET_S((size_t)cpus[i], w->bytes, w->one);
		/* Returns once this thread runs on that CPU. */
		if (sched_setaffinity(0, w->bytes, w->one) == 0) {
			sched_yield();
			ran++;
		}
	}
	sched_setaffinity(0, w->bytes, w->was);
	return ran;
}
