/*
 * PCP 6 and 7 name the nanosecond API differently: PCP 6 has pmFetchHighRes,
 * pmHighResResult and the like beside its microsecond calls; PCP 7 gives the
 * plain names the nanosecond types.  The report speaks nanoseconds only,
 * through these names (the build defines SMTCPU_PCP_HIGHRES where pmapi.h
 * has pmFetchHighRes).
 */
#ifndef SMTCPU_PCP_COMPAT_H
#define SMTCPU_PCP_COMPAT_H

#include <pcp/pmapi.h>

#ifdef SMTCPU_PCP_HIGHRES
typedef pmHighResResult pcp_result;
typedef pmHighResLogLabel pcp_label;
#define pcp_fetch pmFetchHighRes
#define pcp_fetch_archive pmFetchHighResArchive
#define pcp_free_result pmFreeHighResResult
#define pcp_set_mode pmSetModeHighRes
#define pcp_archive_label pmGetHighResArchiveLabel
#define pcp_archive_end pmGetHighResArchiveEnd
#define pcp_time_window pmParseHighResTimeWindow
#else
typedef pmResult pcp_result;
typedef pmLogLabel pcp_label;
#define pcp_fetch pmFetch
#define pcp_fetch_archive pmFetchArchive
#define pcp_free_result pmFreeResult
#define pcp_set_mode pmSetMode
#define pcp_archive_label pmGetArchiveLabel
#define pcp_archive_end pmGetArchiveEnd
#define pcp_time_window pmParseTimeWindow
#endif

static inline double pcp_seconds(const struct timespec *ts)
{
	return (double)ts->tv_sec + (double)ts->tv_nsec / 1e9;
}

static inline struct timespec pcp_timespec(double seconds)
{
	struct timespec ts;

	ts.tv_sec = (time_t)seconds;
	ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
	return ts;
}

#endif
