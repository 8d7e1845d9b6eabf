/*
 * The kernel's CPU list format ("0-3,8,10-11\n", as in
 * /sys/devices/system/cpu/online and thread_siblings_list).
 */
#ifndef SMTCPU_CPULIST_H
#define SMTCPU_CPULIST_H

/* Sets set[cpu] = 1 for each CPU in text (set has nmax entries, cleared
 * first).  Returns the number of CPUs, or -1 when text is malformed or names
 * a CPU >= nmax.  An empty list is valid (0). */
int cpulist_parse(const char *text, unsigned char *set, int nmax);

/* Highest CPU number in a list plus one (0 for an empty list), -1 if malformed. */
int cpulist_span(const char *text);

#endif
