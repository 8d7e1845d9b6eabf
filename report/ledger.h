/*
 * The covered intervals of a stream of samples: between two records of one
 * run of smtcpu's counters (no break, no reset), what each counter grew by.
 * Both reports are sums over these; the time that is in none is a gap,
 * each with its cause.
 */
#ifndef SMTCPU_LEDGER_H
#define SMTCPU_LEDGER_H

#include <stdbool.h>

#include "intern.h"
#include "samples.h"

/* A service's growth over an interval, ms. */
enum { SVC_THROUGHPUT, SVC_LOWER, SVC_UPPER, SVC_BUSY, NSVC };

struct interval {
	double t0, t1;
	/* Counters: the growth (CPU_BUSY summed over the CPUs); instants
	 * (NCORES, LPAR_ENTITLED): the value at t1.  have: present at both
	 * ends (instants: at t1). */
	double sys[FIG_SVC_THROUGHPUT];
	bool have[FIG_SVC_THROUGHPUT];
	int nsvc;
	const int *svc;			/* [nsvc] service numbers (ledger.services) */
	const double (*grew)[NSVC];	/* [nsvc] */
};

struct gap {
	double t0, t1;
	bool lacking;			/* the reader lacked the samples (samples.h) */
	char why[200];
};

typedef void (*interval_fn)(void *arg, const struct interval *iv);

struct ledger {
	struct intern services, cpus;
	struct gap *gaps;
	int ngaps, gapcap;
	double covered;			/* seconds */
	int bridged;			/* pmlogger's short breaks the counters ran across */
	double first, last;		/* the first and last record's time, -1 none */
	struct lack start_lack;		/* what was lacking before the first record */
	/* private */
	interval_fn fn;
	void *arg;
	double sys_last[FIG_SVC_THROUGHPUT];
	bool sys_have[FIG_SVC_THROUGHPUT];
	double ncores;			/* the last known, 0 none */
	double *cpu_last;		/* [cpus.n] */
	long *cpu_seen;			/* [cpus.n] the record it was last in */
	double (*svc_last)[NSVC];	/* [services.n] */
	long *svc_seen;
	long *svc_epoch;		/* the run it was last seen in */
	int *svc_row;			/* its row in this record's growth ... */
	long *svc_rowseq;		/* ... if this is the record */
	int svccap, cpucap;
	long seq, epoch;
	double typical;			/* the first covered interval's length */
	/* the number each observation's instance had in the last record, by
	 * its place and address (the reader's names_gen) */
	const char **hint_name;
	int *hint_id;
	int hintcap;
	unsigned int hint_gen;
	/* this record's */
	int *touched;
	double (*grew)[NSVC];
	int ntouched, touchcap;
};

void ledger_init(struct ledger *l, interval_fn fn, void *arg);

/* One record: 0, or -1 out of memory. */
int ledger_feed(struct ledger *l, const struct record *rec);

/* After the last record: the uncovered time at the window's ends (end_lack:
 * the reader's samples lacking after its last record, NULL or its why ""
 * for none). */
int ledger_finish(struct ledger *l, double start, double end, const struct lack *end_lack);

void ledger_free(struct ledger *l);

#endif
