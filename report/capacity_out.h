/*
 * The capacity report as text, CSV or JSON: a row a day, then the trends.
 */
#ifndef SMTCPU_CAPACITY_OUT_H
#define SMTCPU_CAPACITY_OUT_H

#include <stdio.h>

#include "capacity.h"
#include "report_out.h"
#include "samples.h"

void capacity_print(FILE *f, enum out_format format, const struct sample_reader *r, const struct ledger *l,
		    const struct capacity_report *c, double percentile);

#endif
