#include "cgroup_path.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>	/* open_by_handle_at: _GNU_SOURCE, as the build defines */
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

/* kernfs's file handle is the node's 64-bit id (FILEID_KERNFS), which is
 * the cgroup id: the kernel's cgroup_get_from_id() and bpftool's cgroup
 * paths go the same way. */
#define FILEID_KERNFS 0xfe

static int open_by_id(int mount_fd, uint64_t id)
{
	union {
		struct file_handle fh;
		char space[sizeof(struct file_handle) + sizeof(uint64_t)];
	} h;
	int fd;

	h.fh.handle_bytes = sizeof id;
	h.fh.handle_type = FILEID_KERNFS;
	memcpy(h.fh.f_handle, &id, sizeof id);
	fd = open_by_handle_at(mount_fd, &h.fh, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int cgroup_gone(int mount_fd, uint64_t id)
{
	int fd = open_by_id(mount_fd, id);

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return fd == -ESTALE || fd == -ENOENT ? 1 : fd;
}

/* The path of the directory fd, below mount, from its /proc/self/fd link. */
static int path_below(int fd, const char *mount, char *path, size_t size)
{
	char link[64], full[PATH_MAX];
	size_t mlen = strlen(mount);
	ssize_t n;

	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	if ((n = readlink(link, full, sizeof full - 1)) < 0)
		return -errno;
	full[n] = '\0';
	if (strncmp(full, mount, mlen) != 0 || (full[mlen] != '/' && full[mlen] != '\0'))
		return -ENOENT;
	if (strlen(full + mlen) + 2 > size)
		return -ENAMETOOLONG;
	snprintf(path, size, "%s", full[mlen] ? full + mlen : "/");
	return 0;
}

int cgroup_path_of(const char *mount, uint64_t id, char *path, size_t size)
{
	struct stat st;
	int fd, sub, sts;

	if (size < 2)
		return -ENOSPC;
	if ((fd = open(mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) == 0 && (uint64_t)st.st_ino == id) {
		close(fd);
		snprintf(path, size, "/");
		return 0;
	}
	if ((sub = open_by_id(fd, id)) >= 0) {
		sts = path_below(sub, mount, path, size);
		close(sub);
		close(fd);
		return sts;
	}
	if (sub == -ESTALE || sub == -ENOENT) {
		close(fd);
		return -ENOENT;
	}
	path[0] = '\0';	/* no handles here: look for it */
	return walk(fd, path, size, id, 0) ? 0 : -ENOENT;
}
