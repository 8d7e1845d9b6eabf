/*
 * Printing the capacity report.  The entitlement is lparcfg's current
 * partition_entitled_capacity, as lpar.util.entc has it; lparstat 1.3.13
 * divides by the profile's DesEntCap, which differs after a DLPAR change,
 * and the text says so.
 */
#include "capacity_out.h"

#include <math.h>

static void verdict(char *buf, size_t len, const struct capacity_report *c, const struct trend *t,
		    const char *target)
{
	char on[16], lo[16], hi[16];

	switch (t->verdict) {
	case TREND_TOO_FEW:
		snprintf(buf, len, "too few days (%d; a trend needs %d)", t->n, TREND_MIN_DAYS);
		return;
	case TREND_ALREADY:
		capacity_date(c, t->cross, on, sizeof on);
		snprintf(buf, len, "at %s already (%s)", target, on);
		return;
	case TREND_NOT_WITHIN:
		snprintf(buf, len, "not within %d days", t->horizon);
		return;
	case TREND_REACHES:
		capacity_date(c, t->cross, on, sizeof on);
		capacity_date(c, t->earliest, lo, sizeof lo);
		if (isnan(t->latest))
			snprintf(hi, sizeof hi, "beyond %d days", t->horizon);
		else
			capacity_date(c, t->latest, hi, sizeof hi);
		snprintf(buf, len, "reaches %s on %s (95%%: %s to %s)", target, on, lo, hi);
		return;
	}
}

static void trend_text(FILE *f, const struct capacity_report *c, const struct trend *t, const char *what,
		       const char *target)
{
	char v[160];

	verdict(v, sizeof v, c, t, target);
	if (isnan(t->slope))
		fprintf(f, "trend of %s: %s\n", what, v);
	else
		fprintf(f, "trend of %s: %+.4f cores a day (95%%: %+.4f to %+.4f) over %d days; %s\n", what,
			t->slope, t->slope_lo, t->slope_hi, t->n, v);
}

static void print_text(FILE *f, const struct sample_reader *r, const struct ledger *l,
		       const struct capacity_report *c, double percentile)
{
	char a[32], b[32], target[64];

	out_time(a, sizeof a, r->start);
	out_time(b, sizeof b, r->end);
	fprintf(f, "pcp smtcpu capacity: host %s, ", r->host);
	if (isnan(percentile))
		fprintf(f, "each day's peak hour\n");
	else
		fprintf(f, "each day's %gth percentile\n", percentile);
	fprintf(f, "window %s to %s\n\n", a, b);
	fprintf(f, "%-10s %9s %8s %8s %8s %8s", "date", "covered-h", "peak-at", "used", "left", "capacity");
	if (c->lpar)
		fprintf(f, " %7s %8s %7s %9s", "physc", "entitled", "%entc", "pool-idle");
	fputc('\n', f);
	for (int i = 0; i < c->ndays; i++) {
		const struct day *d = &c->days[i];
		const double v[DAY_FIGURES] = { d->used, d->left, d->cap, d->physc, d->entitled, d->entc_pct,
						d->pool_idle };
		char at[32] = "-";

		if (d->have)
			out_hour_minute(at, sizeof at, d->peak_start);
		fprintf(f, "%-10s %9.2f %8s", d->date, d->covered_h, at);
		out_text_figures(f, v, DAY_TEXT_WIDTHS, DAY_TEXT_DECIMALS, c->lpar ? DAY_FIGURES : DAY_BASE_FIGURES);
		fputc('\n', f);
	}
	fputc('\n', f);
	fprintf(f, "used: SMT-calibrated cores (rate of smt.all.throughput_cpu); left = capacity - used\n");
	snprintf(target, sizeof target, "capacity (%.3f cores)", c->capacity_cores);
	trend_text(f, c, &c->trend, "the daily figure", target);
	if (c->lpar) {
		snprintf(target, sizeof target, "the entitlement (%.2f)", c->entitlement);
		trend_text(f, c, &c->entitlement_trend, "physc", target);
		fprintf(f, "entitlement: lparcfg's partition_entitled_capacity, the current one%s; lparstat 1.3.13's "
			"%%entc divides by DesEntCap, the profile's, which differs after a DLPAR change\n",
			c->entitlement_changed ? " (it changed within the window)" : "");
	}
	out_gaps_text(f, l);
}

