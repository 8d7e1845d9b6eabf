/*
 * Printing the chargeback.
 */
#include "chargeback_out.h"

#include <math.h>

static const char *const kinds[] = { [ROW_SERVICE] = "service", [ROW_OTHER] = "other", [ROW_IDLE] = "idle" };

static void print_text(FILE *f, const struct sample_reader *r, const struct ledger *l,
		       const struct charge_table *t, enum sample_by by)
{
	char a[32], b[32];
	double wall;

	out_time(a, sizeof a, r->start);
	out_time(b, sizeof b, r->end);
	fprintf(f, "pcp smtcpu chargeback: host %s, by %s\n", r->host, by == BY_PROCESS ? "process" : "cgroup");
	fprintf(f, "window %s to %s (%.2f h), covered %.2f h, %g core%s\n\n", a, b, (r->end - r->start) / 3600,
		t->covered_h, t->cores, t->cores == 1 ? "" : "s");
	fprintf(f, "%-28s %10s %10s %10s %10s %7s %6s\n", by == BY_PROCESS ? "process" : "service", "core-h",
		"lower", "upper", "cpu-h", "share%", "ratio");
	for (int i = 0; i < t->nrows; i++) {
		const struct charge_row *row = &t->rows[i];

		fprintf(f, "%-28.28s ", row->name);
		out_figure(f, row->core_h, 10, 4, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, row->lower_h, 10, 4, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, row->upper_h, 10, 4, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, row->cpu_h, 10, 4, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, row->share_pct, 7, 1, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, row->ratio, 6, 3, OUT_TEXT);
		fputc('\n', f);
	}
	fprintf(f, "%-28s %10.4f %43.1f\n\n", "total", t->total_h, t->capacity_h > 0 ? 100 * t->total_h / t->capacity_h : NAN);
	fprintf(f, "services + other + idle = %.4f core-h; the capacity over the covered time (smt.all.capacity) "
		"= %.4f core-h: %+.2f%%, %s %.1f%%\n", t->total_h, t->capacity_h, t->difference_pct,
		fabs(t->difference_pct) <= RECONCILE_PCT ? "within" : "NOT within", RECONCILE_PCT);
	wall = t->cores * t->covered_h;
	if (wall > 0 && fabs(wall - t->capacity_h) > wall * 1e-3)
		fprintf(f, "capacity: %g core%s x %.4f h = %.4f core-h by the clock, %+.2f%%: time /proc/stat's ticks did "
			"not count (a guest's missed ticks, a hypervisor's steal) or threads offline\n", t->cores, t->cores == 1 ? "" : "s",
			t->covered_h, wall, 100 * (t->capacity_h - wall) / wall);
	fprintf(f, "core-h: SMT-calibrated core-hours (bounds: lower, upper); cpu-h: busy CPU-hours as "
		"CPU%% counts them; ratio = core-h / cpu-h\n");
	if (t->overcharged_h > 0)
		fprintf(f, "the services were charged %.4f core-h more than the system counted: other is 0\n",
			t->overcharged_h);
	out_gaps_text(f, l);
}

static void print_csv(FILE *f, const struct charge_table *t)
{
	fprintf(f, "name,kind,instance,core_hours[core-h],core_hours_lower[core-h],core_hours_upper[core-h],"
		"cpu_hours[cpu-h],share[%%],ratio[core-h/cpu-h]\n");
	for (int i = 0; i < t->nrows; i++) {
		const struct charge_row *row = &t->rows[i];

		out_csv_string(f, row->name);
		fprintf(f, ",%s,", kinds[row->kind]);
		if (row->instance)
			out_csv_string(f, row->instance);
		fputc(',', f);
		out_figure(f, row->core_h, 0, 6, OUT_CSV);
		fputc(',', f);
		out_figure(f, row->lower_h, 0, 6, OUT_CSV);
		fputc(',', f);
		out_figure(f, row->upper_h, 0, 6, OUT_CSV);
		fputc(',', f);
		out_figure(f, row->cpu_h, 0, 6, OUT_CSV);
		fputc(',', f);
		out_figure(f, row->share_pct, 0, 4, OUT_CSV);
		fputc(',', f);
		out_figure(f, row->ratio, 0, 6, OUT_CSV);
		fputc('\n', f);
	}
}

static void field(FILE *f, const char *name, double v)
{
	fprintf(f, ",\"%s\":", name);
	out_json_number(f, v);
}

static void print_json(FILE *f, const struct sample_reader *r, const struct ledger *l,
		       const struct charge_table *t, enum sample_by by)
{
	fputs("{\"report\":\"chargeback\",\"host\":", f);
	out_json_string(f, r->host);
	fprintf(f, ",\"by\":\"%s\"", by == BY_PROCESS ? "process" : "cgroup");
	field(f, "start", r->start);
	field(f, "end", r->end);
	field(f, "covered_seconds", l->covered);
	fputs(",\"pmlogger_breaks_crossed\":", f);
	out_gaps_json(f, l);
	fputs(",\"units\":{\"core_hours\":\"core-hours\",\"cpu_hours\":\"CPU-hours\",\"share_pct\":\"%\","
	      "\"ratio\":\"core-hours per CPU-hour\",\"start\":\"seconds since 1970\"},\"rows\":[", f);
	for (int i = 0; i < t->nrows; i++) {
		const struct charge_row *row = &t->rows[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		out_json_string(f, row->name);
		fprintf(f, ",\"kind\":\"%s\",\"instance\":", kinds[row->kind]);
		if (row->instance)
			out_json_string(f, row->instance);
		else
			fputs("null", f);
		field(f, "core_hours", row->core_h);
		field(f, "core_hours_lower", row->lower_h);
		field(f, "core_hours_upper", row->upper_h);
		field(f, "cpu_hours", row->cpu_h);
		field(f, "share_pct", row->share_pct);
		field(f, "ratio", row->ratio);
		fputc('}', f);
	}
	fputs("],\"total\":{\"core_hours\":", f);
	out_json_number(f, t->total_h);
	field(f, "capacity_core_hours", t->capacity_h);
	field(f, "cores", t->cores);
	field(f, "covered_hours", t->covered_h);
	field(f, "difference_pct", t->difference_pct);
	field(f, "cores_x_covered_hours", t->cores * t->covered_h);
	field(f, "overcharged_core_hours", t->overcharged_h);
	fputs("}}\n", f);
}

void chargeback_print(FILE *f, enum out_format format, const struct sample_reader *r, const struct ledger *l,
		      const struct charge_table *t, enum sample_by by)
{
	switch (format) {
	case OUT_TEXT: print_text(f, r, l, t, by); break;
	case OUT_CSV: print_csv(f, t); break;
	case OUT_JSON: print_json(f, r, l, t, by); break;
	}
}
