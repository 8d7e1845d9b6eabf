#include "log.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

static void stderr_sink(enum smt_log_level level, const char *message)
{
	static const char *const tag[] = { "info", "warning", "error" };
	fprintf(stderr, "smtcpu: %s: %s\n", tag[level], message);
}

static smt_log_sink current_sink = stderr_sink;

/* Hashes of messages already logged once; a fixed table, so logging
 * allocates nothing.  When it is full, messages are logged every time. */
#define ONCE_SLOTS 1024
static uint64_t once_seen[ONCE_SLOTS];

void smt_log_set_sink(smt_log_sink sink)
{
	current_sink = sink ? sink : stderr_sink;
}

void smt_log_reset_once(void)
{
	for (int i = 0; i < ONCE_SLOTS; i++)
		once_seen[i] = 0;
}

static void vlog(enum smt_log_level level, const char *fmt, va_list ap)
{
	char message[512];
	vsnprintf(message, sizeof message, fmt, ap);
	current_sink(level, message);
}

void smt_log(enum smt_log_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h ? h : 1;
}

/* Returns 1 if the hash was not there before (and records it). */
static int remember(uint64_t h)
{
	unsigned slot = (unsigned)(h % ONCE_SLOTS);
	for (int probe = 0; probe < ONCE_SLOTS; probe++) {
		unsigned i = (slot + (unsigned)probe) % ONCE_SLOTS;
		if (once_seen[i] == h)
			return 0;
		if (once_seen[i] == 0) {
			once_seen[i] = h;
			return 1;
		}
	}
	return 1;
}

void smt_log_once(enum smt_log_level level, const char *fmt, ...)
{
	char message[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	if (remember(fnv1a(message)))
		current_sink(level, message);
}
