/*
 * The reports' shared printing.
 */
#include "report_out.h"

#include <math.h>
#include <pcp/pmapi.h>
#include <string.h>
#include <time.h>

static void local_time(char *buf, size_t len, double t, const char *format)
{
	time_t tt = (time_t)floor(t);
	struct tm tm;

	pmLocaltime(&tt, &tm);
	strftime(buf, len, format, &tm);
}

void out_time(char *buf, size_t len, double t)
{
	local_time(buf, len, t, "%Y-%m-%d %H:%M:%S");
}

void out_hour_minute(char *buf, size_t len, double t)
{
	local_time(buf, len, t, "%H:%M");
}

void out_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void out_json_number(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.6f", v);
}

void out_csv_string(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void out_figure(FILE *f, double v, int width, int decimals, enum out_format format)
{
	if (format == OUT_CSV) {
		if (!isnan(v))
			fprintf(f, "%.*f", decimals, v);
	} else if (isnan(v))
		fprintf(f, "%*s", width, "-");
	else
		fprintf(f, "%*.*f", width, decimals, v);
}

void out_csv_figures(FILE *f, const double *v, const int *decimals, int n)
{
	for (int i = 0; i < n; i++) {
		fputc(',', f);
		out_figure(f, v[i], 0, decimals[i], OUT_CSV);
	}
}

void out_text_figures(FILE *f, const double *v, const int *widths, const int *decimals, int n)
{
	for (int i = 0; i < n; i++) {
		fputc(' ', f);
		out_figure(f, v[i], widths[i], decimals[i], OUT_TEXT);
	}
}

void out_gap_text(FILE *f, const char *host, const struct gap *g)
{
	char a[32], b[32];

	out_time(a, sizeof a, g->t0);
	out_time(b, sizeof b, g->t1);
	fprintf(f, "not covered: %s%s%s to %s (%.0f s): %s\n", host ? host : "", host ? ": " : "", a, b, g->t1 - g->t0,
		g->why);
}

void out_gaps_text(FILE *f, const struct ledger *l)
{
	if (l->bridged)
		fprintf(f, "pmlogger stopped and started again %d time%s within two samples' time (a daily rotation): "
			"the agent's counters ran on across, so that time is counted\n", l->bridged,
			l->bridged == 1 ? "" : "s");
	for (int i = 0; i < l->ngaps; i++)
		out_gap_text(f, NULL, &l->gaps[i]);
}

void out_gap_list_json(FILE *f, const struct gap *gaps, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s{\"start\":", i ? "," : "");
		out_json_number(f, gaps[i].t0);
		fputs(",\"end\":", f);
		out_json_number(f, gaps[i].t1);
		fputs(",\"seconds\":", f);
		out_json_number(f, gaps[i].t1 - gaps[i].t0);
		fputs(",\"reason\":", f);
		out_json_string(f, gaps[i].why);
		fputc('}', f);
	}
	fputc(']', f);
}

void out_gaps_json(FILE *f, const struct ledger *l)
{
	fprintf(f, "%d,\"gaps\":", l->bridged);
	out_gap_list_json(f, l->gaps, l->ngaps);
}
