#include "sched_purr.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "monoclock.h"
#include "sched_purr_clock.h"
#include "sched_purr.skel.h"

/* libbpf's warnings go to the PMDA log, a line each.  A verifier log (one
 * message of many lines) is cut to its last lines, where the verdict is,
 * and its verdict kept for the status. */
#define VERIFIER_TAIL 12
static char verdict[160];

static void log_lines(char *text)
{
	char *line[VERIFIER_TAIL];
	int n = 0, skipped = 0;
	bool verifier = strstr(text, "-- BEGIN PROG LOAD LOG --") != NULL;

	for (char *p = text, *nl; *p; p = nl ? nl + 1 : p + strlen(p)) {
		if ((nl = strchr(p, '\n')) != NULL)
			*nl = '\0';
		if (*p == '\0')
			continue;
		if (n == VERIFIER_TAIL) {
			memmove(line, line + 1, sizeof line - sizeof line[0]);
			n--;
			skipped++;
		}
		line[n++] = p;
		/* "processed N insns ..." and the log's frame follow the verdict */
		if (verifier && strncmp(p, "processed ", 10) != 0 && strncmp(p, "-- ", 3) != 0 &&
		    strstr(p, "PROG LOAD LOG") == NULL && strstr(p, "verification time") == NULL &&
		    strstr(p, "stack depth") == NULL)
			snprintf(verdict, sizeof verdict, "%s", p);
		if (!nl)
			break;
	}
	if (skipped)
		smt_log(SMT_LOG_INFO, "libbpf: (%d lines of the verifier's log left out)", skipped);
	for (int i = 0; i < n; i++)
		smt_log(SMT_LOG_INFO, "libbpf: %s", line[i]);
}

static int libbpf_to_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list again;
	char small[512], *text = small;
	int len;

	if (level != LIBBPF_WARN)
		return 0;
	va_copy(again, ap);
	len = vsnprintf(small, sizeof small, fmt, ap);
	if (len >= (int)sizeof small && (text = malloc((size_t)len + 1)) != NULL)
		vsnprintf(text, (size_t)len + 1, fmt, again);
	else if (text == NULL)
		text = small;
	va_end(again);
	/* libbpf's messages begin "libbpf: " already */
	log_lines(strncmp(text, "libbpf: ", 8) == 0 ? text + 8 : text);
	if (text != small)
		free(text);
	return 0;
}

static int refused(char *why, size_t whylen, const char *step, int err)
{
	if (err == EACCES && strcmp(step, "load") == 0 && verdict[0])
		snprintf(why, whylen, "the kernel's verifier rejected the BPF program: %s", verdict);
	else if (err == EPERM || err == EACCES)
		snprintf(why, whylen, "the kernel refused the BPF program (%s: %s): needs root, "
			 "or CAP_BPF and CAP_PERFMON", step, strerror(err));
	else
		snprintf(why, whylen, "the kernel refused the BPF program (%s: %s)", step,
			 strerror(err));
	return -err;
}

/* task_slots[], read in place by each pass (and written where a slot is
 * claimed, sched_purr_forget_task). */
static int map_task_slots(struct sched_purr *sp, uint32_t processes)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = ((size_t)processes * sizeof(struct sp_task) + page - 1) / page * page;
	void *at = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, sp->task_slots_fd, 0);

	if (at == MAP_FAILED)
		return -errno;
	sp->task_slots = at;
	sp->task_slots_len = len;
	sp->nslots = processes;
	return 0;
}

