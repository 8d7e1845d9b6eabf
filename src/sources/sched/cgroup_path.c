#include "cgroup_path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sysroot.h"

/* mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [TAGS] - FSTYPE SOURCE SUPER". */
int cgroup2_mount(char *dir, size_t size)
{
	char line[4096], mnt[PATH_MAX];
	FILE *f;
	int fd = sr_open("/proc/self/mountinfo"), found = -ENOENT;

	if (fd < 0)
		return fd;
	if ((f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return -errno;
	}
	while (found < 0 && fgets(line, sizeof line, f)) {
		const char *sep = strstr(line, " - ");
		char fstype[32];

		if (sep == NULL || sscanf(sep, " - %31s", fstype) != 1 || strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1 && strlen(mnt) < size) {
			snprintf(dir, size, "%s", mnt);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* Depth-first under fd (whose path below the mount is rel), for the
 * directory whose inode number is id. */
static int walk(int fd, char *rel, size_t size, uint64_t id, int depth)
{
	size_t len = strlen(rel);
	DIR *d;
	struct dirent *de;
	int found = 0;

	if (depth > 64 || (d = fdopendir(fd)) == NULL) {
		close(fd);
		return 0;
	}
	while (!found && (de = readdir(d)) != NULL) {
		int sub;

		if (de->d_type != DT_DIR || strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (len + 1 + strlen(de->d_name) >= size)
			continue;
		snprintf(rel + len, size - len, "/%s", de->d_name);
		if ((uint64_t)de->d_ino == id)
			found = 1;
		else if ((sub = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
			found = walk(sub, rel, size, id, depth + 1);
		if (!found)
			rel[len] = '\0';
	}
	closedir(d);
	return found;
}

int cgroup_path_of(const char *mount, uint64_t id, char *path, size_t size)
{
	struct stat st;
	int fd;

	if (size < 2)
		return -ENOSPC;
	if ((fd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_ino == id) {
		close(fd);
		snprintf(path, size, "/");
		return 0;
	}
	path[0] = '\0';
	return walk(fd, path, size, id, 0) ? 0 : -ENOENT;
}

int cgroup_path_is(const char *mount, const char *path, uint64_t id)
{
	char full[PATH_MAX];
	struct stat st;

	snprintf(full, sizeof full, "%s%s", mount, strcmp(path, "/") == 0 ? "" : path);
	return stat(full, &st) == 0 && (uint64_t)st.st_ino == id;
}
