#include "log.h"

#include "printable.h"

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
 * allocates nothing.  When it is full, further new messages are dropped,
 * with one notice: a fault on every one of thousands of CPUs must not log
 * a line per CPU every pass (smtcpu.status still says what is wrong). */
#define ONCE_SLOTS 1024
#define ONCE_SLOTS_TEXT "1023"
static uint64_t once_seen[ONCE_SLOTS];
static int once_used;
static int once_full_said;

void smt_log_set_sink(smt_log_sink sink)
{
	current_sink = sink ? sink : stderr_sink;
}

void smt_log_reset_once(void)
{
	for (int i = 0; i < ONCE_SLOTS; i++)
		once_seen[i] = 0;
	once_used = 0;
	once_full_said = 0;
}

static void vlog(enum smt_log_level level, const char *fmt, va_list ap)
{
	char message[512];
	vsnprintf(message, sizeof message, fmt, ap);
	printable_copy(message, sizeof message, message, sizeof message);
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

/* 1 if the hash was not there before (and is now), 0 if it was, -1 if the
 * table is full.  One slot is kept empty so every probe ends. */
static int remember(uint64_t h)
{
	unsigned slot = (unsigned)(h % ONCE_SLOTS);
	for (int probe = 0; probe < ONCE_SLOTS; probe++) {
		unsigned i = (slot + (unsigned)probe) % ONCE_SLOTS;
		if (once_seen[i] == h)
			return 0;
		if (once_seen[i] == 0) {
			if (once_used == ONCE_SLOTS - 1)
				return -1;
			once_seen[i] = h;
			once_used++;
			return 1;
		}
	}
	return -1;
}

void smt_log_once(enum smt_log_level level, const char *fmt, ...)
{
	char message[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	printable_copy(message, sizeof message, message, sizeof message);
	switch (remember(fnv1a(message))) {
	case 1:
		current_sink(level, message);
		break;
	case -1:
		if (!once_full_said) {
			once_full_said = 1;
			current_sink(SMT_LOG_WARNING, "more than " ONCE_SLOTS_TEXT " distinct problems "
				     "reported: further ones are not logged (smtcpu.status has each "
				     "source's state)");
		}
		break;
	}
}
