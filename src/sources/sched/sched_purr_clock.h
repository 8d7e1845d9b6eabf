/*
 * A core's calibrated clock (acc, sched_purr_abi.h), as the BPF program
 * keeps it under the core's lock and the loader reads it: one definition for
 * both, so that the unit tests run the program's own arithmetic.
 */
#ifndef SMTCPU_SCHED_PURR_CLOCK_H
#define SMTCPU_SCHED_PURR_CLOCK_H

#include "sched_purr_abi.h"

/* (inlined: the program calls these with the core's lock held, where the
 * verifier allows no call) */
#define SP_INLINE static inline __attribute__((always_inline))

/* dt x c, c = share / 2^16, without overflow for any dt. */
SP_INLINE __u64 sp_scale(__u64 dt, __u32 share)
{
	return (dt >> SP_SHARE_SHIFT) * share +
	       (((dt & ((1u << SP_SHARE_SHIFT) - 1)) * share) >> SP_SHARE_SHIFT);
}

/* The threads busy now, as an index into share[] (64 bits: a spilled 32-bit
 * value loses its bound on kernels before 6.3 or so). */
SP_INLINE __u64 sp_core_busy(const struct sp_core *c)
{
	return c->nbusy < SP_MAX_THREADS ? c->nbusy : SP_MAX_THREADS;
}

/* acc as it stands at now: what the busy threads earned since last. */
SP_INLINE __u64 sp_core_acc_at(const struct sp_core *c, const struct sp_shares *sh, __u64 now)
{
	if (!c->last || now <= c->last)
		return c->acc;
	return c->acc + sp_scale(now - c->last, sh->share[sp_core_busy(c)]);
}

/*
 * Under the core's lock: acc brought up to *now; returns the busy threads
 * it grew for.  The clock is read before the lock, so a sibling that read it
 * later may have taken the lock first and brought acc past *now: the switch
 * is then taken when the core last changed (*now moves up to it), as moving
 * last back would count that stretch twice into every busy thread's clock.
 */
SP_INLINE __u64 sp_core_advance(struct sp_core *c, const struct sp_shares *sh, __u64 *now)
{
	if (*now < c->last)
		*now = c->last;
	c->acc = sp_core_acc_at(c, sh, *now);
	c->last = *now;
	return sp_core_busy(c);
}

#endif
