/*
 * When the PMDA passes: a pass runs at a fetch that finds the last too old,
 * at a store that asks for one, and when a period goes by without one; and
 * each cluster's instances follow it.
 */
#include <errno.h>
#include <time.h>

#include "monoclock.h"
#include "passes.h"
#include "shared.h"

double last_pass;	/* monotonic seconds of the last pass */
/* Passes take at most one part in PASS_SHARE of a CPU, however often
 * clients fetch: the least time between passes is PASS_SHARE times a
 * pass's cost, where that is longer than the configured fresh.  The cost
 * is the least of the last PASS_COSTS passes' CPU time, so that one pass
 * slowed by a cold cache or a page fault does not stale the next fetches. */
#define PASS_SHARE 20
#define PASS_COSTS 8
static double pass_cpu[PASS_COSTS];	/* CPU seconds each cost this thread */
static unsigned npasses;

bool passes_told(void)
{
	return sampler.config.period_ms == CONFIG_PERIOD_TOLD;
}

double period_s(void)
{
	return sampler.config.period_ms / 1000.0;
}

static double thread_cpu_seconds(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How old the last pass may be and still serve a fetch. */
static double pass_gap(void)
{
	double fresh = sampler.config.fresh_ms / 1000.0, cost = pass_cpu[0];
	unsigned n = npasses < PASS_COSTS ? npasses : PASS_COSTS;

	for (unsigned i = 1; i < n; i++)
		if (pass_cpu[i] < cost)
			cost = pass_cpu[i];
	return fresh > PASS_SHARE * cost ? fresh : PASS_SHARE * cost;
}

void refresh_instances(void)
{
	double now = mono_seconds();

	for (int c = 0; c < NUM_CLUSTERS; c++)
		if (clusters[c]->refresh)
			clusters[c]->refresh(now);
}

void sample_now(void)
{
	double cpu = thread_cpu_seconds();

	sampler_pass(&sampler);
	pass_cpu[npasses++ % PASS_COSTS] = thread_cpu_seconds() - cpu;
	last_pass = mono_seconds();
	refresh_instances();
}

/* A pass asked for by a store (smtcpu.control.sample, from root alone)
 * always runs, so that a told agent reads each step a test makes, but
 * never sooner than fresh after the last: passes a second stay within
 * 1000 / fresh however a client asks. */
void wait_out_fresh(void)
{
	double wait = last_pass + sampler.config.fresh_ms / 1000.0 - mono_seconds();
	struct timespec ts;

	if (wait <= 0)
		return;
	ts.tv_sec = (time_t)wait;
	ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Whether a client's request finds the last pass too old to serve it. */
bool pass_due(void)
{
	return !passes_told() && mono_seconds() - last_pass >= pass_gap();
}

