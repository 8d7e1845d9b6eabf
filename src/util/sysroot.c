#include "sysroot.h"

#include "parsenum.h"
#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[PATH_MAX] = "";	/* "" is the real root: paths stay as given */
/* A root that could not be set: every path fails rather than fall back to
 * the real "/", which would serve this machine's values as the tree's. */
static int root_error;

int sr_set_root(const char *dir)
{
	size_t n;

	root_error = 0;
	if (dir == NULL || dir[0] == '\0' || strcmp(dir, "/") == 0) {
		root[0] = '\0';
		return 0;
	}
	n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')	/* "fixture/" and "fixture" are one root */
		n--;
	if (n >= sizeof root) {
		root_error = ENAMETOOLONG;
		return -ENAMETOOLONG;
	}
	memcpy(root, dir, n);
	root[n] = '\0';
	return 0;
}

const char *sr_root(void)
{
	if (root_error)
		return "(the root given is too long: nothing is read)";
	return root[0] ? root : "/";
}

static int vpath(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t n = strlen(root);
	int m;

	if (root_error)
		return -root_error;
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
	struct stat sb;
	va_list ap;
	int sts;

	va_start(ap, fmt);
	sts = vpath(path, sizeof path, fmt, ap);
	va_end(ap);
	/* (stat, not access: access(2) walks the path as the real uid, without
	 * the capabilities the daemon keeps once it has left root) */
	return sts == 0 && stat(path, &sb) == 0;
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
	n = rf_pread(fd, buf, size);
	close(fd);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return n;
}

int sr_read_long(long *value, long min, long max, const char *fmt, ...)
{
	char path[PATH_MAX], text[64];
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
	n = rf_pread(fd, text, sizeof text);
	close(fd);
	if (n < 0)
		return (int)n;
	return pn_long(text, min, max, value);
}
