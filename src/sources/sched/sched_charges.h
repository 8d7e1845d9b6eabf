/*
 * What the software PURR charged each process and cgroup, for smt.proc.*
 * and smt.cgroup.*: read from the program's maps and the CPUs' slots each
 * pass, named as each first appears, and forgotten a while after it ended.
 * The source's steps (source_sched.c) call these in a pass's order.
 */
#ifndef SMTCPU_SCHED_CHARGES_H
#define SMTCPU_SCHED_CHARGES_H

#include <stdint.h>

#include "source_sched.h"

/* Once the program is open: its maps' capacities, and where cgroup2 is. */
void sched_charges_open(struct sched_state *st);

/* One try at the pass's reading of the process and cgroup maps: the
 * readings start again from what the maps hold.  The entries each had, or
 * -errno, in *ntasks and *ncgroups. */
void sched_charges_read_maps(struct sched_state *st, int *ntasks, int *ncgroups);

/* After the last try: how full the maps are, and what each uid holds. */
void sched_charges_note_maps(struct sched_state *st, int ntasks, int ncgroups);

/* A CPU's slot as the cores were read: its spell under way (spell_clock,
 * spell_busy) and its pending charge count for their process and cgroup. */
void sched_charges_add_thread(struct sched_state *st, const struct sp_thread *th,
			      uint64_t spell_clock, uint64_t spell_busy);

/* The pass's readings become the values served; what ended long enough ago
 * leaves the tables, and the program's maps. */
void sched_charges_end_pass(struct sched_state *st);

void sched_charges_free(struct sched_state *st);

#endif
