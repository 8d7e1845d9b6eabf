/*
 * smtcpu-model: explore the SMT model for capacity planning, and check it
 * against seed 000's tables.
 *
 *   smtcpu-model --list
 *   smtcpu-model --keywords
 *   smtcpu-model --model NAME
 *   smtcpu-model --model NAME --cores C --jobs A-B [--policy raw|scaledN] [--base X]
 *   smtcpu-model --fit FILE [--base X] [--name NAME]
 *   smtcpu-model --calibrate [--kernel K | --command CMD] [--cpus LIST]
 *                [--duration S] [--repeat N] [--name NAME]
 *   any of them with --config FILE
 */
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "config_keywords.h"
#include "model_tool.h"
#include "parsenum.h"
#include "runsfile.h"
#include "smtmodel.h"

#define MAX_CORES 4096

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: smtcpu-model [--config FILE] --list\n"
		"       smtcpu-model --keywords\n"
		"       smtcpu-model [--config FILE] --model NAME\n"
		"       smtcpu-model [--config FILE] --model NAME --cores C --jobs A[-B]\n"
		"                    [--policy raw|scaled2|scaled4|scaledN] [--base X]\n"
		"       smtcpu-model [--config FILE] --fit RUNS [--base X] [--name NAME]\n"
		"       smtcpu-model [--config FILE] --calibrate [--kernel int|float|chase |\n"
		"                    --command CMD] [--cpus LIST] [--duration SECONDS]\n"
		"                    [--repeat N] [--name NAME]\n"
		"\n"
		"  --list      the factor tables: built in, and from --config\n"
		"  --keywords  the configuration file's keywords, a line each: the\n"
		"              keyword, its arguments, what it sets\n"
		"  --model     per SMT level: core throughput T(k), throughput per thread\n"
		"              T(k)/k, and the CPU%% credited to each busy thread\n"
		"              T(k)/(k T(S)) (the shape of seed 000's Table-1)\n"
		"  --cores     with --jobs: for each job count, the busy threads on each\n"
		"              core under the placement policy and the theoretical\n"
		"              throughput base * sum T(level) (seed 000's Table-3)\n"
		"  --policy    raw: one thread per core first (AIX's default); scaledN:\n"
		"              N threads of a core before the next (default raw)\n"
		"  --base      throughput of one job alone on a core (default 1; with\n"
		"              --fit, held there instead of fitted)\n"
		"  --fit       fit T(k) by least squares to measured runs, one a line:\n"
		"              \"run THROUGHPUT B1 B2 ...\" (busy threads on each core) or\n"
		"              \"level K PER_THREAD\"; compare the fit with the tables of\n"
		"              the same S and print the lines for smtcpu.conf\n"
		"  --calibrate run a kernel (default int) or a command on 1..S threads of\n"
		"              one core, measure the throughput, fit T(k) the same way\n"
		"  --cpus      the CPUs to treat as one core's threads (default: the\n"
		"              first core with the most threads, from sysfs)\n"
		"  --duration  seconds each measurement runs (default 2)\n"
		"  --repeat    measurements of each level (default 3)\n"
		"  --name      the fitted table's name in smtcpu.conf (default fitted\n"
		"              or calibrated)\n");
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "smtcpu-model: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	usage(stderr);
	return 2;
}

static void list_one(const struct smt_table *t, const char *origin)
{
	char factors[SMT_MAX_THREADS * 10] = "";
	size_t used = 0;

	for (int k = 1; k <= t->nthreads; k++)
		used += (size_t)snprintf(factors + used, sizeof factors - used, "%s%.4g",
					 k > 1 ? " " : "", t->T[k]);
	printf("%-16s %2d  %-50s %s%s\n", t->name, t->nthreads, factors,
	       t->preliminary ? "preliminary " : "", origin);
}

static void list_tables(const struct smt_config *cfg)
{
	const struct smt_table *builtin;
	int n;

	printf("%-16s %2s  %-50s\n", "name", "S", "T(1) .. T(S)");
	for (int i = 0; i < cfg->ntables; i++) {
		char origin[64] = "(configuration file)";
		if (cfg->tables[i].origin != SMT_ORIGIN_CONFIGURED)
			snprintf(origin, sizeof origin, "(configuration file: %s)",
				 smt_origin_name(cfg->tables[i].origin));
		list_one(&cfg->tables[i], origin);
	}
	builtin = smt_builtin_tables(&n);
	for (int i = 0; i < n; i++)
		if (config_find_table(cfg, builtin[i].name) == &builtin[i])
			list_one(&builtin[i], "");	/* unless the file replaced it */
}

