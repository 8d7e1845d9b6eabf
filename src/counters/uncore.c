#include "uncore.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux.h"

static int encode_events(struct uncore *u)
{
	const struct uncore_spec *s = &u->spec;

	for (int unit = 0; unit < s->nunits; unit++)
		for (int k = 0; k < s->per_unit; k++) {
			struct pmu_setting set[2] = {
				{ "event", s->event[unit][k] }, { s->second_field, s->second[unit][k] }
			};
			struct ctr_event *ev = &u->ev[unit][k];
			int sts = pmu_encode(&u->pmu, set, 2, ev->config, u->why, sizeof u->why);

			if (sts < 0)
				return sts;
			ev->type = u->pmu.type;
		}
	return 0;
}

static int open_group(struct uncore *u, struct uncore_group *g, struct ctr_backend *b)
{
	struct ctr_event ev[CTR_GROUP_MAX];
	int n = 0;

	for (int unit = g->first_unit; unit < g->first_unit + g->nunits; unit++)
		for (int k = 0; k < u->spec.per_unit; k++)
			ev[n++] = u->ev[unit][k];
	g->handle = b->ops->open_group(b, u->pmu.cpu[g->cpu_index], ev, n);
	if (g->handle < 0)
		return g->handle;
	int sts = b->ops->read_group(b, g->handle, &g->last);

	return sts < 0 ? sts : 0;
}

int uncore_open(struct uncore *u, const char *pmu_name, const struct uncore_spec *spec,
		struct ctr_backend *b)
{
	int sts;

	memset(u, 0, sizeof *u);
	if ((sts = pmu_discover(&u->pmu, pmu_name, u->why, sizeof u->why)) < 0) {
		u->error = sts;
		return sts;
	}
	return uncore_open_pmu(u, &u->pmu, spec, b);
}

int uncore_open_pmu(struct uncore *u, const struct pmu *p, const struct uncore_spec *spec,
		    struct ctr_backend *b)
{
	const char *pmu_name = p->name;
	int sts, ncells, ng;

	if (p != &u->pmu) {
		memset(u, 0, sizeof *u);
		u->pmu = *p;
	}
	u->spec = *spec;
	u->error = 0;
	if ((sts = encode_events(u)) < 0)
		goto fail;
	u->ngroups = mux_plan(spec->nunits, spec->per_unit, spec->counters, u->group_of);
	if (u->ngroups < 1 || spec->per_unit > CTR_GROUP_MAX) {
		snprintf(u->why, sizeof u->why, "%s: %d events per unit do not fit on %d counters",
			 pmu_name, spec->per_unit, spec->counters);
		sts = -EINVAL;
		goto fail;
	}
	ng = u->pmu.ncpus * u->ngroups;
	ncells = u->pmu.ncpus * spec->nunits;
	u->group = calloc((size_t)ng, sizeof *u->group);
	u->total = calloc((size_t)ncells * (size_t)spec->per_unit, sizeof *u->total);
	u->window = calloc((size_t)ncells * (size_t)spec->per_unit, sizeof *u->window);
	u->duty = calloc((size_t)ncells, sizeof *u->duty);
	u->have = calloc((size_t)ncells, sizeof *u->have);
	u->fresh = calloc((size_t)ncells, sizeof *u->fresh);
	u->saturated = calloc((size_t)ncells, sizeof *u->saturated);
	if (!u->group || !u->total || !u->window || !u->duty || !u->have || !u->fresh ||
	    !u->saturated) {
		sts = -ENOMEM;
		snprintf(u->why, sizeof u->why, "out of memory");
		goto fail;
	}
	for (int i = 0; i < ng; i++)
		u->group[i].handle = -1;
	for (int i = 0; i < ng; i++) {
		struct uncore_group *g = &u->group[i];
		int gi = i % u->ngroups;

		g->cpu_index = i / u->ngroups;
		g->first_unit = -1;
		for (int unit = 0; unit < spec->nunits; unit++)
			if (u->group_of[unit] == gi) {
				if (g->first_unit < 0)
					g->first_unit = unit;
				g->nunits++;
			}
		if ((sts = open_group(u, g, b)) < 0) {
			snprintf(u->why, sizeof u->why, "%s", b->why);
			goto fail;
		}
	}
	u->open = true;
	return 0;
fail:
	u->error = sts;
	uncore_close(u, b);
	return sts;
}

/* A member at the top of its 48 bits that did not move while its group
 * counted has saturated (see uncore_spec.saturates). */
static bool stuck_at_top(const struct uncore_group *g, const struct ctr_reading *now, int i)
{
	const uint64_t top = (UINT64_C(1) << MUX_COUNTER_BITS) - 1;

	return (now->value[i] & top) == top && now->value[i] == g->last.value[i];
}

/* One group's interval: estimates into the totals, or the baseline kept. */
static int count_group(struct uncore *u, struct uncore_group *g, const struct ctr_reading *now)
{
	double est[CTR_GROUP_MAX], duty;
	int per = u->spec.per_unit, n = g->nunits * per;

	switch (mux_estimate(&g->last, now, n, est, &duty)) {
	case MUX_COUNTED:
		break;
	case MUX_NOT_RUN:
		g->not_run++;
		for (int j = 0; j < g->nunits; j++) {
			int cell = uncore_index(u, g->cpu_index, g->first_unit + j);
			u->duty[cell] = 0;
			u->fresh[cell] = 0;
		}
		return 0;
	case MUX_RESET:
		g->last = *now;
		return 0;
	case MUX_NO_TIME:
		return 0;
	}
	g->not_run = 0;
	for (int j = 0; j < g->nunits; j++) {
		int cell = uncore_index(u, g->cpu_index, g->first_unit + j);

		for (int k = 0; u->spec.saturates && !u->saturated[cell] && k < per; k++)
			if (stuck_at_top(g, now, j * per + k)) {
				u->saturated[cell] = 1;
				u->nsaturated++;
			}
		if (u->saturated[cell]) {
			u->duty[cell] = duty;
			u->fresh[cell] = 0;
			continue;
		}
		for (int k = 0; k < per; k++) {
			u->total[cell * per + k] += est[j * per + k];
			u->window[cell * per + k] = est[j * per + k];
		}
		u->duty[cell] = duty;
		u->have[cell] = 1;
		u->fresh[cell] = 1;
	}
	g->last = *now;
	return 1;
}

int uncore_read(struct uncore *u, struct ctr_backend *b)
{
	int counted = 0;

	if (!u->open)
		return 0;
	u->error = 0;
	for (int i = 0; i < u->pmu.ncpus * u->ngroups; i++) {
		struct uncore_group *g = &u->group[i];
		struct ctr_reading now;
		int sts = b->ops->read_group(b, g->handle, &now);

		if (sts < 0) {
			u->error = sts;
			snprintf(u->why, sizeof u->why, "%s", b->why);
			continue;
		}
		counted += count_group(u, g, &now);
	}
	return counted;
}

void uncore_close(struct uncore *u, struct ctr_backend *b)
{
	if (u->group)
		for (int i = 0; i < u->pmu.ncpus * u->ngroups; i++)
			if (u->group[i].handle >= 0)
				b->ops->close_group(b, u->group[i].handle);
	free(u->group);
	free(u->total);
	free(u->window);
	free(u->duty);
	free(u->have);
	free(u->fresh);
	free(u->saturated);
	u->group = NULL;
	u->total = u->window = u->duty = NULL;
	u->have = u->fresh = u->saturated = NULL;
	u->open = false;
}
