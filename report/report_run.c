/*
 * The reports' sums for one reader (report_run.h).
 */
#include "report_run.h"
#include "report_out.h"

#include <stdio.h>
#include <string.h>

/* Every record into the ledger: 0, or -1 with err set. */
static int read_all(struct sample_reader *r, struct ledger *l, char *err, size_t errlen)
{
	struct record rec;
	int sts;

	while ((sts = r->next(r, &rec)) > 0)
		if (ledger_feed(l, &rec) < 0) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	if (sts < 0) {
		snprintf(err, errlen, "%s", r->error);
		return -1;
	}
	if (l->first < 0 || l->covered <= 0) {
		char a[32], b[32];

		out_time(a, sizeof a, r->start);
		out_time(b, sizeof b, r->end);
		snprintf(err, errlen, "%s: %s from %s to %s", r->host,
			 l->first < 0 ? "no samples of smtcpu's metrics" : "fewer than two samples of one run", a, b);
		return -1;
	}
	if (ledger_finish(l, r->start, r->end, &r->end_lack) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int charge_run(struct charge_run *run, struct sample_reader *r, enum sample_by by, char *err, size_t errlen)
{
	memset(&run->t, 0, sizeof run->t);
	chargeback_init(&run->c, by, r->start, r->end);
	ledger_init(&run->l, chargeback_add, &run->c);
	if (read_all(r, &run->l, err, errlen) < 0)
		return -1;
	if (chargeback_table(&run->c, &run->l, &run->t) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

int capacity_run(struct capacity_run *run, struct sample_reader *r, double percentile, int horizon, char *err,
		 size_t errlen)
{
	memset(&run->rep, 0, sizeof run->rep);
	capacity_init(&run->c, percentile, horizon);
	ledger_init(&run->l, capacity_add, &run->c);
	if (read_all(r, &run->l, err, errlen) < 0)
		return -1;
	if (capacity_report(&run->c, &run->rep) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void charge_run_free(struct charge_run *run)
{
	charge_table_free(&run->t);
	ledger_free(&run->l);
	chargeback_free(&run->c);
}

void capacity_run_free(struct capacity_run *run)
{
	ledger_free(&run->l);
	capacity_free(&run->c);
}
