/*
 * How the /proc mount hides processes (proc(5), "hidepid=" and "gid="), as
 * the kernel prints its options in /proc/self/mountinfo (proc_show_options,
 * fs/proc/inode.c: words since 5.8, numbers before).
 */
#ifndef SMTCPU_PROCMOUNT_H
#define SMTCPU_PROCMOUNT_H

#include <stdbool.h>
#include <stdint.h>

enum hidepid {
	HIDEPID_OFF = 0,	/* every process shown to every user */
	HIDEPID_NOACCESS = 1,	/* others' shown, but not their files */
	HIDEPID_INVISIBLE = 2,	/* others' not shown */
	HIDEPID_PTRACEABLE = 4,	/* shown where the user may ptrace them */
};

struct proc_mount {
	enum hidepid hidepid;
	bool has_gid;		/* gid= given: its members see every process */
	uint32_t gid;
};

/* The options of the mount at /proc (the last, where one is over another)
 * from the mountinfo text; without one, the default (off, no gid).  Returns
 * true where /proc's line was found. */
bool proc_mount_parse(const char *mountinfo, struct proc_mount *m);

/* The same from root/proc/self/mountinfo: a tree without one (a fixture)
 * hides nothing. */
bool proc_mount_read(struct proc_mount *m);

#endif
