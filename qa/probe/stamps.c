/*
 * A probe for the tests, not part of the agent: stamps every sched_switch
 * by its own bpf_ktime_get_ns() read (stamps.bpf.c) until SIGTERM or
 * SIGINT, then prints one line a switch, "CPU SECONDS PREV NEXT" (seconds of
 * CLOCK_MONOTONIC, to the nanosecond), and last "lost N", the switches the
 * ring buffer had no room for.  It says "attached" on stderr once it stamps.
 *
 *   stamps OUT
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/types.h>

#include "stamps.h"
#include "stamps.skel.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int print_stamp(void *ctx, void *data, size_t size)
{
	const struct stamp *s = data;

	if (size < sizeof *s)
		return 0;
	fprintf(ctx, "%u %llu.%09llu %u %u\n", s->cpu, (unsigned long long)(s->ns / 1000000000),
		(unsigned long long)(s->ns % 1000000000), s->prev, s->next);
	return 0;
}

int main(int argc, char **argv)
{
	struct stamps_bpf *skel;
	struct ring_buffer *rb;
	__u32 zero = 0;
	__u64 lost = 0;
	FILE *out;

	if (argc != 2) {
		fprintf(stderr, "usage: stamps OUT\n");
		return 2;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	skel = stamps_bpf__open_and_load();
	if (!skel || stamps_bpf__attach(skel)) {
		fprintf(stderr, "stamps: cannot load or attach the probe (errno %d)\n", errno);
		return 1;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.stamps), print_stamp, out, NULL);
	if (!rb) {
		fprintf(stderr, "stamps: no ring buffer\n");
		return 1;
	}
	fprintf(stderr, "attached\n");
	while (!stop)
		ring_buffer__poll(rb, 100);
	stamps_bpf__detach(skel);
	ring_buffer__consume(rb);
	bpf_map__lookup_elem(skel->maps.lost, &zero, sizeof zero, &lost, sizeof lost, 0);
	fprintf(out, "lost %llu\n", (unsigned long long)lost);
	fclose(out);
	ring_buffer__free(rb);
	stamps_bpf__destroy(skel);
	return 0;
}
