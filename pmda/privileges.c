/*
 * The daemon starts as root (pmcd starts it so) to load its BPF program
 * and open its counters, then runs as an unprivileged user with only the
 * capabilities its later work needs, each for a reason named below.
 */
#include "privileges.h"

#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* CAP_PERFMON and CAP_BPF came with Linux 5.8; before, both were part of
 * CAP_SYS_ADMIN.  The running kernel says which it knows. */
#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

/* The user's groups kept, at most (pcp has one or two). */
#define MAX_GROUPS 64

static int last_cap(void)
{
	FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
	int last = -1;

	if (f) {
		if (fscanf(f, "%d", &last) != 1)
			last = -1;
		fclose(f);
	}
	return last;
}

static void add(uint64_t *set, int cap)
{
	*set |= 1ull << cap;
}

/* The capabilities kept, as a set. */
static uint64_t kept(const struct proc_mount *mount)
{
	uint64_t set = 0;

	/* PURR, SPURR and lparcfg are root's alone (0400, 0600), read again
	 * as CPUs come online; a cgroup's path comes from its id through
	 * open_by_handle_at, which asks for this. */
	add(&set, CAP_DAC_READ_SEARCH);
	if (last_cap() >= CAP_BPF) {
		/* Counters on every CPU are opened again as CPUs come online
		 * (perf_event_paranoid above 0 asks for it). */
		add(&set, CAP_PERFMON);
		/* The software PURR's maps are read and updated each pass: a
		 * kernel with unprivileged BPF off refuses bpf() without it. */
		add(&set, CAP_BPF);
	} else {
		add(&set, CAP_SYS_ADMIN);	/* both of the above, before 5.8 */
	}
	/* Under hidepid= without gid=, other users' /proc/PID (a command
	 * line, an owner) shows only to one that may ptrace them. */
	if (mount->hidepid != HIDEPID_OFF && !mount->has_gid)
		add(&set, CAP_SYS_PTRACE);
	return set;
}

static const char *cap_name(int cap)
{
	switch (cap) {
	case CAP_DAC_READ_SEARCH: return "cap_dac_read_search";
	case CAP_PERFMON: return "cap_perfmon";
	case CAP_BPF: return "cap_bpf";
	case CAP_SYS_ADMIN: return "cap_sys_admin";
	case CAP_SYS_PTRACE: return "cap_sys_ptrace";
	}
	return "?";
}

static int set_caps(uint64_t set)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof data);
	for (int i = 0; i < 2; i++)
		data[i].effective = data[i].permitted = (uint32_t)(set >> (32 * i));
	return (int)syscall(SYS_capset, &hdr, data);
}

int privileges_drop(const char *user, const struct proc_mount *mount, char *said, size_t size)
{
	uint64_t set = kept(mount);
	struct passwd *pw;
	gid_t groups[MAX_GROUPS + 1];
	int ngroups = MAX_GROUPS;
	size_t used;

	if (geteuid() != 0) {
		snprintf(said, size, "not started as root: runs as uid %u", (unsigned)geteuid());
		return 0;
	}
	if (user == NULL || strcmp(user, "root") == 0) {
		snprintf(said, size, "runs as root (-U root)");
		return 0;
	}
	if ((pw = getpwnam(user)) == NULL) {
		snprintf(said, size, "user %.32s unknown: stays root", user);
		return -ENOENT;
	}
	/* The user's groups, and /proc's gid= group, whose members see every
	 * process under hidepid=. */
	if (getgrouplist(user, pw->pw_gid, groups, &ngroups) < 0)
		ngroups = 0;
	if (mount->hidepid != HIDEPID_OFF && mount->has_gid)
		groups[ngroups++] = (gid_t)mount->gid;
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 || setgroups((size_t)ngroups, groups) < 0 ||
	    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0) {
		snprintf(said, size, "cannot take user %.32s's groups (%s): stays root", user,
			 strerror(errno));
		return -errno;
	}
	if (setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0) {
		snprintf(said, size, "cannot become user %.32s (%s): stays root with its groups",
			 user, strerror(errno));
		return -errno;
	}
	if (set_caps(set) < 0) {
		int err = errno;
		prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
		snprintf(said, size, "runs as %.32s (uid %u) without capabilities: capset: %s", user,
			 (unsigned)pw->pw_uid, strerror(err));
		return -err;
	}
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	used = (size_t)snprintf(said, size, "runs as %.32s (uid %u) with", user, (unsigned)pw->pw_uid);
	for (int cap = 0; cap < 64 && used < size; cap++)
		if (set & (1ull << cap))
			used += (size_t)snprintf(said + used, size - used, " %s", cap_name(cap));
	return 0;
}
