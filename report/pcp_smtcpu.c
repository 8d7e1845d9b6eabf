/*
 * pcp-smtcpu: what smtcpu's figures are for, from a host's archives or the
 * live host.
 *
 *   pcp [PCP options] smtcpu chargeback [--by cgroup|process] [--csv|--json] [--plot FILE]
 *   pcp [PCP options] smtcpu capacity [--percentile P] [--horizon DAYS] [--csv|--json] [--plot FILE]
 *
 * The samples come through samples.h's reader, the reports are sums over
 * the ledger's covered intervals; nothing is printed until all is read, so
 * an error leaves no partial table.
 */
#include "capacity.h"
#include "capacity_out.h"
#include "chargeback.h"
#include "chargeback_out.h"
#include "ledger.h"
#include "plot.h"
#include "pmapi_samples.h"

#include <math.h>
#include <pcp/pmapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum report { REPORT_NONE, REPORT_CHARGEBACK, REPORT_CAPACITY };

static pmLongOptions long_options[] = {
	PMAPI_OPTIONS_HEADER("Where the samples come from"),
	PMOPT_ARCHIVE,
	PMOPT_HOST,
	PMOPT_START,
	PMOPT_FINISH,
	PMOPT_ALIGN,
	PMOPT_ORIGIN,
	PMOPT_INTERVAL,
	PMOPT_SAMPLES,
	PMOPT_TIMEZONE,
	PMOPT_HOSTZONE,
	PMOPT_HELP,
	PMAPI_OPTIONS_HEADER("Reports: chargeback, capacity"),
	{ "by", 1, 0, "cgroup|process", "chargeback: services are cgroups (the default) or processes" },
	{ "percentile", 1, 0, "P", "capacity: each day's P-th percentile instead of its peak hour" },
	{ "horizon", 1, 0, "DAYS", "capacity: how far ahead a crossing is looked for [365]" },
	{ "csv", 0, 0, NULL, "comma-separated values, units in the header" },
	{ "json", 0, 0, NULL, "one JSON object" },
	{ "plot", 1, 0, "FILE", "also draw the report into FILE (.png or .svg)" },
	PMAPI_OPTIONS_END
};

struct settings {
	enum report report;
	enum sample_by by;
	double percentile;
	int horizon;
	enum out_format format;
	const char *plot;
};

static int option(int opt, pmOptions *opts)
{
	(void)opt;
	(void)opts;
	return 0;
}

static pmOptions opts = {
	.flags = PM_OPTFLAG_MULTI | PM_OPTFLAG_BOUNDARIES | PM_OPTFLAG_STDOUT_TZ,
	.short_options = "a:h:S:T:A:O:t:s:Z:z?",
	.long_options = long_options,
	.short_usage = "[options] chargeback|capacity",
	.override = option,
};

static double interval_seconds(const pmOptions *o)
{
#if defined(PMAPI_VERSION_3) && PMAPI_VERSION == PMAPI_VERSION_3
	return (double)o->interval.tv_sec + (double)o->interval.tv_nsec / 1e9;
#else
	return (double)o->interval.tv_sec + (double)o->interval.tv_usec / 1e6;
#endif
}

/* Report options pmGetOptions leaves to us, by their long names. */
static int report_option(const char *name, const char *arg, struct settings *s)
{
	char *end;

	if (strcmp(name, "by") == 0) {
		if (strcmp(arg, "cgroup") == 0)
			s->by = BY_CGROUP;
		else if (strcmp(arg, "process") == 0)
			s->by = BY_PROCESS;
		else {
			fprintf(stderr, "pcp-smtcpu: --by %s: cgroup or process\n", arg);
			return -1;
		}
	} else if (strcmp(name, "percentile") == 0) {
		s->percentile = strtod(arg, &end);
		if (*end || !(s->percentile > 0 && s->percentile <= 100)) {
			fprintf(stderr, "pcp-smtcpu: --percentile %s: a number above 0, at most 100\n", arg);
			return -1;
		}
	} else if (strcmp(name, "horizon") == 0) {
		long h = strtol(arg, &end, 10);

		if (*end || h < 1 || h > 100000) {
			fprintf(stderr, "pcp-smtcpu: --horizon %s: whole days, 1 to 100000\n", arg);
			return -1;
		}
		s->horizon = (int)h;
	} else if (strcmp(name, "plot") == 0)
		s->plot = arg;
	return 0;
}

static int parse(int argc, char **argv, struct settings *s)
{
	int c, bad = 0;

	while ((c = pmGetOptions(argc, argv, &opts)) != EOF) {
		if (c == 0) {	/* a long option of ours */
			const char *name = long_options[opts.index].long_opt;

			if (strcmp(name, "csv") == 0)
				s->format = OUT_CSV;
			else if (strcmp(name, "json") == 0)
				s->format = OUT_JSON;
			else if (report_option(name, opts.optarg, s) < 0)
				bad = 1;
		} else
			bad = 1;
	}
	for (int i = opts.optind; i < argc; i++) {
		if (s->report == REPORT_NONE && strcmp(argv[i], "chargeback") == 0)
			s->report = REPORT_CHARGEBACK;
		else if (s->report == REPORT_NONE && strcmp(argv[i], "capacity") == 0)
			s->report = REPORT_CAPACITY;
		else {
			fprintf(stderr, "pcp-smtcpu: %s: not a report (chargeback or capacity)\n", argv[i]);
			bad = 1;
		}
	}
	if (s->report == REPORT_NONE && !bad) {
		fprintf(stderr, "pcp-smtcpu: which report: chargeback or capacity?\n");
		bad = 1;
	}
	if (opts.narchives && opts.nhosts) {
		fprintf(stderr, "pcp-smtcpu: archives or a host, not both\n");
		bad = 1;
	}
	if (bad || opts.errors) {
		pmUsageMessage(&opts);
		return -1;
	}
	return 0;
}

