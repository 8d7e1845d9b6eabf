/*
 * A perf PMU as sysfs describes it under /sys/bus/event_source/devices/NAME:
 * its type (attr.type), the CPUs to open its events on (cpumask: one per
 * socket for the Data Fabric, one per L3 complex for amd_l3), its format/
 * fields, and the kernel's rotation period for events that share counters.
 */
#ifndef SMTCPU_PMU_H
#define SMTCPU_PMU_H

#include <stddef.h>
#include <stdint.h>

#include "pmuformat.h"

#define PMU_NAME_MAX 32
#define PMU_MAX_FIELDS 32	/* format fields: POWER10's core PMU has 19 */
#define PMU_MAX_CPUS 256	/* cpumask entries: L3 complexes of the largest machines */

struct pmu_setting {
	const char *field;	/* a format/ name: "event", "umask", "rdwrmask", ... */
	uint64_t value;
};

struct pmu {
	char name[PMU_NAME_MAX];
	uint32_t type;
	int ncpus;
	int cpu[PMU_MAX_CPUS];		/* from cpumask, ascending */
	int nfields;
	char field_name[PMU_MAX_FIELDS][PMU_NAME_MAX];
	struct pmu_field field[PMU_MAX_FIELDS];
	unsigned mux_interval_ms;	/* perf_event_mux_interval_ms, 0 if not shown */
};

/* Reads the PMU's sysfs directory.  Returns 0, or -ENOENT when there is no
 * such PMU, or -EINVAL when a file is malformed; why says which, in words. */
int pmu_discover(struct pmu *p, const char *name, char *why, size_t whysize);

/* The same for a core PMU ("cpu"), which has no cpumask: its events open
 * on any CPU. */
int pmu_discover_core(struct pmu *p, const char *name, char *why, size_t whysize);

/* Encodes settings into config[0..2] (attr.config, config1, config2).
 * Returns 0, -ENOENT for a field the PMU lacks, -ERANGE for a value too
 * wide for its field; why says which. */
int pmu_encode(const struct pmu *p, const struct pmu_setting *settings, int n,
	       uint64_t config[3], char *why, size_t whysize);

/* Encodes the PMU's events/NAME alias into config[0..2]: comma-separated
 * field=value terms (a bare field means 1), as perf_event_sysfs_show()
 * prints the string the driver declared ("event=0x01" for the msr PMU's
 * aperf).  Returns 0, -ENOENT when the PMU has no such event, -EINVAL for
 * text that is not terms of its format/ fields, -ERANGE for a value too
 * wide; why says which. */
int pmu_event_alias(const struct pmu *p, const char *event, uint64_t config[3], char *why,
		    size_t whysize);

#endif