int sched_purr_open(struct sched_purr *sp, int ncpus, uint32_t processes, char *why,
		    size_t whylen)
{
	struct sched_purr_bpf *skel;
	int err;

	memset(sp, 0, sizeof *sp);
	sp->cpus_fd = sp->shares_fd = sp->cores_fd = sp->tasks_fd = sp->cgroups_fd = -1;
	sp->refused_fd = sp->uid_made_fd = sp->uid_freed_fd = -1;
	sp->task_slots_fd = sp->free_slots_fd = sp->slots_made_fd = -1;
	libbpf_set_print(libbpf_to_log);
	verdict[0] = '\0';
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		snprintf(why, whylen, "the kernel has no BTF (/sys/kernel/btf/vmlinux: %s), "
			 "which the sched_switch program needs", strerror(errno));
		return -ENOENT;
	}
	if (ncpus <= 0)
		ncpus = 1;
	if ((sp->npossible = libbpf_num_possible_cpus()) <= 0)
		sp->npossible = ncpus;
	sp->refused = calloc((size_t)sp->npossible, sizeof *sp->refused);
	sp->core = calloc((size_t)ncpus, sizeof *sp->core);
	sp->keys = calloc((size_t)ncpus + 1, sizeof *sp->keys);
	sp->shares = calloc((size_t)ncpus, sizeof *sp->shares);
	sp->flow[0] = calloc((size_t)ncpus, sizeof *sp->flow[0]);
	sp->flow[1] = calloc((size_t)ncpus, sizeof *sp->flow[1]);
	if (sp->core == NULL || sp->keys == NULL || sp->shares == NULL || sp->refused == NULL ||
	    sp->flow[0] == NULL || sp->flow[1] == NULL ||
	    cpusweep_init(&sp->sweep, ncpus) < 0) {
		snprintf(why, whylen, "out of memory for the software PURR's %d CPUs", ncpus);
		err = -ENOMEM;
		goto cleanup;
	}
	if ((skel = sched_purr_bpf__open()) == NULL) {
		err = refused(why, whylen, "open", errno);
		goto cleanup;
	}
	sp->skel = skel;
	sp->ncpus = ncpus;
	if (bpf_map__set_max_entries(skel->maps.cpus, (__u32)ncpus) ||
	    bpf_map__set_max_entries(skel->maps.shares, (__u32)ncpus) ||
	    bpf_map__set_max_entries(skel->maps.cores, (__u32)ncpus) ||
	    bpf_map__set_max_entries(skel->maps.tasks, processes) ||
	    bpf_map__set_max_entries(skel->maps.task_slots, processes) ||
	    bpf_map__set_max_entries(skel->maps.free_slots, processes)) {
		err = refused(why, whylen, "sizing maps", errno);
		goto cleanup;
	}
	skel->rodata->uid_share = processes / SP_UID_SHARE;
	if ((err = sched_purr_bpf__load(skel)) != 0) {
		err = refused(why, whylen, "load", -err);
		goto cleanup;
	}
	sp->cpus_fd = bpf_map__fd(skel->maps.cpus);
	sp->shares_fd = bpf_map__fd(skel->maps.shares);
	sp->cores_fd = bpf_map__fd(skel->maps.cores);
	sp->tasks_fd = bpf_map__fd(skel->maps.tasks);
	sp->cgroups_fd = bpf_map__fd(skel->maps.cgroups);
	sp->refused_fd = bpf_map__fd(skel->maps.refused);
	sp->uid_made_fd = bpf_map__fd(skel->maps.uid_made);
	sp->uid_freed_fd = bpf_map__fd(skel->maps.uid_freed);
	sp->task_slots_fd = bpf_map__fd(skel->maps.task_slots);
	sp->free_slots_fd = bpf_map__fd(skel->maps.free_slots);
	sp->slots_made_fd = bpf_map__fd(skel->maps.slots_made);
	if ((err = map_task_slots(sp, processes)) < 0) {
		err = refused(why, whylen, "mapping task_slots[]", -err);
		goto cleanup;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		sp->keys[cpu] = (__u32)cpu;
		if ((err = sched_purr_map_cpu(sp, cpu, -1, 0)) < 0) {
			err = refused(why, whylen, "filling cpus[]", -err);
			goto cleanup;
		}
	}
	if ((err = sched_purr_bpf__attach(skel)) != 0) {
		err = refused(why, whylen, "attach", -err);
		goto cleanup;
	}
	return 0;

cleanup:	/* one way out: whatever was taken is given back */
	sched_purr_close(sp);
	return err;
}

