#include "lparcfg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "parsenum.h"
#include "readfile.h"
#include "sysroot.h"

const char *const lparcfg_key_names[LPAR_NKEYS] = {
	"partition_entitled_capacity", "capped", "shared_processor_mode", "DedDonMode",
	"partition_active_processors", "pool", "pool_capacity", "pool_num_procs",
	"pool_idle_time", "purr", "tbr",
};

int lparcfg_open(struct lparcfg *l)
{
	memset(l, 0, sizeof *l);
	l->fd = -1;
	if ((l->buf = malloc(LPARCFG_BUFSIZE)) == NULL)
		return -ENOMEM;
	l->bufsize = LPARCFG_BUFSIZE;
	l->fd = sr_open("/proc/powerpc/lparcfg");
	if (l->fd == -ENOENT)
		l->fd = sr_open("/proc/ppc64/lparcfg");
	if (l->fd < 0) {
		l->error = -l->fd;
		l->fd = -1;
		return -l->error;
	}
	return 0;
}

void lparcfg_close(struct lparcfg *l)
{
	if (l->fd >= 0)
		close(l->fd);
	free(l->buf);
	memset(l, 0, sizeof *l);
	l->fd = -1;
}

static int key_index(const char *key)
{
	for (int k = 0; k < LPAR_NKEYS; k++)
		if (strcmp(key, lparcfg_key_names[k]) == 0)
			return k;
	return -1;
}

int lparcfg_parse(struct lparcfg *l, char *text)
{
	char *line = text, *next;

	memset(l->have, 0, sizeof l->have);
	l->nread = 0;
	l->version[0] = '\0';
	if (strncmp(text, "lparcfg ", 8) != 0) {
		smt_log_once(SMT_LOG_WARNING, "lparcfg: first line is not \"lparcfg VERSION\"");
		return -EINVAL;
	}
	for (; line && *line; line = next) {
		char *eq;
		int k;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (line == text) {
			size_t n = strcspn(line + 8, " \t");
			if (n >= sizeof l->version)
				n = sizeof l->version - 1;
			memcpy(l->version, line + 8, n);
			l->version[n] = '\0';
			continue;
		}
		if ((eq = strchr(line, '=')) == NULL)
			continue;
		*eq = '\0';
		if ((k = key_index(line)) < 0)
			continue;
		int64_t v;
		const char *end = pn_i64_prefix(eq + 1, &v);
		if (end == NULL || *end != '\0') {
			smt_log_once(SMT_LOG_WARNING, "lparcfg: %s=%.20s is not a number",
				     line, eq + 1);
			continue;
		}
		l->value[k] = v;
		l->have[k] = true;
		l->nread++;
	}
	return l->nread;
}

int lparcfg_read(struct lparcfg *l)
{
	ssize_t len;

	if (l->fd < 0)
		return -(l->error ? l->error : ENOENT);
	/* A file past the bound is an error, not a cut value. */
	if ((len = rf_pread(l->fd, l->buf, (size_t)l->bufsize)) < 0) {
		l->error = (int)-len;
		memset(l->have, 0, sizeof l->have);
		return (int)len;
	}
	l->error = 0;
	return lparcfg_parse(l, l->buf);
}
