/*
 * Shared by the unit tests: counting allocations (the tests link with
 * --wrap=malloc,calloc,realloc) and writing small fixture trees.
 */
#ifndef SMTCPU_UNIT_H
#define SMTCPU_UNIT_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc_count.h"
#include "sysroot.h"

static char fixture_root[PATH_MAX];

/* A fresh directory for this test's tree. */
static inline const char *fixture_new(const char *name)
{
	char cmd[PATH_MAX + 16];
	snprintf(fixture_root, sizeof fixture_root, "%s/smtcpu-unit-%s-%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", name, (int)getpid());
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fixture_root);
	if (system(cmd) != 0)
		abort();
	return fixture_root;
}

static inline void fixture_remove(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", fixture_root);
	if (system(cmd) != 0)
		abort();
}

/* cmocka teardown: the tree goes, and reads go back to the real root. */
static inline int fixture_teardown(void **state)
{
	(void)state;
	fixture_remove();
	sr_set_root(NULL);
	return 0;
}

/* Writes text to root/path, making directories; in place if it exists (the
 * PMDA keeps files open, as the kernel's files are rewritten in place). */
static inline void fixture_write(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void fixture_write(const char *path, const char *fmt, ...)
{
	char full[PATH_MAX];
	va_list ap;
	FILE *f;

	snprintf(full, sizeof full, "%s%s", fixture_root, path);
	for (char *p = full + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(full, 0755) < 0 && errno != EEXIST)
				abort();
			*p = '/';
		}
	if ((f = fopen(full, "w")) == NULL)
		abort();
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

/* Writes text to root/path (a trace, a configuration) and returns the
 * file's full path, valid until the next call. */
static inline const char *fixture_file(const char *path, const char *text)
{
	static char full[PATH_MAX];

	fixture_write(path, "%s", text);
	snprintf(full, sizeof full, "%s%s", fixture_root, path);
	return full;
}

/* CPUs 0..n-1 possible and online, as sysfs lists them. */
static inline void fixture_cpus(int n)
{
	fixture_write("/sys/devices/system/cpu/possible", "0-%d\n", n - 1);
	fixture_write("/sys/devices/system/cpu/online", "0-%d\n", n - 1);
}

/* /proc/cpuinfo of an EPYC 7742 (Zen 2, Rome), as x86's show_cpuinfo
 * prints the fields smtcpu reads. */
static inline void fixture_epyc_cpuinfo(void)
{
	fixture_write("/proc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
		      "cpu family\t: 23\nmodel\t\t: 49\nmodel name\t: AMD EPYC 7742 64-Core Processor\n"
		      "flags\t\t: fpu ht\n\n");
}

/* cpuN's thread_siblings_list and physical_package_id, as sysfs has them. */
static inline void fixture_cpu_topology(int cpu, const char *siblings, int package)
{
	char path[96];

	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	fixture_write(path, "%s\n", siblings);
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	fixture_write(path, "%d\n", package);
}

static inline void fixture_unlink(const char *path)
{
	char full[PATH_MAX];
	snprintf(full, sizeof full, "%s%s", fixture_root, path);
	unlink(full);
}

#endif
