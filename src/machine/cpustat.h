/*
 * Per-CPU times from /proc/stat, in USER_HZ ticks.  The file stays open and
 * is re-read with pread into a buffer sized at start-up for the per-CPU
 * lines of every possible CPU.
 */
#ifndef SMTCPU_CPUSTAT_H
#define SMTCPU_CPUSTAT_H

#include <stddef.h>
#include <stdint.h>

enum cpustat_field {
	CS_USER, CS_NICE, CS_SYSTEM, CS_IDLE, CS_IOWAIT, CS_IRQ, CS_SOFTIRQ,
	CS_STEAL, CS_GUEST, CS_GUEST_NICE, CS_NFIELDS
};

/* Kernels appended fields over time (proc(5): iowait since 2.5.41, irq
 * and softirq 2.6.0, steal 2.6.11, guest 2.6.24, guest_nice 2.6.33; a
 * POWER7 LPAR's 2.6.32 prints 9): a line needs user, nice, system and idle,
 * and a field its kernel does not print is 0, time it did not count apart. */
#define CS_MIN_FIELDS (CS_IDLE + 1)

struct cpustat_times {
	uint64_t field[CS_NFIELDS];
};

struct cpustat {
	int fd;
	char *buf;
	size_t bufsize;
	int ncpus;			/* CPU numbers 0 .. ncpus-1 */
	struct cpustat_times *now;	/* [ncpus], valid where seen[] */
	unsigned char *seen;		/* [ncpus]: a well-formed line this read */
	int nseen;
	int error;			/* last errno reading the file, 0 if fine */
};

/* Opens root/proc/stat and sizes the buffer.  Returns 0 or -errno. */
int cpustat_open(struct cpustat *cs, int ncpus);
void cpustat_close(struct cpustat *cs);

/* Re-reads the file.  Malformed lines are logged once and left unseen.
 * Returns the number of CPUs seen, or -errno (then nothing is seen):
 * -EFBIG when the per-CPU lines run past cpustat_bound() bytes. */
int cpustat_read(struct cpustat *cs);

/* Parses "cpuN f0 f1 ..." lines from text; the engine of cpustat_read,
 * exposed for tests.  Returns the number of CPUs seen. */
int cpustat_parse(struct cpustat *cs, const char *text);

/* The most of /proc/stat read: more than the per-CPU lines of every
 * possible CPU can take. */
size_t cpustat_bound(const struct cpustat *cs);

/* Busy ticks: user + nice + system + irq + softirq (guest time is already
 * inside user and nice).  Window ticks: everything but steal and guest. */
uint64_t cpustat_busy(const struct cpustat_times *t);
uint64_t cpustat_window(const struct cpustat_times *t);

#endif
