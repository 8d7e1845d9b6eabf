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
	char words[CTR_ERROR_LEN];

	switch (-u->error) {
	case EACCES:
	case EPERM:
		snprintf(out, size, "%s: %s: %s", u->pmu.name,
			 ctr_open_error(u->error, words, sizeof words), u->why);
		break;
	case EBUSY:
	case ENOSPC:
		snprintf(out, size, "%s: %s; tried again every %d passes: %s", u->pmu.name,
			 ctr_open_error(u->error, words, sizeof words), AMD_RETRY_PASSES, u->why);
		break;
	default:
		snprintf(out, size, "%s", u->why);
	}
}
