/*
 * The perf_event_open backend.  Every group is opened counting (no
 * sampling), system-wide on one CPU (pid -1), with no exclude_* bits, which
 * the uncore PMUs refuse; it reads with PERF_FORMAT_GROUP so a group costs
 * one read(2) per pass, and TOTAL_TIME_ENABLED/RUNNING so the layer above
 * can tell how long each group really counted.
 */
#include "counters.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct perf_group {
	int n;			/* members, 0 when the slot is free */
	int fd[CTR_GROUP_MAX];	/* fd[0] leads */
};

struct perf_backend {
	struct ctr_backend base;	/* first: the interface is a cast away */
	int max;
	struct perf_group *group;	/* [max] */
};

static int open_one(const struct ctr_event *ev, int cpu, int group_fd)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = ev->type;
	attr.config = ev->config[0];
	attr.config1 = ev->config[1];
	attr.config2 = ev->config[2];
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			   PERF_FORMAT_GROUP;
	return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static void close_members(struct perf_group *g)
{
	while (g->n > 0)
		close(g->fd[--g->n]);
}

static int perf_open_group(struct ctr_backend *b, int cpu, const struct ctr_event *ev, int n)
{
	struct perf_backend *pb = (struct perf_backend *)b;
	struct perf_group *g;
	int h = 0;

	if (n < 1 || n > CTR_GROUP_MAX)
		return -EINVAL;
	while (h < pb->max && pb->group[h].n != 0)
		h++;
	if (h == pb->max) {
		snprintf(b->why, sizeof b->why, "more than %d counter groups", pb->max);
		return -ENOSPC;
	}
	g = &pb->group[h];
	for (int i = 0; i < n; i++) {
		int fd = open_one(&ev[i], cpu, i == 0 ? -1 : g->fd[0]);
		if (fd < 0) {
			int sts = -errno;
			snprintf(b->why, sizeof b->why, "perf_event_open(type %u, config 0x%llx, "
				 "cpu %d): %s", ev[i].type, (unsigned long long)ev[i].config[0], cpu,
				 strerror(-sts));
			close_members(g);
			return sts;
		}
		g->fd[g->n++] = fd;
	}
	return h;
}

static int perf_read_group(struct ctr_backend *b, int handle, struct ctr_reading *r)
{
	struct perf_backend *pb = (struct perf_backend *)b;
	const struct perf_group *g = &pb->group[handle];
	uint64_t buf[3 + CTR_GROUP_MAX];	/* nr, time_enabled, time_running, values */
	ssize_t want = (ssize_t)((3 + g->n) * sizeof buf[0]);
	ssize_t got = read(g->fd[0], buf, (size_t)want);

	if (got != want || buf[0] != (uint64_t)g->n) {
		int sts = got < 0 ? -errno : -EIO;
		snprintf(b->why, sizeof b->why, "reading a counter group: %s", strerror(-sts));
		return sts;
	}
	r->enabled = buf[1];
	r->running = buf[2];
	memcpy(r->value, &buf[3], (size_t)g->n * sizeof buf[0]);
	return 0;
}

static void perf_close_group(struct ctr_backend *b, int handle)
{
	struct perf_backend *pb = (struct perf_backend *)b;

	if (handle >= 0 && handle < pb->max)
		close_members(&pb->group[handle]);
}

static void perf_begin_pass(struct ctr_backend *b)
{
	(void)b;
}

static void perf_destroy(struct ctr_backend *b)
{
	struct perf_backend *pb = (struct perf_backend *)b;

	for (int h = 0; h < pb->max; h++)
		close_members(&pb->group[h]);
	free(pb->group);
	free(pb);
}

int ctr_perf_group_fds(const struct ctr_backend *b, int handle, int *fd)
{
	const struct perf_backend *pb = (const struct perf_backend *)b;

	if (handle < 0 || handle >= pb->max)
		return 0;
	memcpy(fd, pb->group[handle].fd, (size_t)pb->group[handle].n * sizeof *fd);
	return pb->group[handle].n;
}

static const struct ctr_backend_ops perf_ops = {
	perf_open_group, perf_read_group, perf_close_group, perf_begin_pass, perf_destroy
};

struct ctr_backend *ctr_perf_new(int max_groups)
{
	struct perf_backend *pb = calloc(1, sizeof *pb);

	if (pb == NULL || (pb->group = calloc((size_t)(max_groups > 0 ? max_groups : 1),
					      sizeof *pb->group)) == NULL) {
		free(pb);
		return NULL;
	}
	pb->max = max_groups;
	pb->base.ops = &perf_ops;
	snprintf(pb->base.name, sizeof pb->base.name, "perf_event");
	return &pb->base;
}