static struct sample_reader *open_reader(const struct settings *s, char *err, size_t len)
{
	struct window_args w = { opts.start_optarg, opts.finish_optarg, opts.align_optarg, opts.origin_optarg };
	bool hostzone = opts.tzflag;

	if (opts.timezone && pmNewZone(opts.timezone) < 0) {
		snprintf(err, len, "-Z %s: not a timezone", opts.timezone);
		return NULL;
	}
	if (opts.narchives > 0)
		return pmapi_open_archives(opts.archives, opts.narchives, &w, s->by, hostzone, err, len);
	if (opts.nhosts > 0 || getenv("PCP_HOST") == NULL) {
		double interval = interval_seconds(&opts);

		return pmapi_open_host(opts.nhosts ? opts.hosts[0] : "local:", interval > 0 ? interval : 10,
				       opts.samples > 0 ? opts.samples : 2, s->by, hostzone, err, len);
	}
	return pmapi_open_host(getenv("PCP_HOST"), interval_seconds(&opts) > 0 ? interval_seconds(&opts) : 10,
			       opts.samples > 0 ? opts.samples : 2, s->by, hostzone, err, len);
}

/* Every record into the ledger; -1 with a message on error. */
static int read_all(struct sample_reader *r, struct ledger *l)
{
	struct record rec;
	int sts;

	while ((sts = r->next(r, &rec)) > 0)
		if (ledger_feed(l, &rec) < 0) {
			fprintf(stderr, "pcp-smtcpu: out of memory\n");
			return -1;
		}
	if (sts < 0) {
		fprintf(stderr, "pcp-smtcpu: %s\n", r->error);
		return -1;
	}
	if (l->first < 0 || l->covered <= 0) {
		char a[32], b[32];

		out_time(a, sizeof a, r->start);
		out_time(b, sizeof b, r->end);
		fprintf(stderr, "pcp-smtcpu: %s: %s from %s to %s\n", r->host,
			l->first < 0 ? "no samples of smtcpu's metrics" : "fewer than two samples of one run",
			a, b);
		return -1;
	}
	if (ledger_finish(l, r->start, r->end) < 0) {
		fprintf(stderr, "pcp-smtcpu: out of memory\n");
		return -1;
	}
	return 0;
}

static int chargeback(struct sample_reader *r, const struct settings *s)
{
	struct chargeback c;
	struct ledger l;
	struct charge_table t;
	int sts = 1;

	chargeback_init(&c, s->by, r->start, r->end);
	ledger_init(&l, chargeback_add, &c);
	if (read_all(r, &l) == 0) {
		if (chargeback_table(&c, &l, &t) < 0)
			fprintf(stderr, "pcp-smtcpu: out of memory\n");
		else {
			if (s->plot == NULL || plot_chargeback(s->plot, r, &t) == 0) {
				chargeback_print(stdout, s->format, r, &l, &t, s->by);
				sts = 0;
			}
			charge_table_free(&t);
		}
	}
	ledger_free(&l);
	chargeback_free(&c);
	return sts;
}

static int capacity(struct sample_reader *r, const struct settings *s)
{
	struct capacity c;
	struct ledger l;
	struct capacity_report rep;
	int sts = 1;

	capacity_init(&c, s->percentile, s->horizon);
	ledger_init(&l, capacity_add, &c);
	if (read_all(r, &l) == 0) {
		if (capacity_report(&c, &rep) < 0)
			fprintf(stderr, "pcp-smtcpu: out of memory\n");
		else if (s->plot == NULL || plot_capacity(s->plot, r, &rep) == 0) {
			capacity_print(stdout, s->format, r, &l, &rep, s->percentile);
			sts = 0;
		}
	}
	ledger_free(&l);
	capacity_free(&c);
	return sts;
}

int main(int argc, char **argv)
{
	struct settings s = { .report = REPORT_NONE, .by = BY_CGROUP, .percentile = NAN, .horizon = 365,
			      .format = OUT_TEXT };
	struct sample_reader *r;
	char err[1024];
	int sts;

	if (parse(argc, argv, &s) < 0)
		return 2;
	if ((r = open_reader(&s, err, sizeof err)) == NULL) {
		fprintf(stderr, "pcp-smtcpu: %s\n", err);
		return 1;
	}
	sts = s.report == REPORT_CHARGEBACK ? chargeback(r, &s) : capacity(r, &s);
	r->close(r);
	if (fflush(stdout) != 0) {
		perror("pcp-smtcpu: stdout");
		return 1;
	}
	return sts;
}