void sched_purr_close(struct sched_purr *sp)
{
	if (sp->task_slots)
		munmap((void *)sp->task_slots, sp->task_slots_len);
	if (sp->skel)
		sched_purr_bpf__destroy(sp->skel);
	free(sp->core);
	free(sp->keys);
	free(sp->shares);
	free(sp->refused);
	free(sp->flow[0]);
	free(sp->flow[1]);
	cpusweep_free(&sp->sweep);
	memset(sp, 0, sizeof *sp);
	sp->cpus_fd = sp->shares_fd = sp->cores_fd = sp->tasks_fd = sp->cgroups_fd = -1;
	sp->refused_fd = sp->uid_made_fd = sp->uid_freed_fd = -1;
	sp->task_slots_fd = sp->free_slots_fd = sp->slots_made_fd = -1;
}

int sched_purr_map_cpu(struct sched_purr *sp, int cpu, int core, int slot)
{
	__u32 key = (__u32)cpu;
	struct sp_cpu v;

	if (cpu < 0 || cpu >= sp->ncpus || core >= sp->ncpus || slot < 0 || slot >= SP_MAX_THREADS)
		return -EINVAL;
	/* The program's counts go on (a charge it lands meanwhile may make
	 * one pass's read look unsettled, no more). */
	if (bpf_map_lookup_elem(sp->cpus_fd, &key, &v) != 0)
		memset(&v, 0, sizeof v);
	v.core = core < 0 ? SP_NO_CORE : (__u32)core;
	v.slot = (__u32)slot;
	return bpf_map_update_elem(sp->cpus_fd, &key, &v, BPF_ANY) ? -errno : 0;
}

int sched_purr_set_shares(struct sched_purr *sp, int core, const struct smt_table *t)
{
	__u32 key = (__u32)core;
	struct sp_shares v = { { 0 } };

	if (core < 0 || core >= sp->ncpus)
		return -EINVAL;
	for (int k = 1; k <= SP_MAX_THREADS; k++) {
		double c = t ? smt_thread_share(t, k) : 1.0 / k;
		v.share[k] = (__u32)(c * (1u << SP_SHARE_SHIFT) + 0.5);
	}
	if (bpf_map_update_elem(sp->shares_fd, &key, &v, BPF_ANY))
		return -errno;
	sp->shares[core] = v;
	return 0;
}

int sched_purr_reset_core(struct sched_purr *sp, int core)
{
	__u32 key = (__u32)core;
	struct sp_core v;

	if (core < 0 || core >= sp->ncpus)
		return -EINVAL;
	memset(&v, 0, sizeof v);
	return bpf_map_update_elem(sp->cores_fd, &key, &v, BPF_F_LOCK) ? -errno : 0;
}

int sched_purr_sweep(struct sched_purr *sp, const int *cpus, int n)
{
	return cpusweep_run(&sp->sweep, cpus, n);
}

/* An array map of sp->ncpus entries, whole, into vals: the entries read,
 * or -errno. */
static int read_array(struct sched_purr *sp, int fd, void *vals, size_t size, __u64 flags)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = flags);
	__u32 done = 0, out = 0, n;
	void *in = NULL;
	int err;

	while (done < (__u32)sp->ncpus) {
		n = (__u32)sp->ncpus - done;
		err = bpf_map_lookup_batch(fd, in, &out, sp->keys + done, (char *)vals + done * size,
					   &n, &opts);
		done += n;
		if (err) {
			if (errno == ENOENT)
				break;
			return -errno;
		}
		in = &out;
	}
	/* The batch wrote keys in order; put them back for the next read. */
	for (__u32 i = 0; i < done; i++)
		sp->keys[i] = i;
	return (int)done;
}

