/* What a source reaches of the sampler: its own state and status slots,
 * found through what sampler_init noted (not the table of sources, which
 * names every source: a source reaching it would call itself in a loop). */
#include "source.h"

#include <stdarg.h>
#include <stdio.h>

#include "sampler.h"

static int source_index(const struct sampler *s, const struct sampler_source *src)
{
	for (int i = 0; i < s->nsources; i++)
		if (s->source[i] == src)
			return i;
	return -1;
}

void *source_state(const struct sampler *s, const struct sampler_source *src)
{
	int i = source_index(s, src);
	return i < 0 ? NULL : s->state[i];
}

void source_set_status(struct sampler *s, const struct sampler_source *src, int k,
		       const char *fmt, ...)
{
	int i = source_index(s, src), slot;
	va_list ap;

	if (i < 0 || k < 0 || k >= src->nstatus || (slot = s->status_base[i] + k) >= s->nstatus)
		return;
	va_start(ap, fmt);
	vsnprintf(s->status[slot], sizeof s->status[slot], fmt, ap);
	va_end(ap);
}
