/*
 * Printing the fleet's ranking (fleet_out.h): the columns and units of the
 * one-host reports (capacity_out.c, chargeback_out.c), with the host's name.
 */
#include "fleet_out.h"
#include "capacity.h"

#include <math.h>

/* The rows printed of n: the first top. */
static int shown(int top, int n)
{
	return top > 0 && top < n ? top : n;
}

static int with_figures(const struct fleet *fl)
{
	int n = 0;

	for (int i = 0; i < fl->nhosts; i++)
		n += fl->hosts[i].error[0] == '\0';
	return n;
}

static void heading(FILE *f, const struct fleet *fl, const char *report)
{
	char a[32], b[32];

	out_time(a, sizeof a, fl->start);
	out_time(b, sizeof b, fl->end);
	fprintf(f, "pcp smtcpu %s: %d host%s of the store at %s, %d with figures\n", report, fl->nhosts,
		fl->nhosts == 1 ? "" : "s", fl->url, with_figures(fl));
	fprintf(f, "window %s to %s (%.2f h)\n\n", a, b, (fl->end - fl->start) / 3600);
}

/* Each host's covered hours, then what was not covered, and why a host
 * has no figures. */
static void hosts_text(FILE *f, const struct fleet *fl)
{
	fprintf(f, "\n%-28s %10s %5s\n", "host", "covered-h", "gaps");
	for (int i = 0; i < fl->nhosts; i++) {
		const struct fleet_host *h = &fl->hosts[i];

		fprintf(f, "%-28.28s ", h->name);
		if (h->error[0])
			fprintf(f, "%10s %5s\n", "-", "-");
		else
			fprintf(f, "%10.4f %5d\n", h->covered / 3600, h->ngaps);
	}
}

/* The hosts the figures leave out: those with none, those no query can
 * name, and those the store holds none of smtcpu's figures for (on one
 * line: a store may hold many hosts that run no smtcpu). */
static void left_out_text(FILE *f, const struct fleet *fl)
{
	const struct store_hosts *st = &fl->store;

	for (int i = 0; i < fl->nhosts; i++)
		if (fl->hosts[i].error[0])
			fprintf(f, "no figures: %s: %s\n", fl->hosts[i].name, fl->hosts[i].error);
	for (int i = 0; i < st->nodd; i++)
		fprintf(f, "not read: %s: a host name no pmseries query can carry\n", st->odd[i]);
	if (st->nwithout == 0)
		return;
	fprintf(f, "not counted: %d host%s the store holds none of smtcpu's figures for:", st->nwithout,
		st->nwithout == 1 ? "" : "s");
	for (int i = 0; i < st->nwithout; i++)
		fprintf(f, "%s %s", i ? "," : "", st->without[i]);
	fputc('\n', f);
}

static void notes_text(FILE *f, const struct fleet *fl)
{
	for (int i = 0; i < fl->nhosts; i++) {
		const struct fleet_host *h = &fl->hosts[i];

		if (h->bridged)
			fprintf(f, "%s: pmlogger stopped and started again %d time%s within two samples' time: counted\n",
				h->name, h->bridged, h->bridged == 1 ? "" : "s");
		for (int k = 0; k < h->ngaps; k++)
			out_gap_text(f, h->name, &h->gaps[k]);
	}
	left_out_text(f, fl);
}

void fleet_lacking_text(FILE *f, const struct fleet *fl)
{
	for (int i = 0; i < fl->nhosts; i++)
		for (int k = 0; k < fl->hosts[i].ngaps; k++)
			if (fl->hosts[i].gaps[k].lacking)
				out_gap_text(f, fl->hosts[i].name, &fl->hosts[i].gaps[k]);
	left_out_text(f, fl);
}

static void names_json(FILE *f, char *const *names, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		out_json_string(f, names[i]);
	}
	fputc(']', f);
}

static void hosts_json(FILE *f, const struct fleet *fl)
{
	fputs(",\"hosts\":[", f);
	for (int i = 0; i < fl->nhosts; i++) {
		const struct fleet_host *h = &fl->hosts[i];

		fputs(i ? ",{\"host\":" : "{\"host\":", f);
		out_json_string(f, h->name);
		fputs(",\"covered_seconds\":", f);
		out_json_number(f, h->error[0] ? NAN : h->covered);
		fprintf(f, ",\"pmlogger_breaks_crossed\":%d,\"gaps\":", h->bridged);
		out_gap_list_json(f, h->gaps, h->ngaps);
		fputs(",\"error\":", f);
		if (h->error[0])
			out_json_string(f, h->error);
		else
			fputs("null", f);
		fputc('}', f);
	}
	fputs("],\"not_read\":", f);
	names_json(f, fl->store.odd, fl->store.nodd);
	fputs(",\"not_counted\":", f);
	names_json(f, fl->store.without, fl->store.nwithout);
}

