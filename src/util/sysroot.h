/*
 * Every /proc and /sys path goes through one root prefix, so that a captured
 * tree can stand in for the machine.  Files read every sample are opened once
 * and re-read with pread, as the kernel regenerates them on each read.
 */
#ifndef SMTCPU_SYSROOT_H
#define SMTCPU_SYSROOT_H

#include <stddef.h>
#include <sys/types.h>

/* NULL or "" means "/".  Returns 0, or -ENAMETOOLONG; then every path
 * fails with -ENAMETOOLONG until a root is set that fits. */
int sr_set_root(const char *root);
const char *sr_root(void);

/* root + path (path is absolute, e.g. "/proc/stat").  Returns 0 or -ENAMETOOLONG. */
int sr_path(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* open(root + path, O_RDONLY|O_CLOEXEC): an fd, or -errno. */
int sr_open(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int sr_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One-off read of a small kernel file (open, rf_pread, close) into buf,
 * which bounds it.  Trailing newline removed.  Returns the length or
 * -errno (-EFBIG when it does not fit). */
ssize_t sr_read_small(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A decimal integer file such as topology/physical_package_id, in
 * [min, max].  Returns 0 and sets *value, or -errno (-EINVAL when not a
 * number, -ERANGE when out of range). */
int sr_read_long(long *value, long min, long max, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
