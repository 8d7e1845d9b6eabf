#include "monoclock.h"

#include <time.h>

uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double mono_seconds(void)
{
	return (double)mono_ns() / 1e9;
}
