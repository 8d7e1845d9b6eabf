/*
 * pcp-smtcpu: what smtcpu's figures are for, from a host's archives, the
 * live host, or pmproxy's series of a host or of every host in its store.
 *
 *   pcp [PCP options] smtcpu chargeback [--by cgroup|process] [--csv|--json] [--plot FILE]
 *   pcp [PCP options] smtcpu capacity [--percentile P] [--horizon DAYS] [--csv|--json] [--plot FILE]
 *   pcp-smtcpu --pmproxy URL --hostname NAME chargeback|capacity ...
 *   pcp-smtcpu --pmproxy URL --fleet [--top N] chargeback|capacity ...
 *
 * The samples come through samples.h's reader, the reports are sums over
 * the ledger's covered intervals (report_run); nothing is printed until all
 * is read, so an error leaves no partial table.  The fleet's ranking is of
 * each host's own report (fleet).
 */
#include "capacity_out.h"
#include "chargeback_out.h"
#include "fleet.h"
#include "fleet_out.h"
#include "plot.h"
#include "pmapi_samples.h"
#include "report_run.h"
#include "series_samples.h"

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
	PMAPI_OPTIONS_HEADER("Samples from pmproxy's series (its key-value store)"),
	{ "pmproxy", 1, 0, "URL", "pmproxy's REST API, http://HOST:44322" },
	{ "hostname", 1, 0, "NAME", "with --pmproxy: the host, reported as from its archives" },
	{ "fleet", 0, 0, NULL, "with --pmproxy: every host in the store, ranked" },
	{ "top", 1, 0, "N", "with --fleet: the N hosts (capacity) or services (chargeback) printed [10]" },
	PMAPI_OPTIONS_END
};

struct settings {
	enum report report;
	enum sample_by by;
	double percentile;
	int horizon;
	enum out_format format;
	const char *plot;
	const char *pmproxy, *hostname;
	bool fleet;
	int top;
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
	.short_usage = "[options] chargeback|capacity\n"
		       "       pcp-smtcpu --pmproxy URL --hostname NAME|--fleet [options] chargeback|capacity",
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
	} else if (strcmp(name, "top") == 0) {
		long n = strtol(arg, &end, 10);

		if (*end || n < 1 || n > 100000) {
			fprintf(stderr, "pcp-smtcpu: --top %s: a number of rows, 1 to 100000\n", arg);
			return -1;
		}
		s->top = (int)n;
	} else if (strcmp(name, "plot") == 0)
		s->plot = arg;
	else if (strcmp(name, "pmproxy") == 0) {
		s->pmproxy = arg;
		/* pmGetOptions takes -S, -T, -A and -O for archives only: the
		 * store's series are archived samples */
		opts.context = PM_CONTEXT_ARCHIVE;
	} else if (strcmp(name, "hostname") == 0)
		s->hostname = arg;
	else if (strcmp(name, "fleet") == 0)
		s->fleet = true;
	return 0;
}

/* What --pmproxy and its options take with them: 0, or -1 said. */
static int series_options(const struct settings *s, bool top_given)
{
	const char *wrong = NULL;

	if (s->pmproxy == NULL) {
		if (s->hostname)
			wrong = "--hostname names a host in pmproxy's store: give --pmproxy URL";
		else if (s->fleet)
			wrong = "--fleet ranks the hosts in pmproxy's store: give --pmproxy URL";
	} else if (opts.narchives || opts.nhosts)
		wrong = "archives, a host or pmproxy's series: one of them";
	else if (s->hostname == NULL && !s->fleet)
		wrong = "--pmproxy: give --hostname NAME for one host, or --fleet for every host";
	else if (s->hostname && s->fleet)
		wrong = "--hostname or --fleet, not both";
	else if (opts.tzflag)
		wrong = "-z: the store keeps no host's timezone: give -Z";
	else if (s->fleet && s->plot)
		wrong = "--plot draws one host's report: not with --fleet";
	if (wrong == NULL && top_given && !s->fleet)
		wrong = "--top ranks the fleet: give --fleet";
	if (wrong)
		fprintf(stderr, "pcp-smtcpu: %s\n", wrong);
	return wrong ? -1 : 0;
}

