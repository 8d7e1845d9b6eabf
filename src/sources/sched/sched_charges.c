#include "sched_charges.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_path.h"
#include "printable.h"
#include "sysroot.h"

/* The uid /proc gives the process's directory (its effective uid; root's
 * where it may not be dumped, task_dump_owner in fs/proc/base.c), as the
 * kernel weighs who may see it under hidepid=. */
static uint32_t owner_of(uint32_t pid)
{
	char path[PATH_MAX];
	struct stat sb;

	if (sr_path(path, sizeof path, "/proc/%u", pid) < 0 || stat(path, &sb) < 0)
		return SCHED_OWNER_UNKNOWN;
	return (uint32_t)sb.st_uid;
}

/* The process's instance name as the proc PMDA makes it: the PID in six
 * digits, then the command line's first word, or "(comm)" for a kernel
 * thread or a process already gone; either as printable_copy makes it. */
static void name_process(struct sched_state *st, int slot, uint32_t pid, const char *comm,
			 uint64_t ghost)
{
	struct sched_entry *e = &st->procs.e[slot];
	char cmd[SCHED_NAME_MAX], word[32], shown[SP_COMM_LEN + 1];
	ssize_t len = sr_read_small(cmd, sizeof cmd, "/proc/%u/cmdline", pid);
	size_t end;

	if (len == -EFBIG)	/* a longer command line: its first word is here */
		len = (ssize_t)strlen(cmd);
	end = len > 0 ? strnlen(cmd, (size_t)len) : 0;

	cmd[end < sizeof cmd ? end : sizeof cmd - 1] = '\0';
	cmd[strcspn(cmd, " ")] = '\0';
	printable_copy(cmd, sizeof cmd, cmd, sizeof cmd);
	printable_copy(shown, sizeof shown, comm, SP_COMM_LEN);
	/* PCP takes the first word as unique: one that took the PID of a
	 * process still served (a ghost) is PID:N, N its own number in the
	 * table (gen), which no other holder ever has. */
	if (ghost)
		snprintf(word, sizeof word, "%06u:%u", pid, e->gen);
	else
		snprintf(word, sizeof word, "%06u", pid);
	if (cmd[0])
		snprintf(e->name, sizeof e->name, "%s %s", word, cmd);
	else
		snprintf(e->name, sizeof e->name, "%s (%s)", word, shown);
	e->owner = owner_of(pid);
}

/* A cgroup's instance name: its path below the cgroup2 mount; for one
 * already removed, its parent's path and the directory name the program
 * kept; else "(cgroup-ID)".  PCP takes the name up to a space as unique:
 * a removed cgroup whose path a new one takes (a service restarted) goes
 * now, its values served; a removed one never takes a live one's. */
static void name_cgroup(struct sched_state *st, int slot, uint64_t id, const struct sp_cgroup *g)
{
	struct sched_entry *e = &st->cgroups.e[slot];
	char parent[SCHED_NAME_MAX];
	const char *mount = st->cgroup_mount;
	bool live = false;
	int other;

	if (mount[0] && cgroup_path_of(mount, id, e->name, sizeof e->name) == 0)
		live = true;
	else if (mount[0] && g && g->name[0] && g->parent &&
		 cgroup_path_of(mount, g->parent, parent, sizeof parent) == 0)
		snprintf(e->name, sizeof e->name, "%s/%.*s", strcmp(parent, "/") ? parent : "",
			 (int)strnlen(g->name, sizeof g->name), g->name);
	else
		snprintf(e->name, sizeof e->name, "(cgroup-%llu)", (unsigned long long)id);
	printable_copy(e->name, sizeof e->name, e->name, sizeof e->name);
	if ((other = sched_table_same_word(&st->cgroups, slot, e->name)) < 0)
		return;
	if (live && (st->cgroups.e[other].exited ||
		     cgroup_path_of(mount, st->cgroups.e[other].key, parent, sizeof parent) == -ENOENT)) {
		sched_purr_forget_cgroup(&st->sp, st->cgroups.e[other].key);
		sched_table_release(&st->cgroups, other);
	} else {
		snprintf(e->name, sizeof e->name, "(cgroup-%llu)", (unsigned long long)id);
	}
}

/* The slot for key, a new one when absent or when start says the key now
 * belongs to another process (start 0: not known yet).  The process that
 * had the key (a PID used again) stays, as a ghost under a key of its own,
 * until it has been served retire_ns after it ended, as any other;
 * *ghost is then its number, else 0. */
