/*
 * Which factor table fits a core, from the processor and the number of
 * threads online on that core.
 */
#ifndef SMTCPU_MODELCHOICE_H
#define SMTCPU_MODELCHOICE_H

#include "config.h"
#include "cpuinfo.h"
#include "smtmodel.h"

/* The name of a built-in table.  The family's table with the fewest threads
 * that still covers nthreads; "none" for one thread, or for a processor we
 * have no figures for (then each thread counts as a core). */
const char *smt_choose_model(const struct cpuinfo *ci, int nthreads);

/* The table a core of nthreads uses: the configuration's `model`, else the
 * one chosen above, as the configuration defines it (NULL if it does not). */
const struct smt_table *smt_table_for(const struct smt_config *cfg, const struct cpuinfo *ci,
				      int nthreads);

#endif
