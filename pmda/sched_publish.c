/*
 * The software PURR's processes, cgroups and uids as instances of
 * PROC_INDOM, CGROUP_INDOM and UID_INDOM, after each pass.
 */
#include "sched_publish.h"
#include "shared.h"
#include "source_sched.h"

#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Publishing: a table slot is an instance once per holder (gen), which
 * keeps its instance when the table moves it down.  One that
 * leaves is made inactive, so that a client that fetched it a moment before
 * still resolves its name (smtcpu_instance), and is culled retire_ns
 * later, so a long-lived agent does not keep every process that ever ran.
 */
struct published {
	uint32_t gen;
	int inst;
	bool live;
};

struct retired {
	int inst;
	double at;		/* monotonic seconds */
};

struct publisher {
	int serial;			/* PROC_INDOM or CGROUP_INDOM */
	uint32_t changes;		/* the table's, when last published */
	struct published *slot;
	int cap;
	struct retired *retired;	/* oldest first, from head */
	int head, nretired, retired_cap;
	bool waiting;			/* a newcomer waits for its name (add) */
	int culled;			/* instances culled since the cache last gave back */
	int held;			/* instances, active or inactive, at the last give-back or since */
	int newest;			/* the highest instance identifier given */
};

static struct publisher publishers[2] = { { .serial = PROC_INDOM }, { .serial = CGROUP_INDOM } };

/* Culled, unless it is the newest instance: PCP 6's cache appends the
 * next after its last entry, which its reorganisation frees without
 * forgetting (a dangling pointer; new instances were then missing from
 * the domain's list).  That one waits until a newer one exists. */
static bool cull(const struct publisher *p, pmInDom in, int inst)
{
	char *name;

	if (inst == p->newest)
		return false;
	if (pmdaCacheLookup(in, inst, &name, NULL) == PMDA_CACHE_INACTIVE)
		pmdaCacheStore(in, PMDA_CACHE_CULL, name, NULL);
	return true;
}

/* Inactive from now, culled later; at once where it cannot be noted. */
static void retire(struct publisher *p, pmInDom in, int inst, double now)
{
	char *name;

	if (pmdaCacheLookup(in, inst, &name, NULL) < 0)
		return;
	pmdaCacheStore(in, PMDA_CACHE_HIDE, name, NULL);
	if (p->head > 0 && p->head + p->nretired == p->retired_cap) {
		memmove(p->retired, p->retired + p->head, (size_t)p->nretired * sizeof *p->retired);
		p->head = 0;
	}
	if (p->head + p->nretired == p->retired_cap) {
		int cap = p->retired_cap ? 2 * p->retired_cap : 256;
		struct retired *grown = realloc(p->retired, (size_t)cap * sizeof *grown);
		if (grown == NULL) {
			cull(p, in, inst);
			return;
		}
		p->retired = grown;
		p->retired_cap = cap;
	}
	p->retired[p->head + p->nretired++] = (struct retired){ inst, now };
}

/* Returns how many it culled. */
static int cull_retired(struct publisher *p, pmInDom in, double now)
{
	int n = 0;

	while (p->nretired > 0 && now - p->retired[p->head].at > sched()->retire_ns / 1e9) {
		int inst = p->retired[p->head].inst;

		p->head++;
		p->nretired--;
		if (cull(p, in, inst))
			n++;
		else
			retire(p, in, inst, now);	/* (again, from now) */
	}
	if (p->nretired == 0) {
		p->head = 0;
		if (p->retired_cap > 1024) {	/* (a crowd's list, given back) */
			free(p->retired);
			p->retired = NULL;
			p->retired_cap = 0;
		}
	}
	return n;
}

/* How long an instance retired keeps its name from a newcomer: longer
 * than a client takes from a fetch to listing the domain (pmlogger, after
 * fetching tens of thousands of processes, takes seconds). */
#define NAME_HOLD_S 5.0

/* Whether inst was retired less than NAME_HOLD_S before now. */
static bool retired_lately(const struct publisher *p, int inst, double now)
{
	for (int i = p->head + p->nretired - 1; i >= p->head && now - p->retired[i].at < NAME_HOLD_S; i--)
		if (p->retired[i].inst == inst)
			return true;
	return false;
}

