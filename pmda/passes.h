/*
 * When the PMDA passes (pmda/passes.c).
 */
#ifndef SMTCPU_PMDA_PASSES_H
#define SMTCPU_PMDA_PASSES_H

#include <stdbool.h>

extern double last_pass;	/* monotonic seconds of the last pass */

/* Passes only when a store asks (smtcpu.control.period "told"). */
bool passes_told(void);
/* The sampling period, seconds. */
double period_s(void);
/* Each cluster's instance domains brought up to date. */
void refresh_instances(void);
/* One pass now, each cluster's instances refreshed after it. */
void sample_now(void);
/* Whether the last pass is too old to serve a client's request. */
bool pass_due(void);
/* Sleeps until fresh has gone by since the last pass. */
void wait_out_fresh(void);

#endif
