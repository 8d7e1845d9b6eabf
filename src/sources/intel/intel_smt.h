/*
 * Intel's own count of SMT overlap, per thread, in crystal-clock ticks:
 * CPU_CLK_UNHALTED.ONE_THREAD_ACTIVE (event 0x3C umask 0x02) counts while
 * this thread is unhalted and its sibling halted; Ice Lake and later add
 * REF_DISTRIBUTED (0x3C/0x08), ticks shared out between the unhalted threads
 * (a tick both are unhalted counts half to each), and before them REF_XCLK
 * (0x3C/0x01) counts every tick this thread is unhalted.  Over one window of
 * a two-thread core, threads a and b:
 *   one thread busy   O_a + O_b
 *   both busy         B = 2 (D_a - O_a)   (REF_DISTRIBUTED)
 *                     B = U_a - O_a       (REF_XCLK)
 * Sapphire Rapids and later count REF_TSC_P at 0x3C/0x01 (TSC rate, not the
 * crystal): only REF_DISTRIBUTED is used there.
 */
#ifndef SMTCPU_INTEL_SMT_H
#define SMTCPU_INTEL_SMT_H

#include <stdint.h>

enum intel_smt_kind {
	INTEL_SMT_NONE,		/* not a model with these events known here */
	INTEL_SMT_XCLK,		/* Sandy Bridge .. Comet Lake: REF_XCLK */
	INTEL_SMT_DISTRIBUTED,	/* Ice Lake and later: REF_DISTRIBUTED */
};

struct intel_smt_events {
	uint8_t event;			/* 0x3C, CPU_CLK_UNHALTED */
	uint8_t one_umask;		/* ONE_THREAD_ACTIVE */
	uint8_t ref_umask;		/* REF_DISTRIBUTED or REF_XCLK */
	const char *ref_name;
};

/* Which pair a family 6 model counts with (from intel_smt.c's table). */
enum intel_smt_kind intel_smt_kind(int family, int model);
const struct intel_smt_events *intel_smt_events(enum intel_smt_kind kind);

/* One window of a two-thread core: each thread's ONE_THREAD_ACTIVE and
 * REF_* deltas in, each thread's ticks alone and the ticks both were busy
 * out (both: the mean of what each thread's counters say, never below 0). */
struct intel_smt_window {
	double alone[2], both;
};
void intel_smt_overlap(enum intel_smt_kind kind, const double one[2], const double ref[2],
		       struct intel_smt_window *w);

#endif
