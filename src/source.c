/* A source's status, set through its context; and its state, found for
 * its public accessor through what sampler_init noted (not the table of
 * sources, which names every source: reaching it would be a loop). */
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

void source_set_status(const struct source_ctx *ctx, int k, const char *fmt, ...)
{
	va_list ap;

	if (k < 0 || k >= ctx->nstatus)
		return;
	va_start(ap, fmt);
	vsnprintf(ctx->status[k], sizeof ctx->status[k], fmt, ap);
	va_end(ap);
}
