#include "cpustat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "parsenum.h"
#include "readfile.h"
#include "sysroot.h"

/*
 * The longest per-CPU line the kernel can print (show_stat: "cpu" and a
 * number, ten 64-bit fields) is under 256 bytes, so the per-CPU lines of
 * every possible CPU and the total line fit in this; the rest of the file
 * (intr, ctxt, softirq ...) is not needed and may be cut off.
 */
static size_t bound(int ncpus)
{
	return 4096 + 256 * ((size_t)ncpus + 1);
}

int cpustat_open(struct cpustat *cs, int ncpus)
{
	memset(cs, 0, sizeof *cs);
	cs->ncpus = ncpus;
	cs->now = calloc((size_t)(ncpus ? ncpus : 1), sizeof *cs->now);
	cs->seen = calloc((size_t)(ncpus ? ncpus : 1), 1);
	cs->bufsize = bound(ncpus);
	cs->buf = malloc(cs->bufsize);
	cs->fd = sr_open("/proc/stat");
	if (!cs->now || !cs->seen || !cs->buf) {
		cpustat_close(cs);
		return -ENOMEM;
	}
	if (cs->fd < 0) {
		cs->error = -cs->fd;
		return cs->fd;
	}
	return 0;
}

void cpustat_close(struct cpustat *cs)
{
	if (cs->fd >= 0)
		close(cs->fd);
	free(cs->now);
	free(cs->seen);
	free(cs->buf);
	memset(cs, 0, sizeof *cs);
	cs->fd = -1;
}

/* One unsigned decimal after spaces; NULL if there is none or it overflows. */
static const char *number(const char *s, uint64_t *value)
{
	while (*s == ' ')
		s++;
	return pn_u64_prefix(s, value);
}

static const char *line_end(const char *s)
{
	const char *nl = strchr(s, '\n');
	return nl ? nl : s + strlen(s);
}

/* One "cpuN ..." line; 0 when well formed. */
static int parse_line(struct cpustat *cs, const char *s, const char *end)
{
	struct cpustat_times t = { { 0 } };	/* (what an older kernel does not print is 0) */
	uint64_t cpu;
	const char *p = number(s + 3, &cpu);
	int nfields = 0;

	if (p == NULL || *p != ' ') {
		smt_log_once(SMT_LOG_WARNING, "/proc/stat: malformed line \"%.*s\"; skipped",
			     (int)(end - s > 60 ? 60 : end - s), s);
		return -1;
	}
	if (cpu >= (uint64_t)cs->ncpus) {
		smt_log_once(SMT_LOG_WARNING, "/proc/stat: cpu%llu is beyond the %d possible CPUs; "
			     "skipped", (unsigned long long)cpu, cs->ncpus);
		return -1;
	}
	while (p < end) {
		uint64_t extra;
		const char *q = number(p, nfields < CS_NFIELDS ? &t.field[nfields] : &extra);
		if (q == NULL || q > end)
			break;
		p = q;
		nfields++;	/* fields a later kernel may append are read and ignored */
	}
	while (p < end && *p == ' ')
		p++;
	if (p != end || nfields < CS_MIN_FIELDS) {
		smt_log_once(SMT_LOG_WARNING, "/proc/stat: cpu%llu: %s (%d numbers, at least %d "
			     "expected); its window is held over", (unsigned long long)cpu,
			     p != end ? "not a number" : "truncated line", nfields, CS_MIN_FIELDS);
		return -1;
	}
	cs->now[cpu] = t;
	if (!cs->seen[cpu])
		cs->nseen++;
	cs->seen[cpu] = 1;
	return 0;
}

/* Sets *ended when a line other than a CPU's followed the CPU lines. */
static int parse(struct cpustat *cs, const char *text, bool *ended)
{
	const char *s = text;

	memset(cs->seen, 0, (size_t)cs->ncpus);
	cs->nseen = 0;
	*ended = false;
	while (*s) {
		const char *end = line_end(s);

		if (s[0] == 'c' && s[1] == 'p' && s[2] == 'u') {
			if (s[3] != ' ')	/* "cpu " is the all-CPU total */
				parse_line(cs, s, end);
		} else if (cs->nseen > 0) {
			*ended = true;		/* per-CPU lines come first, together */
			break;
		}
		s = *end ? end + 1 : end;
	}
	return cs->nseen;
}

int cpustat_parse(struct cpustat *cs, const char *text)
{
	bool ended;

	return parse(cs, text, &ended);
}

int cpustat_read(struct cpustat *cs)
{
	ssize_t len;
	bool ended;

	memset(cs->seen, 0, (size_t)cs->ncpus);
	cs->nseen = 0;
	if (cs->fd < 0) {
		cs->fd = sr_open("/proc/stat");
		if (cs->fd < 0) {
			cs->error = -cs->fd;
			return cs->fd;
		}
	}
	len = rf_pread(cs->fd, cs->buf, cs->bufsize);
	if (len == -EFBIG) {
		/* Only the per-CPU lines matter: take what was read if they
		 * ended inside the bound.  A cut last line that is (or may be)
		 * a CPU's is dropped; any other shows the CPU lines ended. */
		char *nl = strrchr(cs->buf, '\n'), *tail = nl ? nl + 1 : cs->buf;
		size_t n = strlen(tail);

		if (strncmp(tail, "cpu", n < 3 ? n : 3) == 0)
			*tail = '\0';
		if (parse(cs, cs->buf, &ended) >= 0 && ended) {
			cs->error = 0;
			return cs->nseen;
		}
		memset(cs->seen, 0, (size_t)cs->ncpus);
		cs->nseen = 0;
	}
	if (len < 0) {
		cs->error = (int)-len;
		return (int)len;
	}
	cs->error = 0;
	return parse(cs, cs->buf, &ended);
}

size_t cpustat_bound(const struct cpustat *cs)
{
	return cs->bufsize - 2;
}

uint64_t cpustat_busy(const struct cpustat_times *t)
{
	return t->field[CS_USER] + t->field[CS_NICE] + t->field[CS_SYSTEM] +
	       t->field[CS_IRQ] + t->field[CS_SOFTIRQ];
}

uint64_t cpustat_window(const struct cpustat_times *t)
{
	return cpustat_busy(t) + t->field[CS_IDLE] + t->field[CS_IOWAIT];
}
