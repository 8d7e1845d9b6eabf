/*
 * The chargeback table as text (atopsar's manner), CSV or JSON: the same
 * rows and fields in each, units in the header.
 */
#ifndef SMTCPU_CHARGEBACK_OUT_H
#define SMTCPU_CHARGEBACK_OUT_H

#include <stdio.h>

#include "chargeback.h"
#include "report_out.h"
#include "samples.h"

/* Most the rows may differ from the capacity and still be said to add up. */
#define RECONCILE_PCT 0.5

void chargeback_print(FILE *f, enum out_format format, const struct sample_reader *r, const struct ledger *l,
		      const struct charge_table *t, enum sample_by by);

#endif
