/*
 * AMD's parts, for amd.c and its parts alone (the PMDA and the sources see
 * amd.h): amd.c puts together DRAM (amd_dram.c on the Data Fabric,
 * amd_umc.c on the UMC PMUs) and the xGMI links (amd_links.c); what they
 * share is in amd_common.c.
 */
#ifndef SMTCPU_AMD_INTERNAL_H
#define SMTCPU_AMD_INTERNAL_H

#include "amd.h"

#define AMD_MAX_GROUPS 1024	/* DF, UMC and L3 groups on the largest machines */

/* The socket slot of a package, added when new; -1 when all are taken. */
int amd_socket_slot(struct amd *a, int package);

/* The socket slot of the i-th cpumask CPU of a one-CPU-per-socket PMU (the
 * DF's): that CPU's package, or i where the topology does not know it. */
int amd_unit_socket_slot(struct amd *a, int i, int cpu);

/* Why a set of counters could not be opened, in an operator's words. */
void amd_describe_error(char *out, size_t size, const struct uncore *u);

/* Opens DRAM on the Data Fabric, or on the amd_umc_N PMUs, and lays out
 * sockets and channels.  Returns 0 or -errno (df_status says why). */
int amd_dram_open(struct amd *a);
int amd_umc_open(struct amd *a);
/* This pass's sums of every channel and socket. */
void amd_dram_sum(struct amd *a);
void amd_dram_close(struct amd *a);

int amd_links_open(struct amd *a);
void amd_links_sum(struct amd *a);

#endif
