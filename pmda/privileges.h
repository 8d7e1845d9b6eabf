/*
 * Root's powers given up once the daemon has started (pmda/privileges.c).
 */
#ifndef SMTCPU_PMDA_PRIVILEGES_H
#define SMTCPU_PMDA_PRIVILEGES_H

#include <stddef.h>

#include "procmount.h"

/* Runs the process as user (NULL or "root": stays root) with only the
 * capabilities later passes need; mount says whether /proc hides
 * processes (then its gid= group, or CAP_SYS_PTRACE without one, is
 * kept).  said gets what it did, for the log.  Returns 0, or -errno
 * where it could not (said says how it runs then). */
int privileges_drop(const char *user, const struct proc_mount *mount, char *said, size_t size);

#endif
