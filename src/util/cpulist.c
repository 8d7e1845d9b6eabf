#include "cpulist.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "parsenum.h"

static const char *cpu_number(const char *s, int *cpu)
{
	uint64_t v;

	if ((s = pn_u64_prefix(s, &v)) == NULL || v >= CPULIST_MAX_CPUS)
		return NULL;
	*cpu = (int)v;
	return s;
}

/* Walks a list, calling visit(lo, hi) for each range; -1 if malformed. */
static int walk(const char *s, int (*visit)(int lo, int hi, void *arg), void *arg)
{
	while (*s == ' ')
		s++;
	while (*s && *s != '\n') {
		int lo, hi;

		if ((s = cpu_number(s, &lo)) == NULL)
			return -1;
		hi = lo;
		if (*s == '-' && (s = cpu_number(s + 1, &hi)) == NULL)
			return -1;
		if (hi < lo || visit(lo, hi, arg) < 0)
			return -1;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -1;
	}
	return 0;
}

struct fill { unsigned char *set; int nmax, count; };

static int fill_range(int lo, int hi, void *arg)
{
	struct fill *f = arg;

	if (hi >= f->nmax)
		return -1;
	for (int c = lo; c <= hi; c++) {
		f->count += !f->set[c];
		f->set[c] = 1;
	}
	return 0;
}

int cpulist_parse(const char *text, unsigned char *set, int nmax)
{
	struct fill f = { set, nmax, 0 };

	memset(set, 0, (size_t)nmax);
	return walk(text, fill_range, &f) < 0 ? -1 : f.count;
}

static int widen(int lo, int hi, void *arg)
{
	int *span = arg;
	(void)lo;
	if (hi + 1 > *span)
		*span = hi + 1;
	return 0;
}

int cpulist_span(const char *text)
{
	int span = 0;
	return walk(text, widen, &span) < 0 ? -1 : span;
}

static int lowest(int lo, int hi, void *arg)
{
	int *first = arg;
	(void)hi;
	if (*first < 0 || lo < *first)
		*first = lo;
	return 0;
}

int cpulist_first(const char *text)
{
	int first = -1;
	return walk(text, lowest, &first) < 0 ? -1 : first;
}

struct collect { int *cpus, max, n; };

static int add_range(int lo, int hi, void *arg)
{
	struct collect *c = arg;

	if (c->n > 0 && lo <= c->cpus[c->n - 1])
		return -1;	/* the kernel prints a bitmap: ascending, once each */
	for (int cpu = lo; cpu <= hi; cpu++) {
		if (c->n == c->max) {
			c->n++;	/* cut: one more than max says so */
			return -1;
		}
		c->cpus[c->n++] = cpu;
	}
	return 0;
}

int cpulist_collect(const char *text, int *cpus, int max)
{
	struct collect c = { cpus, max, 0 };

	if (walk(text, add_range, &c) < 0 && c.n <= max)
		return -1;
	return c.n;
}

/* The mask format ("%*pb", lib/vsprintf.c bitmap_string): 32-bit words in
 * hex, the highest first, commas between; the last word holds CPUs 0-31. */
int cpumask_collect(const char *text, int *cpus, int max)
{
	int ndigits = 0, n = 0;
	const char *end = text + strcspn(text, "\n");

	for (const char *p = text; p < end; p++)
		if (isxdigit((unsigned char)*p))
			ndigits++;
		else if (*p != ',')
			return -1;
	if (ndigits == 0 || (long)ndigits * 4 > CPULIST_MAX_CPUS)
		return -1;
	/* From the last digit (CPUs 0-3) back to the first, each 4 CPUs. */
	for (int base = 0; end > text; ) {
		char c = *--end;
		int v;

		if (c == ',')
			continue;
		v = isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
		for (int bit = 0; bit < 4; bit++)
			if (v & (1 << bit)) {
				if (n == max)
					return max + 1;
				cpus[n++] = base + bit;
			}
		base += 4;
	}
	return n;
}
