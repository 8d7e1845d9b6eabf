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

/* The path of cgroup id below mount; -ENOENT when there is none (gone). */
int cgroup_path_of(const char *mount, uint64_t id, char *path, size_t size);

/* 1 if path below mount is still cgroup id. */
int cgroup_path_is(const char *mount, const char *path, uint64_t id);

#endif
