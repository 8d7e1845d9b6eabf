/*
 * DRAM on the UMC PMUs, laid out as the kernel makes them
 * (arch/x86/events/amd/uncore.c, amd_uncore_umc_ctx_init): one amd_umc_N
 * per active memory controller per socket, numbered across the sockets in
 * turn (socket 0's controllers first), each with a cpumask of one CPU of
 * its own socket.  Sockets may have different numbers of controllers, and
 * a PMU whose CPU is missing leaves a gap; neither shifts a controller to
 * another socket.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amd_internal.h"
#include "parsenum.h"
#include "sysroot.h"

#define UMC_PREFIX "amd_umc_"
#define UMC_NUMBER_MAX 4095	/* the kernel's index is a u16; no machine has more */

static int by_number(const void *x, const void *y)
{
	return *(const int *)x - *(const int *)y;
}

/* The N of every amd_umc_N, ascending; returns how many, or -errno. */
static int list_umc(int *number, int max)
{
	char path[PATH_MAX];
	DIR *d;
	struct dirent *e;
	int n = 0;

	if (sr_path(path, sizeof path, "/sys/bus/event_source/devices") < 0 ||
	    (d = opendir(path)) == NULL)
		return -errno;
	while ((e = readdir(d)) != NULL && n < max) {
		long v;

		if (strncmp(e->d_name, UMC_PREFIX, strlen(UMC_PREFIX)) == 0 &&
		    pn_long(e->d_name + strlen(UMC_PREFIX), 0, UMC_NUMBER_MAX, &v) == 0)
			number[n++] = (int)v;
	}
	closedir(d);
	qsort(number, (size_t)n, sizeof *number, by_number);
	return n;
}

static void note(struct amd *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Adds to what the DRAM layout left out. */
static void note(struct amd *a, const char *fmt, ...)
{
	size_t len = strlen(a->dram_note);
	va_list ap;

	if (len == 0)
		len = (size_t)snprintf(a->dram_note, sizeof a->dram_note, "; not counted:");
	else if (len + 2 < sizeof a->dram_note)
		a->dram_note[len++] = ',';
	if (len + 2 >= sizeof a->dram_note)
		return;
	a->dram_note[len++] = ' ';
	va_start(ap, fmt);
	vsnprintf(a->dram_note + len, sizeof a->dram_note - len, fmt, ap);
	va_end(ap);
}

static bool transient_or_denied(int error)
{
	return error == -EBUSY || error == -ENOSPC || error == -EACCES || error == -EPERM;
}

/* The socket slot of a PMU's one CPU, or -1 (noted) when it has none. */
static int socket_of_pmu(struct amd *a, const struct pmu *p)
{
	int cpu = p->cpu[0], s;

	if (p->ncpus != 1 || cpu >= a->topo->ncpus || !a->topo->online[cpu] ||
	    a->topo->socket_of[cpu] < 0) {
		note(a, "%s (its cpumask names no online CPU of one socket)", p->name);
		return -1;
	}
	if ((s = amd_socket_slot(a, a->topo->socket_of[cpu])) < 0)
		note(a, "%s (more than %d sockets)", p->name, AMD_MAX_SOCKETS);
	return s;
}

int amd_umc_open(struct amd *a)
{
	/* Per controller: reads and writes share a window, as do the data
	 * slot and memory clocks; 4 counters hold both units in one group. */
	struct uncore_spec spec = {
		.second_field = "rdwrmask", .nunits = 2, .per_unit = 2, .saturates = true,
		.event = { { AMD_UMC_CAS_CMD, AMD_UMC_CAS_CMD },
			   { AMD_UMC_DATA_SLOT_CLKS, AMD_UMC_MEM_CLK } },
		.second = { { AMD_UMC_RDWR_READ, AMD_UMC_RDWR_WRITE }, { 0, 0 } },
		.counters = config_pmu_counters(a->cfg, "amd_umc", AMD_UMC_COUNTERS),
	};
	int limit = a->cfg->dram_channels ? a->cfg->dram_channels : AMD_MAX_CHANNELS;
	int number[AMD_MAX_UMC], n, ngroups = 0;

	if ((n = list_umc(number, AMD_MAX_UMC)) <= 0) {
		snprintf(a->df_status, AMD_STATUS_LEN, "no amd_umc_N PMU could be listed");
		return n < 0 ? n : -ENOENT;
	}
	if ((a->umc = calloc((size_t)n, sizeof *a->umc)) == NULL) {
		snprintf(a->df_status, AMD_STATUS_LEN, "out of memory");
		return -ENOMEM;
	}
	for (int k = 0; k < n; k++) {
		struct uncore *u = &a->umc[a->numc];
		char name[PMU_NAME_MAX];
		int s, ch, sts;

		snprintf(name, sizeof name, UMC_PREFIX "%d", number[k]);
		/* The kernel numbers without gaps: one means a PMU is missing. */
		int expected = k ? number[k - 1] + 1 : 0;

		if (number[k] == expected + 1)
			note(a, UMC_PREFIX "%d (absent)", expected);
		else if (number[k] > expected)
			note(a, UMC_PREFIX "%d..%d (absent)", expected, number[k] - 1);
		if ((sts = pmu_discover(&u->pmu, name, u->why, sizeof u->why)) < 0) {
			note(a, "%s", u->why);
			continue;
		}
		if ((s = socket_of_pmu(a, &u->pmu)) < 0)
			continue;
		if ((ch = a->socket[s].nchannels) >= limit) {
			note(a, "%s (socket %d has %d channels already)", name, a->socket[s].id, limit);
			continue;
		}
		if ((sts = uncore_open_pmu(u, &u->pmu, &spec, a->backend)) < 0) {
			if (transient_or_denied(sts)) {
				amd_describe_error(a->df_status, AMD_STATUS_LEN, u);
				return sts;	/* the caller closes what is open */
			}
			note(a, "%s", u->why);
			continue;
		}
		a->socket[s].nchannels++;
		a->channel[s][ch] = (struct amd_channel){
			.umc = number[k], .at = { u, 0, 0 }, .bus = { u, 0, 1 },
		};
		ngroups = u->ngroups;
		a->numc++;
	}
	if (a->numc == 0) {
		snprintf(a->df_status, AMD_STATUS_LEN, "no amd_umc_N PMU could be used%s",
			 a->dram_note);
		return -ENODEV;
	}
	snprintf(a->dram_text, sizeof a->dram_text, "%d amd_umc PMUs, reads, writes and data bus "
		 "on %d counters each, %s", a->numc, spec.counters, ngroups == 1 ?
		 "no multiplexing" : "2 groups rotated, each counting 1/2 of the time");
	return 0;
}