/*
 * A new instance, or -EAGAIN to try again at the next pass.  Another with
 * the same first word (the part PCP takes as unique) keeps it while it is
 * active, and NAME_HOLD_S after it was retired, so that a client listing
 * the domain after a fetch still names what it fetched.  A process (a PID
 * used again) is then named PID:N at once, N its own number in the table
 * (as the source names one whose PID a ghost holds): waiting, it would be
 * charged seconds before it was served, while the CPUs were at once.  A
 * cgroup (a path taken again: a service restarted) waits for the name,
 * then gets an identifier of its own, and all it was charged meanwhile.
 */
static int add(struct publisher *p, pmInDom in, const struct sched_entry *e, int slot, double now)
{
	char word[SCHED_NAME_MAX], renamed[SCHED_NAME_MAX + 16];
	const char *name = e->name;
	size_t n = strcspn(name, " ");
	int inst, state;

	snprintf(word, sizeof word, "%.*s", (int)n, name);
	state = pmdaCacheLookupName(in, word, &inst, NULL);
	if (state == PMDA_CACHE_ACTIVE || (state == PMDA_CACHE_INACTIVE &&
					   (retired_lately(p, inst, now) || !cull(p, in, inst)))) {
		if (p->serial != PROC_INDOM || strchr(word, ':') != NULL)
			return -EAGAIN;
		snprintf(renamed, sizeof renamed, "%s:%u%s", word, e->gen, name + n);
		name = renamed;
	}
	if ((inst = pmdaCacheStore(in, PMDA_CACHE_ADD, name, (void *)(intptr_t)(slot + 1))) > p->newest)
		p->newest = inst;
	return inst;
}

/* What a crowd of processes took is given back as it goes: when the
 * table shrank (sched_table_shrink) the publisher's slots shrink too; the
 * cache frees what was culled (a cull only marks an entry) every
 * CULLS_TO_GIVE_BACK culls, and whenever the instances held have halved
 * since the last give-back; and then the C library returns the free
 * memory to the kernel.  None of it happens while the processes stay. */
#define CULLS_TO_GIVE_BACK 1024

static void give_back(struct publisher *p, pmInDom in, const struct sched_table *t, double now,
		      int culled)
{
	struct published *less;
	bool freed = false;
	int held = t->used + p->nretired;

	if (t->cap < p->cap) {
		for (int i = t->cap; i < p->cap; i++)	/* (slots the table let go of) */
			if (p->slot[i].live) {
				retire(p, in, p->slot[i].inst, now);
				p->slot[i].live = false;
			}
		if ((less = realloc(p->slot, (size_t)t->cap * sizeof *less)) != NULL) {
			p->slot = less;
			p->cap = t->cap;
		}
		freed = true;
	}
	p->culled += culled;
	if (held > p->held)
		p->held = held;
	if (p->culled >= CULLS_TO_GIVE_BACK || (p->culled > 0 && held <= p->held / 2)) {
		pmdaCacheOp(in, PMDA_CACHE_REORG);
		p->culled = 0;
		p->held = held;
		freed = true;
	}
	if (freed)
		malloc_trim(0);
}

/* The entry at slot moved there from another (sched_table_shrink): its
 * instance goes with it, identifier and name unchanged, its private data
 * the new slot.  True if it did. */
static bool follow(struct publisher *p, pmInDom in, const struct sched_entry *e, int slot)
{
	struct published *was;
	char *name;

	if (e->moved_from < 0 || e->moved_from >= p->cap)
		return false;
	was = &p->slot[e->moved_from];
	if (!was->live || was->gen != e->gen || pmdaCacheLookup(in, was->inst, &name, NULL) < 0 ||
	    pmdaCacheStore(in, PMDA_CACHE_ADD, name, (void *)(intptr_t)(slot + 1)) < 0)
		return false;
	p->slot[slot] = *was;
	was->live = false;
	return true;
}

