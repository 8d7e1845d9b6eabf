/*
 * cgroup v2 ids (what bpf_get_current_cgroup_id and the kernel's kernfs
 * give) to paths below the cgroup2 mount, as PCP's cgroup metrics name them:
 * "/" for the root, "/system.slice/sshd.service" below it.  A cgroup's id is
 * its directory's inode number.
 */
#ifndef SMTCPU_CGROUP_PATH_H
#define SMTCPU_CGROUP_PATH_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* Where cgroup2 is mounted, from /proc/self/mountinfo; -ENOENT if nowhere. */
int cgroup2_mount(char *dir, size_t size);

/* The path of cgroup id below mount; -ENOENT when there is none (gone).
 * By the kernel's file handle for the id where it gives one (root, or
 * CAP_DAC_READ_SEARCH), else by walking the tree. */
int cgroup_path_of(const char *mount, uint64_t id, char *path, size_t size);

/* Whether cgroup id still exists, mount_fd being the mount's directory
 * open: 1 gone, 0 there, -errno when the kernel will not say by handle
 * (then cgroup_path_of's -ENOENT is the answer). */
int cgroup_gone(int mount_fd, uint64_t id);

#endif
