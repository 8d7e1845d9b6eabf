/*
 * /proc/powerpc/lparcfg (also /proc/ppc64/lparcfg): a pSeries LPAR's
 * configuration and its partition-wide counters.  First line "lparcfg 1.9",
 * then decimal key=value lines; which keys appear depends on the partition
 * (the pool keys only on shared-processor LPARs; purr and tbr only where the
 * firmware has SPLPAR, as every PowerVM partition's does).  The file stays
 * open and is re-read with pread.
 */
#ifndef SMTCPU_LPARCFG_H
#define SMTCPU_LPARCFG_H

#include <stdbool.h>
#include <stdint.h>

enum lpar_key {
	LPAR_ENTITLED,		/* partition_entitled_capacity, hundredths of a core */
	LPAR_CAPPED,		/* capped: 0/1 */
	LPAR_SHARED,		/* shared_processor_mode: 0/1 */
	LPAR_DONATING,		/* DedDonMode: a dedicated LPAR donating idle cycles */
	LPAR_VPROCS,		/* partition_active_processors: virtual processors (cores) */
	LPAR_POOL,		/* pool: shared pool id */
	LPAR_POOL_CAPACITY,	/* pool_capacity: hundredths of a core */
	LPAR_POOL_CORES,	/* pool_num_procs: physical cores in the pool */
	LPAR_POOL_IDLE,		/* pool_idle_time: timebase ticks, counter */
	LPAR_PURR,		/* purr: the sum of the online CPUs' PURR, counter */
	LPAR_TBR,		/* tbr: the timebase register, counter */
	LPAR_NKEYS
};

extern const char *const lparcfg_key_names[LPAR_NKEYS];

/* Comfortably more than the ~100 lines the kernel writes. */
#define LPARCFG_BUFSIZE 16384
#define LPARCFG_BOUND (LPARCFG_BUFSIZE - 2)

struct lparcfg {
	int fd;				/* -1 when there is no file */
	char *buf;
	int bufsize;
	char version[16];		/* "1.9" */
	int64_t value[LPAR_NKEYS];	/* valid where have[] */
	bool have[LPAR_NKEYS];
	int nread;			/* keys read at the last pass */
	int error;			/* errno of the open or last read, 0 if fine */
};

/* Opens the file if there is one.  Returns 0, or -errno (-ENOENT: not an
 * LPAR); -ENOMEM is the only failure that matters. */
int lparcfg_open(struct lparcfg *l);
void lparcfg_close(struct lparcfg *l);

/* Re-reads the file.  Returns the number of known keys read, or -errno
 * (-EFBIG past LPARCFG_BOUND bytes); on error no key has a value. */
int lparcfg_read(struct lparcfg *l);

/* The engine of lparcfg_read, exposed for tests: text is modified. */
int lparcfg_parse(struct lparcfg *l, char *text);

#endif
