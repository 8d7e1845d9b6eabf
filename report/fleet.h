/*
 * The fleet's answers from pmproxy's series: every host the store holds
 * smtcpu's metrics for, each host's report made as for that host alone
 * (report_run, over the fleet's one window), then ranked: the hosts with
 * the least capacity left at their daily peak; the services with the most
 * calibrated core-hours, each name summed over the hosts.
 */
#ifndef SMTCPU_FLEET_H
#define SMTCPU_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "ledger.h"
#include "samples.h"
#include "series_samples.h"

struct fleet_host {
	char name[256];
	char error[1024];		/* why it has no figures; "" where it has */
	double covered;			/* seconds */
	int bridged;			/* pmlogger's breaks crossed */
	struct gap *gaps;		/* its ledger's */
	int ngaps;
};

/* A host's day with the least capacity left at its peak (capacity.h). */
struct fleet_day {
	int host;			/* in fleet.hosts */
	char date[16];
	double peak_start, used, left, cap;
	double physc, entitled, entc_pct, pool_idle;	/* NAN where not an LPAR */
};

/* A service's figures summed over the hosts it ran on (chargeback.h);
 * a bound or cpu-h NAN where a host had none. */
struct fleet_service {
	char name[128];
	double core_h, lower_h, upper_h, cpu_h;
	int hosts;
};

struct fleet {
	char url[1024];
	enum sample_by by;
	double percentile;		/* capacity: NAN for the peak hour */
	double start, end;		/* the window, every host's */
	struct fleet_host *hosts;	/* by name: store.with's */
	int nhosts;
	struct store_hosts store;	/* every host the store names */
	struct fleet_day *days;		/* capacity: by left, least first */
	int ndays;
	struct fleet_service *services;	/* chargeback: by core-h, most first */
	int nservices;
};

/* The fleet at pmproxy's url over the window w: 0, or -1 with err set
 * (pmproxy unreachable, no host with smtcpu's metrics, no samples in w).
 * A host without figures is named in its error, not a failure. */
int fleet_capacity(struct fleet *f, const char *url, const struct window_args *w, double percentile, int horizon,
		   char *err, size_t errlen);
int fleet_chargeback(struct fleet *f, const char *url, const struct window_args *w, enum sample_by by, char *err,
		     size_t errlen);

void fleet_free(struct fleet *f);

#endif
