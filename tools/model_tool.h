/*
 * smtcpu-model's parts: the fit report shared by --fit and --calibrate, the
 * calibration runner and its CPU kernels.
 */
#ifndef SMTCPU_MODEL_TOOL_H
#define SMTCPU_MODEL_TOOL_H

#include <stdint.h>

#include "config.h"
#include "smtfit.h"

/* What a table line and its basis line say of a fit. */
struct fit_label {
	const char *heading;		/* what the report's first line starts with */
	const char *name;		/* the table's name in smtcpu.conf */
	const char *origin;		/* "fitted" or "calibrated" */
	const char *source;		/* "from FILE" or "on HOST cpus ... with ..." */
};

/* Fits S-thread factors to the runs, free and in shape, compares them with
 * every table of S threads (built in and from cfg) and with "every busy
 * thread is a core", and prints the table and basis lines for smtcpu.conf.
 * base_fixed > 0 holds every model's base there.  Returns 0, or 1 when
 * nothing could be fitted (the reason on stderr). */
int fit_report(const struct smt_run *runs, int n, int S, double base_fixed,
	       const struct smt_config *cfg, const struct fit_label *label);

/* A CPU kernel: runs its loop in chunks until CLOCK_MONOTONIC reaches
 * deadline (seconds) and returns the operations it did. */
struct cpu_kernel {
	const char *name;
	const char *what;
	uint64_t (*run)(double deadline);
};

/* The built-in kernels, or NULL for a name none has.  prepare() readies
 * what a kernel needs before the copies fork (the pointer chase's ring). */
const struct cpu_kernel *kernel_find(const char *name);
int kernel_prepare(const struct cpu_kernel *k);
extern const char kernel_names[];	/* "int, float, chase" */


struct calibration {
	const char *kernel;		/* a built-in kernel's name, or NULL with command */
	const char *command;		/* a shell command run over and over */
	const char *cpus;		/* CPUs counted as one core's threads, or NULL */
	double seconds;			/* each measurement's length */
	int repeat;			/* measurements of each level */
	const char *name;		/* the table's name */
};

/* Runs the calibration and prints its figures and fit.  Returns 0, or 2
 * with the reason on stderr. */
int calibrate(const struct calibration *c, const struct smt_config *cfg);

#endif
