/* CLOCK_MONOTONIC, the one clock every part of smtcpu times itself by (the
 * clock bpf_ktime_get_ns() reads too). */
#ifndef SMTCPU_MONOCLOCK_H
#define SMTCPU_MONOCLOCK_H

#include <stdint.h>

uint64_t mono_ns(void);
double mono_seconds(void);

#endif
