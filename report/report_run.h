/*
 * One reader's report: every record into the ledger, then the
 * chargeback's table or the capacity's days.  pcp_smtcpu prints one
 * host's; fleet ranks many hosts' figures, each made here the same way.
 */
#ifndef SMTCPU_REPORT_RUN_H
#define SMTCPU_REPORT_RUN_H

#include <stddef.h>

#include "capacity.h"
#include "chargeback.h"
#include "ledger.h"
#include "samples.h"

struct charge_run {
	struct chargeback c;
	struct ledger l;
	struct charge_table t;
};

struct capacity_run {
	struct capacity c;
	struct ledger l;
	struct capacity_report rep;
};

/* 0, or -1 with err set: the reader's error, no samples in the window, out
 * of memory.  Either way the run is for *_run_free. */
int charge_run(struct charge_run *run, struct sample_reader *r, enum sample_by by, char *err, size_t errlen);
int capacity_run(struct capacity_run *run, struct sample_reader *r, double percentile, int horizon, char *err,
		 size_t errlen);

void charge_run_free(struct charge_run *run);
void capacity_run_free(struct capacity_run *run);

#endif