static void field(FILE *f, const char *name, double v)
{
	fprintf(f, ",\"%s\":", name);
	out_json_number(f, v);
}

static void capacity_text(FILE *f, const struct fleet *fl, int n)
{
	bool lpar = false;

	for (int i = 0; i < n; i++)
		lpar |= !isnan(fl->days[i].physc);
	heading(f, fl, "capacity");
	fprintf(f, "the %d host%s with the least capacity left at %s\n\n", n, n == 1 ? "" : "s",
		isnan(fl->percentile) ? "their day's peak hour" : "a day's percentile");
	fprintf(f, "%-28s %-10s %8s %8s %8s %8s", "host", "date", "peak-at", "used", "left", "capacity");
	if (lpar)
		fprintf(f, " %7s %8s %7s %9s", "physc", "entitled", "%entc", "pool-idle");
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		const struct fleet_day *d = &fl->days[i];
		const double v[DAY_FIGURES] = { d->used, d->left, d->cap, d->physc, d->entitled, d->entc_pct,
						d->pool_idle };
		char at[32];

		out_hour_minute(at, sizeof at, d->peak_start);
		fprintf(f, "%-28.28s %-10s %8s", fl->hosts[d->host].name, d->date, at);
		out_text_figures(f, v, DAY_TEXT_WIDTHS, DAY_TEXT_DECIMALS, lpar ? DAY_FIGURES : DAY_BASE_FIGURES);
		fputc('\n', f);
	}
	hosts_text(f, fl);
	fputc('\n', f);
	if (isnan(fl->percentile))
		fprintf(f, "used: SMT-calibrated cores in the host's peak clock hour of the day with the least left; "
			"left = capacity - used (pcp smtcpu capacity --hostname HOST, each day)\n");
	else
		fprintf(f, "used: each day's %gth percentile of SMT-calibrated cores, the day with the least left "
			"shown; left = capacity - used\n", fl->percentile);
	notes_text(f, fl);
}

static void capacity_csv(FILE *f, const struct fleet *fl, int n)
{
	fprintf(f, "host,date,peak_start[s since 1970],used_cores[cores],left_cores[cores],capacity_cores[cores],"
		"physc[cores],entitlement[cores],entc[%%],pool_idle_cores[cores]\n");
	for (int i = 0; i < n; i++) {
		const struct fleet_day *d = &fl->days[i];
		const double v[DAY_FIGURES] = { d->used, d->left, d->cap, d->physc, d->entitled, d->entc_pct,
						d->pool_idle };

		out_csv_string(f, fl->hosts[d->host].name);
		fprintf(f, ",%s,", d->date);
		out_figure(f, d->peak_start, 0, 0, OUT_CSV);
		out_csv_figures(f, v, DAY_CSV_DECIMALS, DAY_FIGURES);
		fputc('\n', f);
	}
}

