/*
 * The fleet's ranking as text, CSV or JSON, as the reports print one host
 * (report_out): the top rows, then each host's covered time and every
 * time it was not covered, named with the host.
 */
#ifndef SMTCPU_FLEET_OUT_H
#define SMTCPU_FLEET_OUT_H

#include <stdio.h>

#include "fleet.h"
#include "report_out.h"

/* top: the rows printed, the first of the ranking. */
void fleet_capacity_print(FILE *f, enum out_format format, const struct fleet *fl, int top);
void fleet_chargeback_print(FILE *f, enum out_format format, const struct fleet *fl, int top);

/* The times the hosts' samples were lacking in the store, a line each
 * (what --csv leaves out of its rows: said on stderr). */
void fleet_lacking_text(FILE *f, const struct fleet *fl);

#endif
