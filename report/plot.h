/*
 * The reports drawn with cairo into a PNG or an SVG (by the file's name):
 * the chargeback as each service's cores over the window, stacked, under
 * the capacity line, the system's bounds shaded; the capacity report as
 * the daily figures, the fitted trend and its band, and the capacity.
 */
#ifndef SMTCPU_PLOT_H
#define SMTCPU_PLOT_H

#include "capacity.h"
#include "chargeback.h"
#include "samples.h"

/* 0, or -1 with a message on stderr. */
int plot_chargeback(const char *file, const struct sample_reader *r, const struct charge_table *t);
int plot_capacity(const char *file, const struct sample_reader *r, const struct capacity_report *c);

#endif