static void capacity_json(FILE *f, const struct fleet *fl, int n, int top)
{
	fputs("{\"report\":\"capacity\",\"fleet\":true,\"pmproxy\":", f);
	out_json_string(f, fl->url);
	field(f, "percentile", fl->percentile);
	field(f, "start", fl->start);
	field(f, "end", fl->end);
	fprintf(f, ",\"top\":%d", top);
	hosts_json(f, fl);
	fputs(",\"units\":{\"used_cores\":\"SMT-calibrated cores\",\"peak_start\":\"seconds since 1970\","
	      "\"entc_pct\":\"%\"},\"rows\":[", f);
	for (int i = 0; i < n; i++) {
		const struct fleet_day *d = &fl->days[i];

		fputs(i ? ",{\"host\":" : "{\"host\":", f);
		out_json_string(f, fl->hosts[d->host].name);
		fputs(",\"date\":", f);
		out_json_string(f, d->date);
		field(f, "peak_start", d->peak_start);
		field(f, "used_cores", d->used);
		field(f, "left_cores", d->left);
		field(f, "capacity_cores", d->cap);
		field(f, "physc", d->physc);
		field(f, "entitlement", d->entitled);
		field(f, "entc_pct", d->entc_pct);
		field(f, "pool_idle_cores", d->pool_idle);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

void fleet_capacity_print(FILE *f, enum out_format format, const struct fleet *fl, int top)
{
	int n = shown(top, fl->ndays);

	switch (format) {
	case OUT_TEXT: capacity_text(f, fl, n); break;
	case OUT_CSV: capacity_csv(f, fl, n); break;
	case OUT_JSON: capacity_json(f, fl, n, top); break;
	}
}

static void chargeback_text(FILE *f, const struct fleet *fl, int n)
{
	const char *by = fl->by == BY_PROCESS ? "process" : "service";

	heading(f, fl, "chargeback");
	fprintf(f, "the %d %s%s with the most core-hours, by %s\n\n", n, fl->by == BY_PROCESS ? "process" : "service",
		n == 1 ? "" : fl->by == BY_PROCESS ? "es" : "s", fl->by == BY_PROCESS ? "process" : "cgroup");
	fprintf(f, "%-28s %10s %10s %10s %10s %5s\n", by, "core-h", "lower", "upper", "cpu-h", "hosts");
	for (int i = 0; i < n; i++) {
		const struct fleet_service *s = &fl->services[i];

		fprintf(f, "%-28.28s ", s->name);
		out_figure(f, s->core_h, 10, 4, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, s->lower_h, 10, 4, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, s->upper_h, 10, 4, OUT_TEXT);
		fputc(' ', f);
		out_figure(f, s->cpu_h, 10, 4, OUT_TEXT);
		fprintf(f, " %5d\n", s->hosts);
	}
	hosts_text(f, fl);
	fputc('\n', f);
	fprintf(f, "core-h: SMT-calibrated core-hours summed over the hosts the %s ran on, as pcp smtcpu chargeback "
		"--hostname HOST charges each (bounds: lower, upper); cpu-h: busy CPU-hours\n", by);
	notes_text(f, fl);
}

static void chargeback_csv(FILE *f, const struct fleet *fl, int n)
{
	fprintf(f, "name,core_hours[core-h],core_hours_lower[core-h],core_hours_upper[core-h],cpu_hours[cpu-h],"
		"hosts\n");
	for (int i = 0; i < n; i++) {
		const struct fleet_service *s = &fl->services[i];

		out_csv_string(f, s->name);
		fputc(',', f);
		out_figure(f, s->core_h, 0, 6, OUT_CSV);
		fputc(',', f);
		out_figure(f, s->lower_h, 0, 6, OUT_CSV);
		fputc(',', f);
		out_figure(f, s->upper_h, 0, 6, OUT_CSV);
		fputc(',', f);
		out_figure(f, s->cpu_h, 0, 6, OUT_CSV);
		fprintf(f, ",%d\n", s->hosts);
	}
}

static void chargeback_json(FILE *f, const struct fleet *fl, int n, int top)
{
	fputs("{\"report\":\"chargeback\",\"fleet\":true,\"pmproxy\":", f);
	out_json_string(f, fl->url);
	fprintf(f, ",\"by\":\"%s\"", fl->by == BY_PROCESS ? "process" : "cgroup");
	field(f, "start", fl->start);
	field(f, "end", fl->end);
	fprintf(f, ",\"top\":%d", top);
	hosts_json(f, fl);
	fputs(",\"units\":{\"core_hours\":\"core-hours\",\"cpu_hours\":\"CPU-hours\",\"start\":\"seconds since 1970\"},"
	      "\"rows\":[", f);
	for (int i = 0; i < n; i++) {
		const struct fleet_service *s = &fl->services[i];

		fputs(i ? ",{\"name\":" : "{\"name\":", f);
		out_json_string(f, s->name);
		field(f, "core_hours", s->core_h);
		field(f, "core_hours_lower", s->lower_h);
		field(f, "core_hours_upper", s->upper_h);
		field(f, "cpu_hours", s->cpu_h);
		fprintf(f, ",\"hosts\":%d}", s->hosts);
	}
	fputs("]}\n", f);
}

void fleet_chargeback_print(FILE *f, enum out_format format, const struct fleet *fl, int top)
{
	int n = shown(top, fl->nservices);

	switch (format) {
	case OUT_TEXT: chargeback_text(f, fl, n); break;
	case OUT_CSV: chargeback_csv(f, fl, n); break;
	case OUT_JSON: chargeback_json(f, fl, n, top); break;
	}
}
