/*
 * Bounded reads: every file smtcpu reads goes through one of these, each
 * with a stated maximum size.  A file larger than its bound is an error
 * (-EFBIG), never a cut value, a loop or a buffer that grows without end.
 */
#ifndef SMTCPU_READFILE_H
#define SMTCPU_READFILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * A kernel text file (procfs, sysfs), read from offset 0 into buf and
 * NUL-terminated.  Stops at the first short read, so the kernel generates
 * the file once (on sysfs PURR each generation is an IPI).  Files of up to
 * size - 2 bytes fit; the byte beyond is the sentinel that tells a larger
 * file.  Returns the length, or -EFBIG (buf then holds the file's first
 * size - 2 bytes, for callers that only need a prefix), or -errno.
 */
ssize_t rf_pread(int fd, char *buf, size_t size);

/*
 * A binary sysfs file (such as the SMBIOS table), which hands over at most
 * a page a read: read to its end.  Returns the length (at most size), or
 * -EFBIG when there is more, or -errno.
 */
ssize_t rf_read_binary(int fd, unsigned char *buf, size_t size);

/*
 * A whole regular file read once (a configuration, a trace, /proc/cpuinfo)
 * into memory from malloc, NUL-terminated; *len excludes the NUL.  Refuses
 * what is not a regular file (a directory, a FIFO, /dev/zero) with -EISDIR
 * or -EINVAL, and a file of more than max bytes with -EFBIG.  fd_or_path:
 * give fd >= 0 (taken over and closed) or path with fd = -1.
 */
int rf_load(int fd, const char *path, size_t max, char **text, size_t *len);

/* A reason for one of the errors above, naming the bound where it matters:
 * "larger than 16384 bytes", "not a regular file", or strerror's text. */
const char *rf_strerror(int err, size_t bound, char *buf, size_t size);

#endif
