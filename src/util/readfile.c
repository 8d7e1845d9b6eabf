#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ssize_t rf_pread(int fd, char *buf, size_t size)
{
	size_t have = 0;

	if (size < 2)
		return -EINVAL;
	while (have < size - 1) {
		ssize_t n = pread(fd, buf + have, size - 1 - have, (off_t)have);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			buf[0] = '\0';
			return -errno;
		}
		have += (size_t)n;
		/* A short read is the end: /proc and sysfs files hand over all
		 * they have at once, and a read at a later offset would make
		 * the kernel generate the file again. */
		if (n == 0 || have < size - 1)
			break;
	}
	if (have == size - 1) {		/* the sentinel byte came too */
		buf[size - 2] = '\0';
		return -EFBIG;
	}
	buf[have] = '\0';
	return (ssize_t)have;
}

ssize_t rf_read_binary(int fd, unsigned char *buf, size_t size)
{
	size_t have = 0;

	for (;;) {
		unsigned char extra;
		ssize_t n = have < size ? read(fd, buf + have, size - have) : read(fd, &extra, 1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return (ssize_t)have;
		if (have == size)
			return -EFBIG;
		have += (size_t)n;
	}
}

int rf_load(int fd, const char *path, size_t max, char **text, size_t *len)
{
	size_t cap = 4096, have = 0;
	struct stat st;
	char *buf = NULL;
	int sts = 0;

	*text = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	if (fd < 0 && (fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		sts = -errno;
	else if (S_ISDIR(st.st_mode))
		sts = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		sts = -EINVAL;
	else if (st.st_size > 0 && (size_t)st.st_size > max)
		sts = -EFBIG;
	while (sts == 0) {
		ssize_t n;

		if (have + 1 >= cap) {	/* room for one byte beyond max, and the NUL */
			size_t want = cap * 2 > max + 2 ? max + 2 : cap * 2;
			char *bigger;

			if (want <= cap) {
				sts = -EFBIG;
				break;
			}
			if ((bigger = realloc(buf, want)) == NULL) {
				sts = -ENOMEM;
				break;
			}
			buf = bigger;
			cap = want;
		} else if (buf == NULL && (buf = malloc(cap)) == NULL) {
			sts = -ENOMEM;
			break;
		}
		n = read(fd, buf + have, cap - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			sts = -errno;
		else if (n == 0)
			break;
		else if ((have += (size_t)n) > max)
			sts = -EFBIG;
	}
	close(fd);
	if (sts < 0) {
		free(buf);
		return sts;
	}
	if (buf == NULL && (buf = malloc(1)) == NULL)
		return -ENOMEM;
	buf[have] = '\0';
	*text = buf;
	*len = have;
	return 0;
}

const char *rf_strerror(int err, size_t bound, char *buf, size_t size)
{
	if (err < 0)
		err = -err;
	if (err == EFBIG)
		snprintf(buf, size, "larger than %zu bytes", bound);
	else if (err == EINVAL)
		snprintf(buf, size, "not a regular file");
	else
		snprintf(buf, size, "%s", strerror(err));
	return buf;
}
