/* Which counter backend, and what a refusal from it means: said once for
 * every source that counts (AMD's uncore, the core counters, Intel's SMT). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "sysroot.h"

struct ctr_backend *ctr_backend_new(const char *replay, int max_groups, char *why, size_t whysize)
{
	struct ctr_backend *b;

	if (max_groups < 1)
		max_groups = 1;
	if (replay && replay[0]) {
		char reason[224];
		/* A trace stands in for the counters of a tree given as the root,
		 * never for this machine's: a root daemon opening any file the
		 * configuration names would serve what it read to every client. */
		if (strcmp(sr_root(), "/") == 0) {
			snprintf(why, whysize, "replay refused: a trace is read only under a root "
				 "given by -r or $SMTCPU_ROOT, never on this machine's");
			return NULL;
		}
		if ((b = ctr_replay_new(replay, max_groups, reason, sizeof reason)) == NULL)
			snprintf(why, whysize, "replay: %s", reason);
		return b;
	}
	if ((b = ctr_perf_new(max_groups)) == NULL)
		snprintf(why, whysize, "out of memory for %d counter groups", max_groups);
	return b;
}

struct ctr_backend *ctr_backend_new_local(const char *replay, int max_groups, int ncpus, unsigned period_ms,
					  char *how, size_t howsize, char *why, size_t whysize)
{
	char refused[200];
	struct ctr_backend *b;

	how[0] = '\0';
	if (replay && replay[0])
		return ctr_backend_new(replay, max_groups, why, whysize);
	if ((b = ctr_local_new(max_groups, ncpus, period_ms, refused, sizeof refused)) != NULL) {
		snprintf(how, howsize, "each CPU's counters read on that CPU by a BPF program once a period");
		return b;
	}
	snprintf(how, howsize, "counters read from one CPU, an interrupt to each CPU a group (BPF refused: %s)",
		 refused);
	return ctr_backend_new(NULL, max_groups, why, whysize);
}

const char *ctr_open_error(int err, char *buf, size_t size)
{
	long paranoid;

	switch (-err) {
	case EACCES:
	case EPERM:
		if (sr_read_long(&paranoid, INT_MIN, INT_MAX, "/proc/sys/kernel/perf_event_paranoid") == 0)
			snprintf(buf, size, "perf_event_open refused: needs root or CAP_PERFMON "
				 "(kernel.perf_event_paranoid = %ld)", paranoid);
		else
			snprintf(buf, size, "perf_event_open refused: needs root or CAP_PERFMON "
				 "(kernel.perf_event_paranoid)");
		break;
	case EBUSY:
	case ENOSPC:
		snprintf(buf, size, "counters busy: another tool, or the NMI watchdog, holds them");
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case EINVAL:
		snprintf(buf, size, "the kernel does not count these events here (a hypervisor may "
			 "hide them)");
		break;
	default:
		snprintf(buf, size, "%s", strerror(-err));
	}
	return buf;
}
