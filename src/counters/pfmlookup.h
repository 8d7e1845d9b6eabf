/*
 * Event codes from libpfm4's tables, for the events it knows (it has the
 * Zen3 L3 PMU, no Data Fabric or UMC tables).  Looks up by PMU and event
 * name whether or not that PMU is on this machine: the code is the same.
 */
#ifndef SMTCPU_PFMLOOKUP_H
#define SMTCPU_PFMLOOKUP_H

#include <stdint.h>

/* "amd64_fam19h_zen3_l3", "UNC_L3_REQUESTS", "ALL" (umask NULL for none).
 * Returns 0 and the event's code and umask code, or -ENOENT. */
int pfm_lookup(const char *pmu, const char *event, const char *umask, uint64_t *code,
	       uint64_t *umask_code);

#endif
