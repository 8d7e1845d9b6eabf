/*
 * The CPU kernels smtcpu-model --calibrate times.  SMT gain depends on what
 * a thread keeps busy, so there are three: integer ALU work, floating-point
 * multiply-adds, and a pointer chase through memory well past any cache,
 * which leaves the core idle while a load is outstanding.  Each keeps
 * several independent chains going, as real code does, and checks the
 * clock once a chunk.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model_tool.h"
#include "monoclock.h"

#define CHUNK 4096			/* iterations between looks at the clock */
#define CHASE_BYTES (64u << 20)		/* past the largest L3 of one CCX or chip */

/* Results land here so the compiler cannot drop the loops. */
static volatile uint64_t sink;
static volatile double fsink;

/* Four xorshift64 chains: shifts and xors, one ALU op after another. */
static uint64_t run_int(double deadline)
{
	uint64_t a = 1, b = 2, c = 3, d = 4, ops = 0;

	do {
		for (int i = 0; i < CHUNK; i++) {
			a ^= a << 13; a ^= a >> 7; a ^= a << 17;
			b ^= b << 13; b ^= b >> 7; b ^= b << 17;
			c ^= c << 13; c ^= c >> 7; c ^= c << 17;
			d ^= d << 13; d ^= d >> 7; d ^= d << 17;
		}
		ops += 4 * CHUNK;
	} while (mono_seconds() < deadline);
	sink = a ^ b ^ c ^ d;
	return ops;
}

/* Eight chains of x = x * m + c, which settle near 1 (no denormals). */
static uint64_t run_float(double deadline)
{
	double x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const double m = 0.999999, c = 1e-6;
	uint64_t ops = 0;

	do {
		for (int i = 0; i < CHUNK; i++)
			for (int j = 0; j < 8; j++)
				x[j] = x[j] * m + c;
		ops += 8 * CHUNK;
	} while (mono_seconds() < deadline);
	fsink = x[0] + x[1] + x[2] + x[3] + x[4] + x[5] + x[6] + x[7];
	return ops;
}

/* One random cycle through CHASE_BYTES of indices (Sattolo's shuffle), so
 * each load depends on the last and the prefetchers cannot guess. */
static uint32_t *ring;

static int prepare_chase(void)
{
	size_t n = CHASE_BYTES / sizeof *ring;
	uint64_t state = 0x9e3779b97f4a7c15u;

	if (ring != NULL)
		return 0;
	if ((ring = malloc(CHASE_BYTES)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		ring[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j;
		state ^= state << 13; state ^= state >> 7; state ^= state << 17;
		j = (size_t)(state % i);	/* j < i: one cycle through all */
		uint32_t t = ring[i]; ring[i] = ring[j]; ring[j] = t;
	}
	return 0;
}

static uint64_t run_chase(double deadline)
{
	uint32_t p = 0, q = (uint32_t)(CHASE_BYTES / sizeof *ring / 2);
	uint64_t ops = 0;

	do {
		for (int i = 0; i < CHUNK / 16; i++) {
			p = ring[p];
			q = ring[q];	/* two chains: as much overlap as real code has */
		}
		ops += 2 * (CHUNK / 16);
	} while (mono_seconds() < deadline);
	sink = p + q;
	return ops;
}

static const struct cpu_kernel kernels[] = {
	{ "int", "integer shifts and xors, 4 chains", run_int },
	{ "float", "floating-point multiply-adds, 8 chains", run_float },
	{ "chase", "pointer chase through 64 MiB, 2 chains", run_chase },
};

const char kernel_names[] = "int, float, chase";

const struct cpu_kernel *kernel_find(const char *name)
{
	for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
		if (strcmp(kernels[i].name, name) == 0)
			return &kernels[i];
	return NULL;
}

int kernel_prepare(const struct cpu_kernel *k)
{
	return k->run == run_chase ? prepare_chase() : 0;
}
