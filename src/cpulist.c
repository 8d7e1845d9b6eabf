#include "cpulist.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Walks a list, calling visit(lo, hi) for each range; -1 if malformed. */
static int walk(const char *s, int (*visit)(int lo, int hi, void *arg), void *arg)
{
	while (*s == ' ')
		s++;
	while (*s && *s != '\n') {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*s))
			return -1;
		lo = hi = strtol(s, &end, 10);
		s = end;
		if (*s == '-') {
			if (!isdigit((unsigned char)s[1]))
				return -1;
			hi = strtol(s + 1, &end, 10);
			s = end;
		}
		if (hi < lo || hi > 1 << 20)
			return -1;
		if (visit((int)lo, (int)hi, arg) < 0)
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
