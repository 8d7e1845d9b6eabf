/*
 * The one way the reports read smtcpu's samples, whatever holds them: a
 * stream of records in time order, each the values of the figures below
 * at one time.  pmapi_samples.c reads archives and live hosts through
 * libpcp; a reader for pmproxy's series has only to fill the same records.
 */
#ifndef SMTCPU_SAMPLES_H
#define SMTCPU_SAMPLES_H

#include <stdbool.h>

/* The figures the reports use.  SVC_* are per service: smt.cgroup.* or
 * smt.proc.* as the reader was opened (enum sample_by). */
enum figure {
	FIG_CAPACITY,		/* smt.all.capacity, ms counter */
	FIG_CAPACITY_LEFT,	/* smt.all.capacity_left */
	FIG_THROUGHPUT,		/* smt.all.throughput_cpu */
	FIG_LOWER,		/* smt.all.throughput_cpu_lower */
	FIG_UPPER,		/* smt.all.throughput_cpu_upper */
	FIG_NCORES,		/* smt.all.ncores, instant */
	FIG_CPU_BUSY,		/* smt.busy_cpu, per CPU, ms counter */
	FIG_LPAR_PURR,		/* lpar.purr, us counter */
	FIG_LPAR_TBR,		/* lpar.tbr, us counter */
	FIG_LPAR_POOL_IDLE,	/* lpar.pool.idle_time, us counter */
	FIG_LPAR_ENTITLED,	/* lpar.entitled_capacity, instant */
	FIG_ALL_BUSY,		/* smt.all.busy_cpu, ms counter: FIG_CPU_BUSY's sum,
				   where the per-CPU metric was not kept */
	FIG_SVC_THROUGHPUT,	/* smt.{cgroup,proc}.throughput_cpu, per service */
	FIG_SVC_LOWER,
	FIG_SVC_UPPER,
	FIG_SVC_BUSY,		/* smt.{cgroup,proc}.busy_cpu */
	NFIGURES
};

enum sample_by { BY_CGROUP, BY_PROCESS };

/* The time window, as PCP's tools take it (-S, -T, -A, -O; NULL where not
 * given). */
struct window_args {
	const char *start, *finish, *align, *offset;
};

/* The metric each figure is read from. */
const char *figure_metric(enum figure f, enum sample_by by);

/* True for the figures that have instances (CPUs, services). */
bool figure_has_instances(enum figure f);

/* Samples a reader knows to be lacking (the store lost them), rather than
 * never taken. */
struct lack {
	double from, to;	/* the first and last time lacking */
	char why[200];		/* "" for none */
};

struct observation {
	enum figure figure;
	const char *instance;	/* NULL for a figure without instances; valid
				   until the next record */
	double value;
};

struct record {
	double time;		/* seconds since the epoch */
	bool mark;		/* a break before this record: what was logged
				   before and after are not one run */
	bool lacking;		/* with mark: the samples before this record are
				   lacking (the store lost them), a gap however
				   short, never a break the counters ran across */
	double lack_from;	/* with lacking: the first time lacking */
	const char *why;	/* the break's cause, when mark */
	int digits;		/* the significant digits the values were
				   rounded to on the way (the key-value store
				   keeps 7), 0: as the agent counted them */
	int nobs;
	const struct observation *obs;	/* valid until the next record */
	/* An instance's name is the same pointer in every record of one
	 * names_gen, so a reader of many records may know it by its address. */
	unsigned int names_gen;
};

struct sample_reader {
	/* The next record: 1, 0 at the end, or -1 with error set. */
	int (*next)(struct sample_reader *r, struct record *rec);
	void (*close)(struct sample_reader *r);
	char host[256];		/* the host the samples are of */
	double start, end;	/* the window asked for, seconds since the epoch */
	/* The samples lacking after its last record, if any (why ""). */
	struct lack end_lack;
	char error[1024];
};

#endif