static void publish(struct publisher *p, double now)
{
	const struct sched_table *t = sched_table_of(p->serial);
	pmInDom in = indom(p->serial);
	bool waiting = false;
	int culled = cull_retired(p, in, now);

	if (t->changes == p->changes && p->cap >= t->cap && !p->waiting) {
		give_back(p, in, t, now, culled);
		return;
	}
	if (t->cap > p->cap) {
		struct published *grown = realloc(p->slot, (size_t)t->cap * sizeof *grown);
		if (grown == NULL)
			return;		/* tried again at the next pass */
		memset(grown + p->cap, 0, (size_t)(t->cap - p->cap) * sizeof *grown);
		p->slot = grown;
		p->cap = t->cap;
	}
	for (int i = 0; i < t->cap; i++) {
		const struct sched_entry *e = &t->e[i];
		struct published *q = &p->slot[i];

		if (q->live && (!e->used || e->gen != q->gen)) {
			retire(p, in, q->inst, now);
			q->live = false;
		}
		if (e->used && !q->live && !follow(p, in, e, i)) {
			int inst = add(p, in, e, i, now);
			if (inst >= 0) {
				q->inst = inst;
				q->gen = e->gen;
				q->live = true;
			}
			waiting |= inst < 0;		/* (tried again at the next pass) */
		}
	}
	p->changes = t->changes;
	p->waiting = waiting;
	give_back(p, in, t, now, culled);	/* (after the moves are followed) */
}

static int by_inst(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * A client that lists the domain after a fetch (pminfo, pmlogger writing
 * the domain to its archive) must name each value it fetched, though a
 * pass between the two may have retired it.  The cache's own walk
 * (PMDA_CACHE_WALK_NEXT) gives active instances only, so the list is the
 * publisher's: its live slots and what it retired and has not culled yet,
 * in identifier order.
 */
int sched_instance_list(pmInDom in, pmInResult **result)
{
	const struct publisher *p = NULL;
	pmInResult *res;
	int n = 0, kept = 0;

	for (int i = 0; i < 2; i++)
		if (indom(publishers[i].serial) == in)
			p = &publishers[i];
	if (p == NULL)
		return PM_ERR_INDOM;
	if ((res = calloc(1, sizeof *res)) == NULL)
		return -ENOMEM;
	res->indom = in;
	res->instlist = calloc((size_t)(p->cap + p->nretired) + 1, sizeof *res->instlist);
	res->namelist = calloc((size_t)(p->cap + p->nretired) + 1, sizeof *res->namelist);
	if (res->instlist == NULL || res->namelist == NULL)
		goto nomem;
	for (int i = 0; i < p->cap; i++)
		if (p->slot[i].live)
			res->instlist[n++] = p->slot[i].inst;
	for (int i = p->head; i < p->head + p->nretired; i++)
		res->instlist[n++] = p->retired[i].inst;
	qsort(res->instlist, (size_t)n, sizeof *res->instlist, by_inst);
	for (int i = 0; i < n; i++) {
		int inst = res->instlist[i], state;
		char *name;

		if (kept > 0 && res->instlist[kept - 1] == inst)
			continue;
		state = pmdaCacheLookup(in, inst, &name, NULL);
		if (state != PMDA_CACHE_ACTIVE && state != PMDA_CACHE_INACTIVE)
			continue;	/* (culled: its name went to a newcomer) */
		if ((res->namelist[kept] = strdup(name)) == NULL)
			goto nomem;
		res->instlist[kept++] = inst;
	}
	res->numinst = kept;
	*result = res;
	return 0;
nomem:
	for (int i = 0; i < kept; i++)
		free(res->namelist[i]);
	free(res->namelist);
	free(res->instlist);
	free(res);
	return -ENOMEM;
}

/* Every uid the tasks map holds processes of, or refused some: named by
 * its number ("unknown": charged with no task at hand). */
static void publish_uids(void)
{
	pmInDom in = indom(UID_INDOM);
	char name[16];

	pmdaCacheOp(in, PMDA_CACHE_INACTIVE);
	for (int i = 0; i < sched()->nuids; i++) {
		uint32_t uid = sched()->uids[i].uid;

		if (uid == SP_UID_UNKNOWN)
			snprintf(name, sizeof name, "unknown");
		else
			snprintf(name, sizeof name, "%u", uid);
		pmdaCacheStore(in, PMDA_CACHE_ADD, name, (void *)(intptr_t)(i + 1));
	}
}

void sched_publish(double now)
{
	for (int i = 0; i < 2; i++)
		publish(&publishers[i], now);
	publish_uids();
}
