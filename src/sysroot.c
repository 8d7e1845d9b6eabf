#include "sysroot.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char root[PATH_MAX] = "";	/* "" is the real root: paths stay as given */

int sr_set_root(const char *dir)
{
	size_t n;

	if (dir == NULL || dir[0] == '\0' || strcmp(dir, "/") == 0) {
		root[0] = '\0';
		return 0;
	}
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')	/* "fixture/" and "fixture" are one root */
		n--;
	if (n >= sizeof root)
		return -ENAMETOOLONG;
	memcpy(root, dir, n);
	root[n] = '\0';
	return 0;
}

const char *sr_root(void)
{
	return root[0] ? root : "/";
}

static int vpath(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t n = strlen(root);
	int m;

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(buf, root, n);
	m = vsnprintf(buf + n, size - n, fmt, ap);
	if (m < 0 || (size_t)m >= size - n)
		return -ENAMETOOLONG;
	return 0;
}

int sr_path(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int sts;

	va_start(ap, fmt);
	sts = vpath(buf, size, fmt, ap);
	va_end(ap);
	return sts;
}

static int vopen(const char *fmt, va_list ap)
{
	char path[PATH_MAX];
	int fd, sts = vpath(path, sizeof path, fmt, ap);

	if (sts < 0)
		return sts;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int sr_open(const char *fmt, ...)
{
	va_list ap;
	int fd;

	va_start(ap, fmt);
	fd = vopen(fmt, ap);
	va_end(ap);
	return fd;
}

int sr_exists(const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int sts;

	va_start(ap, fmt);
	sts = vpath(path, sizeof path, fmt, ap);
	va_end(ap);
	return sts == 0 && access(path, F_OK) == 0;
}

ssize_t sr_pread_all(int fd, char *buf, size_t size)
{
	size_t have = 0;

	if (size == 0)
		return -EINVAL;
	while (have < size - 1) {
		ssize_t n = pread(fd, buf + have, size - 1 - have, (off_t)have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		have += (size_t)n;
		/* A short read is the end: /proc and sysfs files hand over all
		 * they have at once, and a read at a later offset would make
		 * the kernel generate the file again (on sysfs PURR, an IPI). */
		if (n == 0 || have < size - 1)
			break;
	}
	buf[have] = '\0';
	return (ssize_t)have;
}

ssize_t sr_read_small(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	ssize_t n;
	int fd;

	va_start(ap, fmt);
	fd = vopen(fmt, ap);
	va_end(ap);
	if (fd < 0)
		return fd;
	n = sr_pread_all(fd, buf, size);
	close(fd);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n;
}

int sr_read_long(long *value, const char *fmt, ...)
{
	char path[PATH_MAX], text[64], *end;
	va_list ap;
	ssize_t n;
	int fd, sts;

	va_start(ap, fmt);
	sts = vpath(path, sizeof path, fmt, ap);
	va_end(ap);
	if (sts < 0)
		return sts;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = sr_pread_all(fd, text, sizeof text);
	close(fd);
	if (n < 0)
		return (int)n;
	errno = 0;
	*value = strtol(text, &end, 10);
	if (end == text || errno != 0 || (*end != '\0' && *end != '\n'))
		return -EINVAL;
	return 0;
}