static void print_csv(FILE *f, const struct capacity_report *c)
{
	fprintf(f, "date,covered_hours[h],peak_start[s since 1970],used_cores[cores],left_cores[cores],"
		"capacity_cores[cores],physc[cores],entitlement[cores],entc[%%],pool_idle_cores[cores]\n");
	for (int i = 0; i < c->ndays; i++) {
		const struct day *d = &c->days[i];
		const double v[DAY_FIGURES] = { d->used, d->left, d->cap, d->physc, d->entitled, d->entc_pct,
						d->pool_idle };

		fprintf(f, "%s,%.4f,", d->date, d->covered_h);
		out_figure(f, d->have ? d->peak_start : NAN, 0, 0, OUT_CSV);
		out_csv_figures(f, v, DAY_CSV_DECIMALS, DAY_FIGURES);
		fputc('\n', f);
	}
}

static void field(FILE *f, const char *name, double v)
{
	fprintf(f, ",\"%s\":", name);
	out_json_number(f, v);
}

static void date_field(FILE *f, const char *name, const struct capacity_report *c, double d)
{
	char buf[16];

	fprintf(f, ",\"%s\":", name);
	if (isnan(d)) {
		fputs("null", f);
		return;
	}
	capacity_date(c, d, buf, sizeof buf);
	out_json_string(f, buf);
}

static void trend_json(FILE *f, const struct capacity_report *c, const struct trend *t, const char *target)
{
	char v[160];

	fprintf(f, "{\"days\":%d", t->n);
	field(f, "slope_cores_per_day", t->slope);
	field(f, "slope_low", t->slope_lo);
	field(f, "slope_high", t->slope_hi);
	field(f, "target_cores", t->target);
	date_field(f, "crossing_date", c, t->verdict == TREND_REACHES || t->verdict == TREND_ALREADY ? t->cross : NAN);
	date_field(f, "crossing_earliest", c, t->earliest);
	date_field(f, "crossing_latest", c, t->latest);
	verdict(v, sizeof v, c, t, target);
	fputs(",\"verdict\":", f);
	out_json_string(f, v);
	fputc('}', f);
}

static void print_json(FILE *f, const struct sample_reader *r, const struct ledger *l,
		       const struct capacity_report *c, double percentile, int horizon)
{
	fputs("{\"report\":\"capacity\",\"host\":", f);
	out_json_string(f, r->host);
	field(f, "percentile", percentile);
	fprintf(f, ",\"horizon_days\":%d", horizon);
	field(f, "start", r->start);
	field(f, "end", r->end);
	field(f, "covered_seconds", l->covered);
	field(f, "capacity_cores", c->capacity_cores);
	fputs(",\"units\":{\"used_cores\":\"SMT-calibrated cores\",\"covered_hours\":\"hours\","
	      "\"peak_start\":\"seconds since 1970\",\"entc_pct\":\"%\"},\"days\":[", f);
	for (int i = 0; i < c->ndays; i++) {
		const struct day *d = &c->days[i];

		fputs(i ? ",{\"date\":" : "{\"date\":", f);
		out_json_string(f, d->date);
		field(f, "covered_hours", d->covered_h);
		field(f, "peak_start", d->have ? d->peak_start : NAN);
		field(f, "used_cores", d->used);
		field(f, "left_cores", d->left);
		field(f, "capacity_cores", d->cap);
		field(f, "physc", d->physc);
		field(f, "entitlement", d->entitled);
		field(f, "entc_pct", d->entc_pct);
		field(f, "pool_idle_cores", d->pool_idle);
		fputc('}', f);
	}
	fputs("],\"trend\":", f);
	trend_json(f, c, &c->trend, "capacity");
	fputs(",\"entitlement_trend\":", f);
	if (c->lpar)
		trend_json(f, c, &c->entitlement_trend, "the entitlement");
	else
		fputs("null", f);
	fprintf(f, ",\"entitlement_changed\":%s,\"pmlogger_breaks_crossed\":",
		c->entitlement_changed ? "true" : "false");
	out_gaps_json(f, l);
	fputs("}\n", f);
}

void capacity_print(FILE *f, enum out_format format, const struct sample_reader *r, const struct ledger *l,
		    const struct capacity_report *c, double percentile)
{
	switch (format) {
	case OUT_TEXT: print_text(f, r, l, c, percentile); break;
	case OUT_CSV: print_csv(f, c); break;
	case OUT_JSON: print_json(f, r, l, c, percentile, c->trend.horizon); break;
	}
}
