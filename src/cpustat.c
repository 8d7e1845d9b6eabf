#include "cpustat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "sysroot.h"

int cpustat_open(struct cpustat *cs, int ncpus)
{
	ssize_t len;

	memset(cs, 0, sizeof *cs);
	cs->ncpus = ncpus;
	cs->now = calloc((size_t)(ncpus ? ncpus : 1), sizeof *cs->now);
	cs->seen = calloc((size_t)(ncpus ? ncpus : 1), 1);
	/* About 100 bytes a CPU line, plus the rest of the file; doubled
	 * below until a whole read fits, with room to spare. */
	cs->bufsize = 4096 + 256 * (size_t)ncpus;
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
	while ((len = sr_pread_all(cs->fd, cs->buf, cs->bufsize)) >= 0 &&
	       (size_t)len >= cs->bufsize / 2) {
		char *bigger = realloc(cs->buf, cs->bufsize * 2);
		if (bigger == NULL)
			break;
		cs->buf = bigger;
		cs->bufsize *= 2;
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

/* Parses one unsigned decimal; NULL if there is none. */
static const char *number(const char *s, uint64_t *value)
{
	uint64_t v = 0;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		uint64_t next = v * 10 + (uint64_t)(*s - '0');
		if (next < v)
			return NULL;	/* more than 64 bits */
		v = next;
		s++;
	}
	*value = v;
	return s;
}

static const char *line_end(const char *s)
{
	const char *nl = strchr(s, '\n');
	return nl ? nl : s + strlen(s);
}

/* One "cpuN ..." line; 0 when well formed. */
static int parse_line(struct cpustat *cs, const char *s, const char *end)
{
	struct cpustat_times t;
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
	if (p != end || nfields < CS_NFIELDS) {
		smt_log_once(SMT_LOG_WARNING, "/proc/stat: cpu%llu: %s (%d numbers, %d expected); "
			     "its window is held over", (unsigned long long)cpu,
			     p != end ? "not a number" : "truncated line", nfields, CS_NFIELDS);
		return -1;
	}
	cs->now[cpu] = t;
	if (!cs->seen[cpu])
		cs->nseen++;
	cs->seen[cpu] = 1;
	return 0;
}

int cpustat_parse(struct cpustat *cs, const char *text)
{
	const char *s = text;

	memset(cs->seen, 0, (size_t)cs->ncpus);
	cs->nseen = 0;
	while (*s) {
		const char *end = line_end(s);

		if (s[0] == 'c' && s[1] == 'p' && s[2] == 'u') {
			if (s[3] != ' ')	/* "cpu " is the all-CPU total */
				parse_line(cs, s, end);
		} else if (cs->nseen > 0) {
			break;			/* per-CPU lines come first, together */
		}
		s = *end ? end + 1 : end;
	}
	return cs->nseen;
}

int cpustat_read(struct cpustat *cs)
{
	ssize_t len;

	memset(cs->seen, 0, (size_t)cs->ncpus);
	cs->nseen = 0;
	if (cs->fd < 0) {
		cs->fd = sr_open("/proc/stat");
		if (cs->fd < 0) {
			cs->error = -cs->fd;
			return cs->fd;
		}
	}
	len = sr_pread_all(cs->fd, cs->buf, cs->bufsize);
	if (len < 0) {
		cs->error = (int)-len;
		return (int)len;
	}
	if ((size_t)len == cs->bufsize - 1) {
		/* The file outgrew the buffer (CPUs came online): grow once. */
		char *bigger = realloc(cs->buf, cs->bufsize * 2);
		if (bigger != NULL) {
			cs->buf = bigger;
			cs->bufsize *= 2;
			return cpustat_read(cs);
		}
	}
	cs->error = 0;
	return cpustat_parse(cs, cs->buf);
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
