/*
 * A probe for the tests, not part of the agent: loads stamps.bpf.c over
 * the running software PURR's own cpus and cores maps (found through its
 * sched_switch program), attaches it after that program, says "attached"
 * on stderr, and stays until SIGTERM or SIGINT.  Its lines reach the
 * trace instances recording bpf_trace:bpf_trace_printk (qa/lib/runtrace
 * start DIR agent).
 *
 *   stamps
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include "stamps.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The map named name among the agent's sched_switch program's, as map
 * takes it: same size, then the agent's own fd.  0 or -1. */
static int reuse_agent_map(struct bpf_map *map, const char *name)
{
	__u32 prog_id = 0;

	while (bpf_prog_get_next_id(prog_id, &prog_id) == 0) {
		__u32 map_ids[64];
		struct bpf_prog_info prog = { .nr_map_ids = 64, .map_ids = (__u64)(unsigned long)map_ids };
		__u32 len = sizeof prog;
		int fd = bpf_prog_get_fd_by_id(prog_id);

		if (fd < 0)
			continue;
		if (bpf_obj_get_info_by_fd(fd, &prog, &len) < 0 || strcmp(prog.name, "sched_switch") != 0) {
			close(fd);
			continue;
		}
		close(fd);
		for (__u32 i = 0; i < prog.nr_map_ids && i < 64; i++) {
			struct bpf_map_info info = { 0 };
			__u32 ilen = sizeof info;
			int mfd = bpf_map_get_fd_by_id(map_ids[i]);

			if (mfd < 0)
				continue;
			if (bpf_obj_get_info_by_fd(mfd, &info, &ilen) == 0 && strcmp(info.name, name) == 0 &&
			    bpf_map__set_max_entries(map, info.max_entries) == 0 && bpf_map__reuse_fd(map, mfd) == 0) {
				close(mfd);
				return 0;
			}
			close(mfd);
		}
	}
	fprintf(stderr, "stamps: no software PURR program with a map %s (is the agent's sched source on?)\n",
		name);
	return -1;
}

int main(int argc, char **argv)
{
	struct stamps_bpf *skel;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: stamps\n");
		return 2;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	skel = stamps_bpf__open();
	if (!skel)
		return fprintf(stderr, "stamps: cannot open the probe (errno %d)\n", errno), 1;
	if (reuse_agent_map(skel->maps.cpus, "cpus") < 0 || reuse_agent_map(skel->maps.cores, "cores") < 0)
		return 1;
	if (stamps_bpf__load(skel) || stamps_bpf__attach(skel)) {
		fprintf(stderr, "stamps: cannot load or attach the probe (errno %d)\n", errno);
		return 1;
	}
	fprintf(stderr, "attached\n");
	while (!stop)
		pause();
	stamps_bpf__destroy(skel);
	return 0;
}
