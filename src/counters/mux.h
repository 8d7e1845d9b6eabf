/*
 * Multiplexing: more events than a PMU has counters.
 *
 * The plan: events come in units that must share a window (a DRAM
 * channel's read and write events; a CCX's L3 accesses and misses), and
 * units are packed whole into groups of at most as many events as the PMU
 * has counters, as few groups as will hold them, balanced.  Each group is
 * opened once per CPU of the PMU's cpumask.  The kernel then rotates the
 * groups on the counters every perf_event_mux_interval_ms: with G groups
 * each runs one rotation period in G, interleaved finely across every
 * sampling interval, so a burst cannot fall wholly between two samples and
 * all members of a group see the same slices.
 *
 * The estimate: over an interval a group reports Δcount, Δenabled and
 * Δrunning; the estimate is Δcount·Δenabled/Δrunning and the duty cycle
 * Δrunning/Δenabled.  An interval in which the group never ran has no
 * estimate: its baseline is kept, and the next interval that runs is
 * scaled over both, so nothing is lost and nothing reads as zero.
 */
#ifndef SMTCPU_MUX_H
#define SMTCPU_MUX_H

#include <stdint.h>

#include "counters.h"

#define MUX_COUNTER_BITS 48

/* Packs nunits units of per_unit events into groups of at most counters
 * events.  Sets group_of[unit] and returns the number of groups, or -1
 * when one unit does not fit on the counters. */
int mux_plan(int nunits, int per_unit, int counters, int *group_of);

enum mux_window {
	MUX_COUNTED,	/* est[] and *duty are set; move the baseline */
	MUX_NO_TIME,	/* enabled time did not advance (the counters stand still) */
	MUX_NOT_RUN,	/* enabled but never on a counter: keep the baseline */
	MUX_RESET,	/* times went backwards (reopened): take now as the baseline */
};

/* Estimates for the n members of a group between two readings.  Counts
 * are taken modulo 2^48, so a counter that wrapped counts on. */
enum mux_window mux_estimate(const struct ctr_reading *prev, const struct ctr_reading *now,
			     int n, double *est, double *duty);

#endif
