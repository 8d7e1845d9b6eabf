/*
 * PURR, SPURR, idle_purr and idle_spurr of every online CPU, from
 * /sys/devices/system/cpu/cpuN/.  Each file is kept open and read once per
 * pass with pread: on real hardware every read is an IPI to that CPU.
 * Values are in timebase ticks, printed by the kernel as hex without 0x.
 */
#ifndef SMTCPU_PURR_H
#define SMTCPU_PURR_H

#include <stdbool.h>
#include <stdint.h>

enum purr_counter { PURR, SPURR, IDLE_PURR, IDLE_SPURR, PURR_NCOUNTERS };

extern const char *const purr_file_names[PURR_NCOUNTERS];

struct purr_cpu {
	int fd[PURR_NCOUNTERS];		/* -1 when not open */
	uint64_t now[PURR_NCOUNTERS];	/* ticks, valid where seen */
	bool seen[PURR_NCOUNTERS];	/* read and parsed this pass */
	bool retry[PURR_NCOUNTERS];	/* closed after a failed read: reopened next pass */
	bool reopened[PURR_NCOUNTERS];	/* this pass's reading is the first since a failure */
};

struct purr {
	int ncpus;
	struct purr_cpu *cpu;		/* [ncpus] */
	int nopen[PURR_NCOUNTERS];	/* online CPUs with the file open */
	int nonline;			/* online CPUs at the last sync */
	int open_error[PURR_NCOUNTERS];	/* an errno from the last failed open, or 0 */
	int open_error_cpu[PURR_NCOUNTERS];
	/* The last pass: files whose read failed (closed, retried every pass)
	 * and files that did not hold a hex counter, with the first of each. */
	int nfailed[PURR_NCOUNTERS], failed_error[PURR_NCOUNTERS], failed_cpu[PURR_NCOUNTERS];
	int nmalformed[PURR_NCOUNTERS], malformed_cpu[PURR_NCOUNTERS];
};

/* Sizes the arrays; opens nothing.  Returns 0 or -ENOMEM. */
int purr_init(struct purr *p, int ncpus);
void purr_free(struct purr *p);

/* Opens the files of online CPUs that have none open, closes those of CPUs
 * now offline (the kernel removes their files).  Call after every change
 * of the online set. */
void purr_sync(struct purr *p, const unsigned char *online);

/* The counters a pass reads: bit k for counter k. */
#define PURR_BIT(k) (1u << (k))
#define PURR_ALL_COUNTERS (PURR_BIT(PURR_NCOUNTERS) - 1)

/* Reads every open file of the counters in wanted (PURR_BIT()s) once; the
 * others stay open, unread and unseen.  A file that cannot be read is
 * closed and reopened at the next pass that wants it (or by the next sync,
 * if its CPU went offline under us); a malformed one is logged once.  Both
 * are counted in nfailed and nmalformed.  Returns the number of CPUs with a
 * PURR. */
int purr_read(struct purr *p, unsigned wanted);

/* Parses the kernel's "%lx\n".  Returns 0, or -EINVAL. */
int purr_parse_hex(const char *text, uint64_t *value);

/*
 * Shares a thread's PURR over one window out to the modes of its /proc/stat
 * deltas over the same window, as AIX perfstat's puser/psys/pwait/pidle:
 *   stat[]: ticks of user (+nice), sys (+irq, softirq), iowait, idle;
 *   didle: the thread's idle PURR, or a negative number when unknown.
 * With idle PURR, busy PURR (dpurr - didle) goes to user and sys and idle
 * PURR to wait and idle, each pair in proportion to its ticks; without it,
 * all of dpurr is shared over the four.  Where a pair saw no ticks its PURR
 * goes to sys (busy) or idle.  out[] sums to dpurr.
 */
enum purr_mode { PMODE_USER, PMODE_SYS, PMODE_WAIT, PMODE_IDLE, PMODE_COUNT };
void purr_split(double dpurr, double didle, const double stat[PMODE_COUNT],
		double out[PMODE_COUNT]);

#endif
