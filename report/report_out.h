/*
 * What both reports print alike: the formats, times in the reports'
 * timezone, JSON's strings and numbers, and the uncovered time.
 */
#ifndef SMTCPU_REPORT_OUT_H
#define SMTCPU_REPORT_OUT_H

#include <stdio.h>

#include "ledger.h"

enum out_format { OUT_TEXT, OUT_CSV, OUT_JSON };

/* t (seconds since the epoch) as "YYYY-MM-DD HH:MM:SS" in the reports' zone. */
void out_time(char *buf, size_t len, double t);

/* s as a JSON string, quoted and escaped. */
void out_json_string(FILE *f, const char *s);

/* v as a JSON number with up to 6 decimals, or null where NAN. */
void out_json_number(FILE *f, double v);

/* s as a CSV field, quoted where it must be. */
void out_csv_string(FILE *f, const char *s);

/* v as a text or CSV figure with `decimals`, or "-" (text) / "" (CSV) where NAN. */
void out_figure(FILE *f, double v, int width, int decimals, enum out_format format);

/* t as "HH:MM" in the reports' zone. */
void out_hour_minute(char *buf, size_t len, double t);

/* Each of n figures as ",FIGURE" on a CSV row, v[i] to decimals[i]. */
void out_csv_figures(FILE *f, const double *v, const int *decimals, int n);

/* Each of n figures as " FIGURE" on a text row, v[i] in widths[i] columns
 * to decimals[i]. */
void out_text_figures(FILE *f, const double *v, const int *widths, const int *decimals, int n);

/* The gaps: lines "not covered: ..." and the breaks crossed (text); for
 * JSON, the breaks crossed then ,"gaps":[...] (after a member's name). */
void out_gaps_text(FILE *f, const struct ledger *l);
void out_gaps_json(FILE *f, const struct ledger *l);

/* One gap's line "not covered: [HOST: ]..." (host NULL: none), and a list
 * of gaps as a JSON array. */
void out_gap_text(FILE *f, const char *host, const struct gap *g);
void out_gap_list_json(FILE *f, const struct gap *gaps, int n);

#endif
