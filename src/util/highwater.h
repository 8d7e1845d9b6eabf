/*
 * A cumulative reading that may come back a little below the last one
 * though the counter never went back.  The software PURR's per-CPU clocks
 * do so when a switch, timed by the program just before the sampler took
 * the time of its reading, reaches the map just after (the program waits
 * for the core's lock): that reading ran the spell on past the switch, and
 * the next is short by as much.  The mark holds the highest reading and
 * growth counts from it, so the shortfall is made up as the thread runs on
 * and nothing counts twice.
 */
#ifndef SMTCPU_HIGHWATER_H
#define SMTCPU_HIGHWATER_H

#include <stdint.h>

#define HIGHWATER_RESTARTED UINT64_MAX

/* The growth of reading past *mark, which then holds the higher of the two.
 * A reading more than slack below the mark is a counter that started again:
 * HIGHWATER_RESTARTED, and the mark starts from the reading. */
uint64_t highwater_advance(uint64_t *mark, uint64_t reading, uint64_t slack);

#endif
