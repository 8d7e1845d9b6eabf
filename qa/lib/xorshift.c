/*
 * qa 027's own timing of the integer work smtcpu-model --calibrate --kernel
 * int does: ROUNDS rounds of four independent xorshift64 chains (Marsaglia,
 * "Xorshift RNGs", 2003: shifts 13, 7, 17).  Prints one line: when it
 * started and ended (CLOCK_MONOTONIC, seconds), the operations done
 * (4 x ROUNDS), and the CPU seconds the kernel gave this process for them
 * (CLOCK_PROCESS_CPUTIME_ID), so a rate counts only time on the CPU.
 *
 *   xorshift ROUNDS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile uint64_t result;	/* so the compiler keeps the loop */

static double seconds(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t step(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	return x ^ (x << 17);
}

int main(int argc, char **argv)
{
	uint64_t chain[4] = { 11, 23, 37, 41 };
	long long rounds = argc == 2 ? atoll(argv[1]) : 0;
	double start = seconds(CLOCK_MONOTONIC);

	if (rounds <= 0) {
		fprintf(stderr, "usage: xorshift ROUNDS\n");
		return 2;
	}
	for (long long r = 0; r < rounds; r++) {
		chain[0] = step(chain[0]);
		chain[1] = step(chain[1]);
		chain[2] = step(chain[2]);
		chain[3] = step(chain[3]);
	}
	result = chain[0] ^ chain[1] ^ chain[2] ^ chain[3];
	printf("%.6f %.6f %lld %.6f\n", start, seconds(CLOCK_MONOTONIC), 4 * rounds,
	       seconds(CLOCK_PROCESS_CPUTIME_ID));
	return 0;
}