int sched_purr_read_cores(struct sched_purr *sp)
{
	/* The time of the reading is taken before it: a running spell is then
	 * carried on to a moment the map already covers, not past a change the
	 * map does not show yet (a sibling starting, this thread stopping) --
	 * but for a change the program timed before this moment and wrote after
	 * it, waiting for the core's lock, which the reader's high-water mark
	 * absorbs (highwater.h). */
	sp->now = mono_ns();
	return read_array(sp, sp->cores_fd, sp->core, sizeof *sp->core, BPF_F_LOCK);
}

int sched_purr_read_flow(struct sched_purr *sp, int which)
{
	if (which < 0 || which > 1)
		return -EINVAL;
	return read_array(sp, sp->cpus_fd, sp->flow[which], sizeof *sp->flow[which], 0);
}

bool sched_purr_settled(const struct sched_purr *sp)
{
	for (int cpu = 0; cpu < sp->ncpus; cpu++) {
		const struct sp_cpu *before = &sp->flow[0][cpu], *after = &sp->flow[1][cpu];

		if (before->landed != before->begun || after->begun != before->begun)
			return false;
	}
	return true;
}

void sched_purr_thread_now(const struct sched_purr *sp, int core, int slot, uint64_t *clock,
			   uint64_t *busy, uint64_t *spell_clock, uint64_t *spell_busy)
{
	const struct sp_core *c = &sp->core[core];
	const struct sp_thread *t = &c->t[slot];

	*spell_clock = *spell_busy = 0;
	/* (by the sampler's clock: what the hypervisor steals from a spell
	 * still under way is left out when the program closes it) */
	if (t->running) {
		__u64 acc = sp_core_acc_at(c, &sp->shares[core], sp->now);

		if (acc >= t->acc0)
			*spell_clock = acc - t->acc0;
		if (sp->now > t->t0)
			*spell_busy = sp->now - t->t0;
	}
	*clock = t->clock + *spell_clock;
	*busy = t->busy + *spell_busy;
}

/* Every entry of a hash map, SP_TASK_CHUNK at a time into keys[] and
 * vals[]; visit(ctx, i) sees the i-th of each chunk.  Returns the count. */
static int each_entry(int fd, void *keys, void *vals, void (*visit)(void *ctx, __u32 i),
		      void *ctx)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u64 token = 0;
	void *in = NULL;
	int total = 0, err;

	do {
		__u32 n = SP_TASK_CHUNK;

		err = bpf_map_lookup_batch(fd, in, &token, keys, vals, &n, &opts);
		if (err && errno != ENOENT)
			return -errno;
		for (__u32 i = 0; i < n; i++)
			visit(ctx, i);
		total += (int)n;
		in = &token;
	} while (!err);
	return total;
}

int sched_purr_each_task(struct sched_purr *sp,
			 void (*fn)(void *arg, uint32_t tgid, const struct sp_task *t), void *arg)
{
	struct sp_slots made;
	__u32 key = 0, n;
	int count = 0;

	if (bpf_map_lookup_elem_flags(sp->slots_made_fd, &key, &made, BPF_F_LOCK) != 0)
		return -errno;
	n = made.made < sp->nslots ? made.made : sp->nslots;
	for (__u32 i = 0; i < n; i++) {
		const struct sp_task *slot = &sp->task_slots[i];
		__u64 tgid = __atomic_load_n(&slot->tgid, __ATOMIC_ACQUIRE);
		struct sp_task t;

		if (tgid == 0 || (tgid & SP_REPLACING))
			continue;
		/* A copy, kept only where the slot held the same process
		 * throughout (the program may give it to another meanwhile). */
		memcpy(&t, slot, sizeof t);
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (t.start == 0 || t.tgid != tgid || __atomic_load_n(&slot->tgid, __ATOMIC_RELAXED) != tgid)
			continue;
		fn(arg, (uint32_t)tgid, &t);
		count++;
	}
	return count;
}

struct cgroup_visit {
	struct sched_purr *sp;
	void (*fn)(void *arg, uint64_t id, const struct sp_cgroup *g);
	void *arg;
};

static void visit_cgroup(void *ctx, __u32 i)
{
	struct cgroup_visit *v = ctx;
	v->fn(v->arg, v->sp->cgroup_key[i], &v->sp->cgroup[i]);
}

