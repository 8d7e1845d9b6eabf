/*
 * The fit report of smtcpu-model --fit and --calibrate: the fitted factors
 * beside the tables smtcpu already has, run by run, and the lines to paste
 * into smtcpu.conf.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model_tool.h"

#define MAX_MODELS (CONFIG_MAX_TABLES + 8)

struct model {
	char name[SMT_NAME_MAX + 8];
	struct smt_fit fit;
};

/* Factors as text that parses back to a table smt_table_check accepts:
 * rounded to 4 decimals where that keeps the shape, else rounded step by
 * step (rounding keeps the steps' order, so a concave table stays
 * concave), with more decimals only where the per-thread share's
 * convexity needs them. */
static void format_factors(char *buf, size_t size, const double *T, int S)
{
	char why[256];

	for (int decimals = 4; decimals <= 12; decimals++) {
		double scale = 1;
		for (int i = 0; i < decimals; i++)
			scale *= 10;
		for (int by_steps = 0; by_steps <= 1; by_steps++) {
			struct smt_table t = { .nthreads = S };
			size_t used = (size_t)snprintf(buf, size, "1");

			t.T[1] = 1;
			for (int k = 2; k <= S; k++) {
				t.T[k] = by_steps ? t.T[k - 1] + round((T[k] - T[k - 1]) * scale) / scale
						  : round(T[k] * scale) / scale;
				used += (size_t)snprintf(buf + used, size - used, " %.*f", decimals,
							 t.T[k]);
			}
			if (smt_table_check(&t, why, sizeof why) == 0)
				return;	/* t.T is what the text parses back to, within 1e-16 */
		}
	}
	/* Every digit: what the fit found, which the check accepted. */
	size_t used = 0;
	for (int k = 1; k <= S; k++)
		used += (size_t)snprintf(buf + used, size - used, "%s%.17g", k > 1 ? " " : "", T[k]);
}

static void print_factors(const double *T, int S)
{
	for (int k = 1; k <= S; k++)
		printf(" %7.4f", T[k]);
	for (int k = S; k < 4; k++)
		printf("        ");
}

static int gather_tables(struct model *m, int nm, int S, const struct smt_run *runs, int n,
			 double base_fixed, const struct smt_config *cfg)
{
	const struct smt_table *builtin;
	int nb;

	for (int i = 0; i < cfg->ntables && nm < MAX_MODELS - 1; i++)
		if (cfg->tables[i].nthreads == S) {
			snprintf(m[nm].name, sizeof m[nm].name, "%s", cfg->tables[i].name);
			smt_fit_score(cfg->tables[i].T, S, runs, n, base_fixed, &m[nm++].fit);
		}
	builtin = smt_builtin_tables(&nb);
	for (int i = 0; i < nb && nm < MAX_MODELS - 1; i++)
		if (builtin[i].nthreads == S && config_find_table(cfg, builtin[i].name) == &builtin[i]) {
			snprintf(m[nm].name, sizeof m[nm].name, "%s", builtin[i].name);
			smt_fit_score(builtin[i].T, S, runs, n, base_fixed, &m[nm++].fit);
		}
	return nm;
}

int fit_report(const struct smt_run *runs, int n, int S, double base_fixed,
	       const struct smt_config *cfg, const struct fit_label *label)
{
	static struct model m[MAX_MODELS];
	struct smt_table free_table = { .nthreads = S };
	double naive[SMT_MAX_THREADS + 1];
	char why[256], shape_why[256] = "", factors[SMT_MAX_THREADS * 24], date[16],
	     source[SMT_BASIS_MAX];
	time_t now = time(NULL);
	int nm = 2, in_shape;

	if (smt_fit_table(runs, n, S, base_fixed, false, &m[0].fit, why, sizeof why) < 0 ||
	    smt_fit_table(runs, n, S, base_fixed, true, &m[1].fit, why, sizeof why) < 0) {
		fprintf(stderr, "smtcpu-model: cannot fit: %s\n", why);
		return 1;
	}
	snprintf(m[0].name, sizeof m[0].name, "fitted, free");
	snprintf(m[1].name, sizeof m[1].name, "fitted, in shape");
	memcpy(free_table.T, m[0].fit.T, sizeof free_table.T);
	in_shape = smt_table_check(&free_table, shape_why, sizeof shape_why) == 0;
	nm = gather_tables(m, nm, S, runs, n, base_fixed, cfg);
	for (int k = 1; k <= S; k++)
		naive[k] = k;
	snprintf(m[nm].name, sizeof m[nm].name, "every thread a core");
	smt_fit_score(naive, S, runs, n, base_fixed, &m[nm++].fit);

	printf("%s%d runs, S = %d threads per core, %s\n\n", label->heading, n, S, base_fixed > 0 ?
	       "the base (one thread alone on a core) held at --base" :
	       "each model with the base (one thread alone on a core) that fits it best");
	printf("%-20s %10s  %-32s %9s %9s\n", "model", "base", "T(1) .. T(S)", "mean err",
	       "worst err");
	for (int i = 0; i < nm; i++) {
		printf("%-20s %10.4g ", m[i].name, m[i].fit.base);
		print_factors(m[i].fit.T, S);
		printf(" %8.2f%% %8.2f%%\n", 100 * m[i].fit.mean_error, 100 * m[i].fit.worst_error);
	}
	if (in_shape)
		printf("\nThe free fit has the shape a table needs: the two fits are one.\n");
	else
		printf("\nThe free fit breaks the shape a table needs (%s);\n"
		       "the table below is the best fit that keeps it.\n", shape_why);

	printf("\n%4s  %-*s %10s", "run", 2 * S + 4, "cores at 1..S", "measured");
	for (int i = 0; i < nm; i++)
		printf(" %12.12s", m[i].name);
	printf("\n");
	for (int r = 0; r < n; r++) {
		char cores[SMT_MAX_THREADS * 8] = "";
		size_t used = 0;
		for (int k = 1; k <= S; k++)
			used += (size_t)snprintf(cores + used, sizeof cores - used, "%s%d",
						 k > 1 ? "/" : "", runs[r].cores[k]);
		printf("%4d  %-*s %10.4g", r + 1, 2 * S + 4, cores, runs[r].throughput);
		for (int i = 0; i < nm; i++)
			printf(" %12.4g", smt_fit_predict(m[i].fit.T, S, m[i].fit.base, &runs[r]));
		printf("\n");
	}

	strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
	snprintf(source, sizeof source, "%s", label->source);
	format_factors(factors, sizeof factors, m[1].fit.T, S);
	printf("\n# for smtcpu.conf (see smtcpu-model(1)):\n");
	printf("table %s %s\n", label->name, factors);
	/* one line whatever the source says: a "#" would start a comment there */
	for (char *c = source; *c; c++)
		if (*c == '#' || *c == '\n' || *c == '\r')
			*c = ' ';
	printf("basis %s %s %s: %d runs, mean error %.2f%%, worst %.2f%%, %s\n", label->name,
	       label->origin, source, n, 100 * m[1].fit.mean_error,
	       100 * m[1].fit.worst_error, date);
	return 0;
}