static int slot_for(struct sched_state *st, struct sched_table *t, uint64_t key, uint64_t start,
		    bool *fresh, uint64_t *ghost)
{
	int slot = sched_table_find(t, key);

	*fresh = false;
	*ghost = 0;
	if (slot >= 0 && start && t->e[slot].start && t->e[slot].start != start) {
		struct sched_entry *old = &t->e[slot];
		old->ghost = true;
		if (!old->exited)
			old->exited = st->sp.now;
		*ghost = ++st->ghosts;
		sched_table_rekey(t, slot, key | (*ghost << 32));
		slot = -1;
	}
	if (slot < 0) {
		if ((slot = sched_table_claim(t, key)) < 0)
			return slot;
		*fresh = true;
	}
	if (start)
		t->e[slot].start = start;
	return slot;
}

/* The entry of the process (tgid, start) or cgroup id, named where new;
 * NULL where the table has no room. */
static struct sched_entry *process_entry(struct sched_state *st, uint32_t tgid, uint64_t start,
					 const char *comm)
{
	bool fresh;
	uint64_t ghost;
	int slot = slot_for(st, &st->procs, tgid, start, &fresh, &ghost);

	if (slot < 0)
		return NULL;
	if (fresh)
		name_process(st, slot, tgid, comm, ghost);
	return &st->procs.e[slot];
}

static struct sched_entry *cgroup_entry(struct sched_state *st, uint64_t id, const struct sp_cgroup *g)
{
	bool fresh;
	uint64_t ghost;
	int slot = slot_for(st, &st->cgroups, id, 0, &fresh, &ghost);

	if (slot < 0)
		return NULL;
	if (fresh)
		name_cgroup(st, slot, id, g);
	return &st->cgroups.e[slot];
}

/* What this pass read for an entry, added to its reading. */
static void add_read(struct sched_entry *e, uint64_t clock, uint64_t busy)
{
	e->read_clock += clock;
	e->read_busy += busy;
	e->seen = true;
}

static void read_task(void *arg, uint32_t tgid, const struct sp_task *t)
{
	struct sched_entry *e = process_entry(arg, tgid, t->start, t->comm);

	if (e == NULL)
		return;
	add_read(e, t->clock, t->busy);
	e->exited = t->exited;
}

/* What each uid holds of the tasks map, and what its share refused. */
static void read_uid(void *arg, uint32_t uid, const struct sp_uid_made *m, uint64_t freed)
{
	struct sched_state *st = arg;
	uint64_t gone = m->replaced + freed;

	if (st->nuids == SP_UIDS || (m->made <= gone && m->refused == 0))
		return;
	st->uids[st->nuids++] = (struct sched_uid){ uid, m->made > gone ? (uint32_t)(m->made - gone) : 0,
						    m->refused, m->refused_clock };
}

static void read_cgroup(void *arg, uint64_t id, const struct sp_cgroup *g)
{
	struct sched_entry *e = cgroup_entry(arg, id, g);

	if (e != NULL)
		add_read(e, g->clock, g->busy);
}

/* A spell under way on a CPU counts for its process and cgroup now, not
 * only when it ends: a process that never switches out still grows. */
static void add_spell(struct sched_state *st, const struct sp_thread *t, uint64_t clock,
		      uint64_t busy)
{
	struct sched_entry *e;

	if (t->tgid == 0)
		return;
	if ((e = process_entry(st, t->tgid, t->start, "")) != NULL)
		add_read(e, clock, busy);
	if ((e = cgroup_entry(st, t->cgroup, NULL)) != NULL)
		add_read(e, clock, busy);
}

/* A CPU's pending charge (sp_pending) counts for its process and cgroup
 * as if in the maps.  Only for an entry the maps had this pass, for the
 * same process: the program made it when the charge began pending, so one
 * missing was retired (or evicted) and stays so. */
static void add_pending(struct sched_state *st, const struct sp_pending *p)
{
	int slot;

	if (p->tgid == 0 || p->busy == 0)
		return;
	slot = sched_table_find(&st->procs, p->tgid);
	if (slot >= 0 && st->procs.e[slot].start == p->start) {
		st->procs.e[slot].pending = true;
		if (st->procs.e[slot].seen)
			add_read(&st->procs.e[slot], p->clock, p->busy);
	}
	slot = sched_table_find(&st->cgroups, p->cgroup);
	if (slot >= 0 && st->cgroups.e[slot].seen)
		add_read(&st->cgroups.e[slot], p->clock, p->busy);
}

static void begin_pass(struct sched_table *t)
{
	for (int i = 0; i < t->cap; i++) {
		t->e[i].seen = t->e[i].pending = false;
		t->e[i].read_clock = t->e[i].read_busy = 0;
	}
}

/* Whether cgroup id was removed: by the kernel's handle where it gives
 * one, else by looking for it. */
