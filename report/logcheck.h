/*
 * What pmlogcheck(1) says of an archive the reports could not read, so
 * that the error names the damage as PCP's own checker does.
 */
#ifndef SMTCPU_LOGCHECK_H
#define SMTCPU_LOGCHECK_H

#include <stddef.h>

/* pmlogcheck's first complaint about archive into buf (printable, one
 * line), or "" where it says nothing or cannot be run. */
void logcheck_says(const char *archive, char *buf, size_t len);

#endif