static void list_keywords(void)
{
	int n;
	const struct config_keyword *kw = config_keywords(&n);

	for (int i = 0; i < n; i++)
		printf("%-14s %-38s %s\n", kw[i].name, kw[i].synopsis, kw[i].description);
}

static void print_levels(const struct smt_table *t)
{
	printf("model %s: S = %d threads per core%s\n", t->name, t->nthreads,
	       t->preliminary ? " (PRELIMINARY figures)" : "");
	printf("basis: %s\norigin: %s\n\n", t->basis, smt_origin_name(t->origin));
	printf("smt | Throughput/core | Throughput/HTC | CPU%% |\n");
	for (int k = 1; k <= t->nthreads; k++)
		printf("%d | %.4g | %.4g | %.2f |\n", k, t->T[k], t->T[k] / k,
		       100 * smt_thread_share(t, k));
}

static void print_jobs(const struct smt_table *t, int ncores, int from, int to,
		       int fill, double base)
{
	int levels[MAX_CORES];

	if (t->preliminary)
		printf("# %s: PRELIMINARY figures\n", t->name);
	printf("JOB_CNT |");
	for (int c = 0; c < ncores; c++)
		printf(" Core_%d_smt |", c + 1);
	printf(" Theory_Throughput |\n");
	for (int jobs = from; jobs <= to; jobs++) {
		smt_place_jobs(jobs, ncores, t->nthreads, fill, levels);
		printf("%d |", jobs);
		for (int c = 0; c < ncores; c++)
			printf(" %d |", levels[c]);
		printf(" %.2f |\n", smt_throughput(t, levels, ncores, base));
	}
}

/* "A" or "A-B" with 0 <= A <= B. */
static int parse_jobs(const char *s, int *from, int *to)
{
	uint64_t a, b;
	const char *end = pn_u64_prefix(s, &a);

	if (end == NULL)
		return -1;
	b = a;
	if (*end == '-' && (end = pn_u64_prefix(end + 1, &b)) == NULL)
		return -1;
	if (*end != '\0' || b < a || b > 1000000)
		return -1;
	*from = (int)a;
	*to = (int)b;
	return 0;
}

