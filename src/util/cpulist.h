/*
 * The kernel's CPU list format ("0-3,8,10-11\n", as in
 * /sys/devices/system/cpu/online and thread_siblings_list), and its mask
 * format (thread_siblings).
 */
#ifndef SMTCPU_CPULIST_H
#define SMTCPU_CPULIST_H

/* CPU numbers smtcpu accepts: 0 .. CPULIST_MAX_CPUS-1.  Above every
 * kernel's NR_CPUS limit (8192 on x86-64 and powerpc). */
#define CPULIST_MAX_CPUS 65536

/* Sets set[cpu] = 1 for each CPU in text (set has nmax entries, cleared
 * first).  Returns the number of CPUs, or -1 when text is malformed or names
 * a CPU >= nmax.  An empty list is valid (0). */
int cpulist_parse(const char *text, unsigned char *set, int nmax);

/* Highest CPU number in a list plus one (0 for an empty list), -1 if malformed. */
int cpulist_span(const char *text);

/* The lowest CPU in a list, -1 if it is empty or malformed.  Costs the
 * length of the text, not the number of CPUs. */
int cpulist_first(const char *text);

/* The CPUs of a list, which must be ascending as the kernel prints them,
 * the first max of them into cpus.  Returns how many it stored, max + 1
 * when the list has more, or -1 when malformed. */
int cpulist_collect(const char *text, int *cpus, int max);

/* Likewise from the kernel's mask format ("00000000,00000101": CPUs 0
 * and 8), as in thread_siblings where an older kernel has no list. */
int cpumask_collect(const char *text, int *cpus, int max);

#endif
