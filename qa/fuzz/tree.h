/*
 * A fixture tree as fuzzer input.  The input is a run of records, each
 *
 *     LEN (1 byte)  PATH (LEN bytes)  SIZE (2 bytes, little-endian)  CONTENT
 *
 * PATH is relative ("sys/devices/system/cpu/online"), of the characters
 * [A-Za-z0-9_.-/] with no ".." and no empty part; a record whose path is
 * not is skipped.  A record with LEN 0 ends the first tree: what follows is
 * written over it before a second sampling pass.  qa/fuzz/tree-encode makes
 * such input from a real tree (the seeds).  Files go into a directory of
 * this process's own, emptied before every input.
 */
#ifndef SMTCPU_FUZZ_TREE_H
#define SMTCPU_FUZZ_TREE_H

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static char tree_root[PATH_MAX];

static int tree_unlink(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

/* A fresh, empty directory for this process's trees. */
static inline const char *tree_reset(void)
{
	if (tree_root[0] == '\0') {
		const char *tmp = getenv("TMPDIR");
		snprintf(tree_root, sizeof tree_root, "%s/smtcpu-fuzz-%d", tmp ? tmp : "/tmp",
			 (int)getpid());
		mkdir(tree_root, 0700);
	}
	nftw(tree_root, tree_unlink, 16, FTW_DEPTH | FTW_PHYS);
	return tree_root;
}

static inline int tree_path_ok(const uint8_t *p, size_t n)
{
	size_t part = 0;

	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c == '/') {
			if (part == 0)
				return 0;
			part = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.'))
			return 0;
		if (c == '.' && part == 1 && p[i - 1] == '.')
			return 0;
		part++;
	}
	return part > 0 && !(part == 2 && p[n - 1] == '.' && p[n - 2] == '.');
}

/* Writes one file, making its directories. */
static inline void tree_write(const uint8_t *path, size_t n, const uint8_t *content, size_t size)
{
	char full[PATH_MAX];
	size_t at = strlen(tree_root);
	int fd;

	if (at + 1 + n >= sizeof full)
		return;
	memcpy(full, tree_root, at);
	full[at] = '/';
	memcpy(full + at + 1, path, n);
	full[at + 1 + n] = '\0';
	for (char *s = full + at + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			mkdir(full, 0755);
			*s = '/';
		}
	if ((fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644)) < 0)
		return;
	if (write(fd, content, size) < 0) {
		/* a directory by that name, or the like: the file stays empty */
	}
	close(fd);
}

/* Writes records from *data until a LEN 0 record or the end; moves *data
 * and *size past what it used.  Returns how many files it wrote. */
static inline int tree_apply(const uint8_t **data, size_t *size)
{
	int files = 0;

	while (*size > 0) {
		size_t n = (*data)[0], len;
		const uint8_t *path = *data + 1;

		if (n == 0) {
			(*data)++;
			(*size)--;
			break;
		}
		if (*size < 1 + n + 2)
			break;
		len = (size_t)path[n] | (size_t)path[n + 1] << 8;
		if (len > *size - 1 - n - 2)
			len = *size - 1 - n - 2;
		if (tree_path_ok(path, n)) {
			tree_write(path, n, path + n + 2, len);
			files++;
		}
		*data += 1 + n + 2 + len;
		*size -= 1 + n + 2 + len;
	}
	return files;
}

#endif