static int fit_file(const char *path, double base_fixed, const struct smt_config *cfg,
		    const char *name)
{
	static struct runs_file rf;
	char source[SMT_BASIS_MAX], heading[PATH_MAX + 16];
	const char *slash = strrchr(path, '/');

	if (runs_load(&rf, path) < 0) {
		fprintf(stderr, "smtcpu-model: %s\n", rf.error);
		return 2;
	}
	snprintf(source, sizeof source, "from %s", slash ? slash + 1 : path);
	snprintf(heading, sizeof heading, "Fitting %s: ", path);
	return fit_report(rf.runs, rf.nruns, rf.threads, base_fixed, cfg,
			  &(struct fit_label){ heading, name, "fitted", source }) ? 2 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "keywords", no_argument, NULL, 'K' },
		{ "model", required_argument, NULL, 'm' },
		{ "cores", required_argument, NULL, 'c' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "policy", required_argument, NULL, 'p' },
		{ "base", required_argument, NULL, 'b' },
		{ "config", required_argument, NULL, 'f' },
		{ "fit", required_argument, NULL, 'F' },
		{ "calibrate", no_argument, NULL, 'C' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "command", required_argument, NULL, 'x' },
		{ "cpus", required_argument, NULL, 'u' },
		{ "duration", required_argument, NULL, 'd' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *model = NULL, *config = NULL, *jobs = NULL, *fit = NULL, *name = NULL;
	struct calibration cal = { .kernel = NULL, .seconds = 2, .repeat = 3 };
	int list = 0, keywords = 0, ncores = 0, from = 0, to = 0, fill = 1, opt, calibrating = 0, base_given = 0;
	double base = 1;
	struct smt_config cfg;
	const struct smt_table *t;
	const char *end;
	long number;

	while ((opt = getopt_long(argc, argv, "lm:c:j:p:b:f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'F': fit = optarg; break;
		case 'C': calibrating = 1; break;
		case 'k': cal.kernel = optarg; break;
		case 'x': cal.command = optarg; break;
		case 'u': cal.cpus = optarg; break;
		case 'n': name = optarg; break;
		case 'd':
			if ((end = pn_decimal_prefix(optarg, &cal.seconds)) == NULL || *end != '\0' ||
			    !(cal.seconds >= 0.1 && cal.seconds <= 3600))
				return bad("--duration %s: expected seconds from 0.1 to 3600", optarg);
			break;
		case 'r':
			if (pn_long(optarg, 1, 100, &number) < 0 || strchr(optarg, '\n'))
				return bad("--repeat %s: expected a count from 1 to 100", optarg);
			cal.repeat = (int)number;
			break;
		case 'l': list = 1; break;
		case 'K': keywords = 1; break;
		case 'm': model = optarg; break;
		case 'f': config = optarg; break;
		case 'j': jobs = optarg; break;
		case 'c':
			if (pn_long(optarg, 1, MAX_CORES, &number) < 0 || strchr(optarg, '\n'))
				return bad("--cores %s: expected a number of cores from 1 to 4096", optarg);
			ncores = (int)number;
			break;
		case 'p':
			if (strcmp(optarg, "raw") == 0)
				fill = 1;
			else if (strncmp(optarg, "scaled", 6) == 0 &&
				 pn_long(optarg + 6, 1, SMT_MAX_THREADS, &number) == 0 &&
				 strchr(optarg, '\n') == NULL)
				fill = (int)number;
			else
				return bad("--policy %s: expected raw or scaledN (scaled2, scaled4)", optarg);
			break;
		case 'b':
			if ((end = pn_decimal_prefix(optarg, &base)) == NULL || *end != '\0' ||
			    !(base > 0))
				return bad("--base %s: expected a positive number", optarg);
			base_given = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc)
		return bad("unexpected argument \"%s\"", argv[optind]);
	if (keywords) {
		if (argc != 2)
			return bad("%s", "--keywords goes alone");
		list_keywords();
		return 0;
	}
	if (config_load(&cfg, config, 0) != 0)
		return 2;	/* config_load said FILE:LINE: why */
	if (name && !config_valid_table_name(name))
		return bad("--name %s: a table name is letters, digits, - _ . + (under 32)", name);
	if (fit || calibrating) {
		if (list || model || jobs || ncores || (fit && calibrating))
			return bad("%s", "--fit and --calibrate go alone (with --config, --base, --name)");
		if (!calibrating && (cal.kernel || cal.command || cal.cpus))
			return bad("%s", "--kernel, --command and --cpus go with --calibrate");
		if (calibrating && base_given)
			return bad("%s", "--base goes with --fit, not --calibrate");
		if (cal.kernel && cal.command)
			return bad("%s", "--kernel or --command, not both");
		if (fit)
			return fit_file(fit, base_given ? base : 0, &cfg, name ? name : "fitted");
		cal.name = name ? name : "calibrated";
		cal.kernel = cal.kernel ? cal.kernel : "int";
		return calibrate(&cal, &cfg);
	}
	if (list) {
		if (model || jobs || ncores)
			return bad("%s", "--list takes no other option but --config");
		list_tables(&cfg);
		return 0;
	}
	if (model == NULL)
		return bad("%s", "--list or --model NAME is needed");
	if ((t = config_find_table(&cfg, model)) == NULL)
		return bad("--model %s: no such table (see --list)", model);
	if (!jobs != !ncores)
		return bad("%s", "--cores and --jobs go together");
	if (jobs == NULL) {
		print_levels(t);
		return 0;
	}
	if (parse_jobs(jobs, &from, &to) < 0)
		return bad("--jobs %s: expected A or A-B, A <= B", jobs);
	if (fill > t->nthreads)
		return bad("--policy: %s has fewer threads per core than that", t->name);
	print_jobs(t, ncores, from, to, fill, base);
	return 0;
}