int sched_purr_each_cgroup(struct sched_purr *sp,
			   void (*fn)(void *arg, uint64_t id, const struct sp_cgroup *g), void *arg)
{
	struct cgroup_visit v = { sp, fn, arg };
	return each_entry(sp->cgroups_fd, sp->cgroup_key, sp->cgroup, visit_cgroup, &v);
}

int sched_purr_refused(struct sched_purr *sp, enum sp_map map, struct sp_refused *sum)
{
	__u32 key = (__u32)map;

	memset(sum, 0, sizeof *sum);
	if (bpf_map_lookup_elem(sp->refused_fd, &key, sp->refused))
		return -errno;
	for (int cpu = 0; cpu < sp->npossible; cpu++) {
		sum->entries += sp->refused[cpu].entries;
		sum->clock += sp->refused[cpu].clock;
		sum->busy += sp->refused[cpu].busy;
	}
	return 0;
}

uint32_t sched_purr_capacity(const struct sched_purr *sp, enum sp_map map)
{
	const struct bpf_map *m = map == SP_MAP_TASKS ? sp->skel->maps.tasks : sp->skel->maps.cgroups;
	return bpf_map__max_entries(m);
}

struct uid_visit {
	struct sched_purr *sp;
	void (*fn)(void *arg, uint32_t uid, const struct sp_uid_made *m, uint64_t freed);
	void *arg;
};

static void visit_uid(void *ctx, __u32 i)
{
	struct uid_visit *v = ctx;
	struct sp_uid_freed f = { 0 };
	__u32 uid = v->sp->uid_key[i];

	bpf_map_lookup_elem(v->sp->uid_freed_fd, &uid, &f);	/* (none yet: 0) */
	v->fn(v->arg, uid, &v->sp->uid_made[i], f.freed);
}

int sched_purr_each_uid(struct sched_purr *sp,
			void (*fn)(void *arg, uint32_t uid, const struct sp_uid_made *m, uint64_t freed),
			void *arg)
{
	struct uid_visit v = { sp, fn, arg };
	return each_entry(sp->uid_made_fd, sp->uid_key, sp->uid_made, visit_uid, &v);
}

/* The process's slot is claimed before its entry goes: a CPU that has
 * meanwhile put the PID's next process in tasks[] claimed it first, and
 * gives it back.  Only the loader writes uid_freed[], so reading and
 * writing it back loses nothing. */
void sched_purr_forget_task(struct sched_purr *sp, uint32_t tgid, uint64_t start)
{
	struct sp_task_ref ref;
	struct sp_task empty = { 0 };
	struct sp_uid_freed f = { 0 };
	__u32 key = tgid, uid, slot;
	__u64 owner = tgid;

	if (bpf_map_lookup_elem(sp->tasks_fd, &key, &ref) != 0 || ref.start != start ||
	    ref.slot >= sp->nslots ||
	    !__atomic_compare_exchange_n(&sp->task_slots[ref.slot].tgid, &owner, 0, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED))
		return;		/* (gone, or the PID's next process's) */
	slot = ref.slot;
	uid = sp->task_slots[slot].uid;
	if (bpf_map_delete_elem(sp->tasks_fd, &key) != 0 ||
	    bpf_map_update_elem(sp->task_slots_fd, &slot, &empty, BPF_ANY) != 0 ||
	    bpf_map_update_elem(sp->free_slots_fd, NULL, &slot, BPF_ANY) != 0)
		smt_log(SMT_LOG_WARNING, "sched: slot %u of process %u not given back: %s", slot, tgid,
			strerror(errno));
	bpf_map_lookup_elem(sp->uid_freed_fd, &uid, &f);
	f.freed++;
	bpf_map_update_elem(sp->uid_freed_fd, &uid, &f, BPF_ANY);
}

void sched_purr_forget_cgroup(struct sched_purr *sp, uint64_t id)
{
	__u64 key = id;
	bpf_map_delete_elem(sp->cgroups_fd, &key);
}
