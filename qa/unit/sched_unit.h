/*
 * Shared by the unit tests of the software PURR on this machine's kernel:
 * opening it with every CPU its own core, or skipping and saying why.
 * Included after cmocka.h.
 */
#ifndef SMTCPU_SCHED_UNIT_H
#define SMTCPU_SCHED_UNIT_H

#include <sched.h>
#include <unistd.h>

#include "config.h"
#include "log.h"
#include "sched_purr.h"

static inline void sched_unit_quiet(enum smt_log_level level, const char *text)
{
	(void)level;
	(void)text;
}

/* The calling thread kept to CPU. */
static inline int sched_unit_pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

/* SP opened for NCPUS CPUs, each its own core without shares; the test
 * skipped where it cannot be: one CPU (CPU1_FOR says what the test needs
 * CPU 1 for), not root, or a kernel that refuses the program. */
static inline void sched_unit_open(struct sched_purr *sp, int ncpus, const char *cpu1_for)
{
	char why[256];

	smt_log_set_sink(sched_unit_quiet);
	if (ncpus < 2) {
		print_message("skipped: one CPU: %s\n", cpu1_for);
		skip();
	}
	if (geteuid() != 0 || sched_purr_open(sp, ncpus, CONFIG_DEFAULT_PROCESSES, why, sizeof why) < 0) {
		print_message("skipped: the software PURR cannot run here: %s\n",
			      geteuid() != 0 ? "not root" : why);
		skip();
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		assert_int_equal(sched_purr_map_cpu(sp, cpu, cpu, 0), 0);
		assert_int_equal(sched_purr_set_shares(sp, cpu, NULL), 0);
	}
}

#endif