static bool cgroup_removed(const struct sched_state *st, int mount_fd, uint64_t id)
{
	char path[SCHED_NAME_MAX];
	int gone = mount_fd >= 0 ? cgroup_gone(mount_fd, id) : -EBADF;

	if (gone >= 0)
		return gone;
	return cgroup_path_of(st->cgroup_mount, id, path, sizeof path) == -ENOENT;
}

/* Readings become the exported values, which never go back: a spell read
 * under way and then missed between the two map reads comes back next
 * pass.  An entry the map no longer has goes.  A process that exited
 * leaves the map SCHED_FORGET_NS later, once no CPU holds a charge for
 * it; it, or a cgroup found removed (mount_fd >= 0: look this pass),
 * stays an instance retire_ns, its last values served, then leaves the
 * table (and a cgroup the map). */
static void end_pass(struct sched_state *st, struct sched_table *t, bool procs, int mount_fd)
{
	for (int i = 0; i < t->cap; i++) {
		struct sched_entry *e = &t->e[i];

		if (!e->used)
			continue;
		if (!e->seen && !e->ghost && !e->forgotten) {
			sched_table_release(t, i);
			continue;
		}
		if (e->read_clock > e->clock)
			e->clock = e->read_clock;
		if (e->read_busy > e->busy)
			e->busy = e->read_busy;
		if (!procs && !e->exited && mount_fd >= 0 && cgroup_removed(st, mount_fd, e->key))
			e->exited = st->sp.now;
		/* (a ghost's PID, and map entry, are its successor's) */
		if (procs && e->exited && !e->ghost && !e->forgotten && !e->pending &&
		    st->sp.now > e->exited + SCHED_FORGET_NS) {
			sched_purr_forget_task(&st->sp, (uint32_t)e->key, e->start);
			e->forgotten = true;
		}
		if (e->exited && st->sp.now > e->exited + st->retire_ns) {
			if (procs && !e->ghost && !e->forgotten)
				sched_purr_forget_task(&st->sp, (uint32_t)e->key, e->start);
			else if (!procs)
				sched_purr_forget_cgroup(&st->sp, e->key);
			sched_table_release(t, i);
		}
	}
}

/* How full each map is, and what it refused. */
static void note_use(struct sched_state *st, enum sp_map map, int entries)
{
	struct sched_map_use *u = &st->maps[map];

	if (entries >= 0) {
		u->entries = (uint32_t)entries;
		if (u->entries > u->peak)
			u->peak = u->entries;
	}
	if (sched_purr_refused(&st->sp, map, &u->refused) < 0)
		st->task_errors++;
}

void sched_charges_open(struct sched_state *st)
{
	for (int m = 0; m < SP_NMAPS; m++)
		st->maps[m].capacity = sched_purr_capacity(&st->sp, (enum sp_map)m);
	if (cgroup2_mount(st->cgroup_mount, sizeof st->cgroup_mount) < 0)
		st->cgroup_mount[0] = '\0';
}

void sched_charges_read_maps(struct sched_state *st, int *ntasks, int *ncgroups)
{
	begin_pass(&st->procs);
	begin_pass(&st->cgroups);
	*ntasks = sched_purr_each_task(&st->sp, read_task, st);
	*ncgroups = sched_purr_each_cgroup(&st->sp, read_cgroup, st);
}

void sched_charges_note_maps(struct sched_state *st, int ntasks, int ncgroups)
{
	if (ntasks < 0 || ncgroups < 0)
		st->task_errors++;
	note_use(st, SP_MAP_TASKS, ntasks);
	note_use(st, SP_MAP_CGROUPS, ncgroups);
	st->nuids = 0;
	if (sched_purr_each_uid(&st->sp, read_uid, st) < 0)
		st->task_errors++;
}

void sched_charges_add_thread(struct sched_state *st, const struct sp_thread *th,
			      uint64_t spell_clock, uint64_t spell_busy)
{
	add_spell(st, th, spell_clock, spell_busy);
	add_pending(st, &th->pending);
}

void sched_charges_end_pass(struct sched_state *st)
{
	int mount_fd = -1;

	if (st->cgroup_mount[0] && st->sp.now >= st->next_cgroup_check) {
		st->next_cgroup_check = st->sp.now + SCHED_CGROUP_CHECK_NS;
		mount_fd = open(st->cgroup_mount, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	}
	end_pass(st, &st->procs, true, -1);
	end_pass(st, &st->cgroups, false, mount_fd);
	sched_table_shrink(&st->procs);
	sched_table_shrink(&st->cgroups);
	if (mount_fd >= 0)
		close(mount_fd);
}

void sched_charges_free(struct sched_state *st)
{
	sched_table_free(&st->procs);
	sched_table_free(&st->cgroups);
}