static int parse(int argc, char **argv, struct settings *s)
{
	int c, bad = 0;
	bool top_given = false;

	while ((c = pmGetOptions(argc, argv, &opts)) != EOF) {
		if (c == 0) {	/* a long option of ours */
			const char *name = long_options[opts.index].long_opt;

			if (strcmp(name, "csv") == 0)
				s->format = OUT_CSV;
			else if (strcmp(name, "json") == 0)
				s->format = OUT_JSON;
			else if (report_option(name, opts.optarg, s) < 0)
				bad = 1;
			top_given |= strcmp(name, "top") == 0;
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
	if (!bad && series_options(s, top_given) < 0)
		bad = 1;
	if (bad || opts.errors) {
		pmUsageMessage(&opts);
		return -1;
	}
	return 0;
}

static struct sample_reader *open_reader(const struct settings *s, const struct window_args *w, char *err,
					 size_t len)
{
	bool hostzone = opts.tzflag;

	if (s->pmproxy)
		return series_open_host(s->pmproxy, s->hostname, w, s->by, err, len);
	if (opts.narchives > 0)
		return pmapi_open_archives(opts.archives, opts.narchives, w, s->by, hostzone, err, len);
	if (opts.nhosts > 0 || getenv("PCP_HOST") == NULL) {
		double interval = interval_seconds(&opts);

		return pmapi_open_host(opts.nhosts ? opts.hosts[0] : "local:", interval > 0 ? interval : 10,
				       opts.samples > 0 ? opts.samples : 2, s->by, hostzone, err, len);
	}
	return pmapi_open_host(getenv("PCP_HOST"), interval_seconds(&opts) > 0 ? interval_seconds(&opts) : 10,
			       opts.samples > 0 ? opts.samples : 2, s->by, hostzone, err, len);
}

/* The times the store lacked, which CSV's rows leave unsaid, on stderr. */
static void lacking_said(const struct settings *s, const struct sample_reader *r, const struct ledger *l)
{
	if (s->format != OUT_CSV)
		return;
	for (int i = 0; i < l->ngaps; i++)
		if (l->gaps[i].lacking)
			out_gap_text(stderr, r->host, &l->gaps[i]);
}

static int chargeback(struct sample_reader *r, const struct settings *s)
{
	struct charge_run run;
	char err[1024];
	int sts = 1;

	if (charge_run(&run, r, s->by, err, sizeof err) < 0)
		fprintf(stderr, "pcp-smtcpu: %s\n", err);
	else if (s->plot == NULL || plot_chargeback(s->plot, r, &run.t) == 0) {
		chargeback_print(stdout, s->format, r, &run.l, &run.t, s->by);
		lacking_said(s, r, &run.l);
		sts = 0;
	}
	charge_run_free(&run);
	return sts;
}

static int capacity(struct sample_reader *r, const struct settings *s)
{
	struct capacity_run run;
	char err[1024];
	int sts = 1;

	if (capacity_run(&run, r, s->percentile, s->horizon, err, sizeof err) < 0)
		fprintf(stderr, "pcp-smtcpu: %s\n", err);
	else if (s->plot == NULL || plot_capacity(s->plot, r, &run.rep) == 0) {
		capacity_print(stdout, s->format, r, &run.l, &run.rep, s->percentile);
		lacking_said(s, r, &run.l);
		sts = 0;
	}
	capacity_run_free(&run);
	return sts;
}

/* The fleet's ranking of every host's report. */
static int fleet(const struct settings *s, const struct window_args *w)
{
	struct fleet fl;
	char err[1024];
	int sts;

	if (s->report == REPORT_CHARGEBACK)
		sts = fleet_chargeback(&fl, s->pmproxy, w, s->by, err, sizeof err);
	else
		sts = fleet_capacity(&fl, s->pmproxy, w, s->percentile, s->horizon, err, sizeof err);
	if (sts < 0)
		fprintf(stderr, "pcp-smtcpu: %s\n", err);
	else if (s->report == REPORT_CHARGEBACK)
		fleet_chargeback_print(stdout, s->format, &fl, s->top);
	else
		fleet_capacity_print(stdout, s->format, &fl, s->top);
	if (sts == 0 && s->format == OUT_CSV)
		fleet_lacking_text(stderr, &fl);
	fleet_free(&fl);
	return sts < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct settings s = { .report = REPORT_NONE, .by = BY_CGROUP, .percentile = NAN, .horizon = 365,
			      .format = OUT_TEXT, .top = 10 };
	struct window_args w;
	struct sample_reader *r;
	char err[1024];
	int sts;

	if (parse(argc, argv, &s) < 0)
		return 2;
	w = (struct window_args){ opts.start_optarg, opts.finish_optarg, opts.align_optarg, opts.origin_optarg };
	if (opts.timezone && pmNewZone(opts.timezone) < 0) {
		fprintf(stderr, "pcp-smtcpu: -Z %s: not a timezone\n", opts.timezone);
		return 1;
	}
	if (s.fleet) {
		sts = fleet(&s, &w);
		if (fflush(stdout) != 0) {
			perror("pcp-smtcpu: stdout");
			return 1;
		}
		return sts;
	}
	if ((r = open_reader(&s, &w, err, sizeof err)) == NULL) {
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
