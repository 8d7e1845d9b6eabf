#include "mux.h"

int mux_plan(int nunits, int per_unit, int counters, int *group_of)
{
	int per_group, ngroups;

	if (per_unit < 1 || per_unit > counters || nunits < 1)
		return -1;
	per_group = counters / per_unit;		/* units a group can hold */
	ngroups = (nunits + per_group - 1) / per_group;
	/* Balanced: group g takes units [g·n/G, (g+1)·n/G). */
	for (int g = 0; g < ngroups; g++)
		for (int u = g * nunits / ngroups; u < (g + 1) * nunits / ngroups; u++)
			group_of[u] = g;
	return ngroups;
}

enum mux_window mux_estimate(const struct ctr_reading *prev, const struct ctr_reading *now,
			     int n, double *est, double *duty)
{
	const uint64_t mask = (UINT64_C(1) << MUX_COUNTER_BITS) - 1;
	uint64_t enabled, running;

	if (now->enabled < prev->enabled || now->running < prev->running)
		return MUX_RESET;
	enabled = now->enabled - prev->enabled;
	running = now->running - prev->running;
	if (enabled == 0)
		return MUX_NO_TIME;
	if (running == 0)
		return MUX_NOT_RUN;
	if (running > enabled)
		running = enabled;
	for (int i = 0; i < n; i++)
		est[i] = (double)((now->value[i] - prev->value[i]) & mask) *
			 ((double)enabled / (double)running);
	*duty = (double)running / (double)enabled;
	return MUX_COUNTED;
}
