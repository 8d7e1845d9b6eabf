#include "pfmlookup.h"

#include <errno.h>
#include <perfmon/pfmlib.h>
#include <string.h>

static int find_umask(int idx, int nattrs, const char *umask, uint64_t *umask_code)
{
	for (int a = 0; a < nattrs; a++) {
		pfm_event_attr_info_t ai;

		memset(&ai, 0, sizeof ai);
		ai.size = sizeof ai;
		if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) == PFM_SUCCESS &&
		    ai.type == PFM_ATTR_UMASK && strcmp(ai.name, umask) == 0) {
			*umask_code = ai.code;
			return 0;
		}
	}
	return -ENOENT;
}

int pfm_lookup(const char *pmu, const char *event, const char *umask, uint64_t *code,
	       uint64_t *umask_code)
{
	static int initialised;

	if (!initialised && pfm_initialize() != PFM_SUCCESS)
		return -ENOENT;
	initialised = 1;
	for (int p = 0; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t pi;

		memset(&pi, 0, sizeof pi);
		pi.size = sizeof pi;
		if (pfm_get_pmu_info((pfm_pmu_t)p, &pi) != PFM_SUCCESS || strcmp(pi.name, pmu) != 0)
			continue;
		for (int i = pi.first_event; i != -1; i = pfm_get_event_next(i)) {
			pfm_event_info_t ei;

			memset(&ei, 0, sizeof ei);
			ei.size = sizeof ei;
			if (pfm_get_event_info(i, PFM_OS_NONE, &ei) != PFM_SUCCESS ||
			    strcmp(ei.name, event) != 0)
				continue;
			*code = ei.code;
			*umask_code = 0;
			return umask ? find_umask(i, ei.nattrs, umask, umask_code) : 0;
		}
	}
	return -ENOENT;
}
