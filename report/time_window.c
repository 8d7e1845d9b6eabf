/*
 * The window through libpcp's own parser, as every PCP tool reads it.
 */
#include "time_window.h"
#include "pcp_compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void time_stamp(char *buf, size_t len, double t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	pmLocaltime(&tt, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
}

int time_window(const struct window_args *w, double first, double last, const char *held, double *start,
		double *end, char *err, size_t errlen)
{
	struct timespec lo = pcp_timespec(first), hi = pcp_timespec(last), from, to, offset;
	char *msg = NULL;

	if (pcp_time_window(w->start, w->finish, w->align, w->offset, &lo, &hi, &from, &to, &offset, &msg) < 0) {
		snprintf(err, errlen, "the time window: %s", msg ? msg : "not understood");
		free(msg);
		return -1;
	}
	*start = pcp_seconds(&from);
	*end = pcp_seconds(&to);
	if (*end < *start || *start > last || *end < first) {
		char a[32], b[32], c[32], d[32];

		time_stamp(a, sizeof a, first);
		time_stamp(b, sizeof b, last);
		time_stamp(c, sizeof c, *start);
		time_stamp(d, sizeof d, *end);
		snprintf(err, errlen, "no samples in the window %s to %s: %s from %s to %s", c, d, held, a, b);
		return -1;
	}
	return 0;
}
