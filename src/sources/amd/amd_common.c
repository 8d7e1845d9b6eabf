/* What AMD's parts share: socket slots and the words for an open that failed. */
#include "amd_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "sysroot.h"

int amd_socket_slot(struct amd *a, int package)
{
	for (int s = 0; s < a->nsockets; s++)
		if (a->socket[s].id == package)
			return s;
	if (a->nsockets == AMD_MAX_SOCKETS)
		return -1;
	a->socket[a->nsockets] = (struct amd_socket){ .id = package };
	return a->nsockets++;
}

int amd_unit_socket_slot(struct amd *a, int i, int cpu)
{
	int package = cpu < a->topo->ncpus && a->topo->socket_of[cpu] >= 0 ?
		a->topo->socket_of[cpu] : i;

	return amd_socket_slot(a, package);
}

void amd_describe_error(char *out, size_t size, const struct uncore *u)
{
	long paranoid = -1;

	switch (-u->error) {
	case EACCES:
	case EPERM:
		sr_read_long(&paranoid, INT_MIN, INT_MAX, "/proc/sys/kernel/perf_event_paranoid");
		snprintf(out, size, "permission denied opening %s counters (kernel.perf_event_paranoid "
			 "= %ld; system-wide counting needs root or CAP_PERFMON): %s", u->pmu.name,
			 paranoid, u->why);
		break;
	case EBUSY:
	case ENOSPC:
		snprintf(out, size, "%s counters busy (held by another user of the PMU; tried again "
			 "every %d passes): %s", u->pmu.name, AMD_RETRY_PASSES, u->why);
		break;
	default:
		snprintf(out, size, "%s", u->why);
	}
}
