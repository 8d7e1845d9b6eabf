/*
 * The reports' time window from PCP's options (-S, -T, -A, -O), against
 * the times a reader's samples run between.
 */
#ifndef SMTCPU_TIME_WINDOW_H
#define SMTCPU_TIME_WINDOW_H

#include <stddef.h>

#include "samples.h"

/* The window w asks for, where the samples run from first to last
 * (seconds since the epoch): 0 with *start and *end; -1 with err set
 * where w is not understood or holds none of them (held names what runs
 * from first to last, "the archives run"). */
int time_window(const struct window_args *w, double first, double last, const char *held, double *start,
		double *end, char *err, size_t errlen);

/* t as "YYYY-MM-DD HH:MM:SS" in the reports' zone (pmLocaltime's). */
void time_stamp(char *buf, size_t len, double t);

#endif
