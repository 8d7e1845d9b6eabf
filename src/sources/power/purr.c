#include "purr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "parsenum.h"
#include "readfile.h"
#include "sysroot.h"

const char *const purr_file_names[PURR_NCOUNTERS] = {
	"purr", "spurr", "idle_purr", "idle_spurr"
};

int purr_init(struct purr *p, int ncpus)
{
	memset(p, 0, sizeof *p);
	p->ncpus = ncpus;
	p->cpu = calloc((size_t)(ncpus > 0 ? ncpus : 1), sizeof *p->cpu);
	if (p->cpu == NULL)
		return -ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++)
		for (int k = 0; k < PURR_NCOUNTERS; k++)
			p->cpu[cpu].fd[k] = -1;
	return 0;
}

static void close_file(struct purr *p, int cpu, int k)
{
	if (p->cpu[cpu].fd[k] >= 0) {
		close(p->cpu[cpu].fd[k]);
		p->cpu[cpu].fd[k] = -1;
		p->nopen[k]--;
	}
	p->cpu[cpu].seen[k] = false;
	p->cpu[cpu].retry[k] = false;
}

static int open_file(struct purr *p, int cpu, int k)
{
	int fd = sr_open("/sys/devices/system/cpu/cpu%d/%s", cpu, purr_file_names[k]);

	if (fd >= 0) {
		p->cpu[cpu].fd[k] = fd;
		p->nopen[k]++;
	}
	return fd;
}

void purr_free(struct purr *p)
{
	for (int cpu = 0; cpu < p->ncpus && p->cpu; cpu++)
		for (int k = 0; k < PURR_NCOUNTERS; k++)
			close_file(p, cpu, k);
	free(p->cpu);
	memset(p, 0, sizeof *p);
}

void purr_sync(struct purr *p, const unsigned char *online)
{
	int sts;

	for (int k = 0; k < PURR_NCOUNTERS; k++)
		p->open_error[k] = 0;
	p->nonline = 0;
	for (int cpu = 0; cpu < p->ncpus; cpu++) {
		p->nonline += online[cpu] != 0;
		for (int k = 0; k < PURR_NCOUNTERS; k++) {
			const int *fd = &p->cpu[cpu].fd[k];

			if (!online[cpu]) {
				close_file(p, cpu, k);
				continue;
			}
			if (*fd >= 0 || p->cpu[cpu].retry[k])
				continue;	/* open, or retried by purr_read */
			if ((sts = open_file(p, cpu, k)) < 0 && p->open_error[k] == 0) {
				p->open_error[k] = -sts;	/* report the first */
				p->open_error_cpu[k] = cpu;
			}
		}
	}
}

int purr_parse_hex(const char *text, uint64_t *value)
{
	const char *end = pn_hex_prefix(text, value);

	if (end == NULL || (*end != '\n' && *end != '\0') || (*end == '\n' && end[1] != '\0'))
		return -EINVAL;
	return 0;
}

static void note_failure(struct purr *p, int cpu, int k, int err)
{
	if (p->nfailed[k]++ == 0) {
		p->failed_error[k] = err;
		p->failed_cpu[k] = cpu;
	}
}

int purr_read(struct purr *p, unsigned wanted)
{
	char text[32];
	int n = 0;

	for (int k = 0; k < PURR_NCOUNTERS; k++)
		p->nfailed[k] = p->nmalformed[k] = 0;
	for (int cpu = 0; cpu < p->ncpus; cpu++) {
		struct purr_cpu *c = &p->cpu[cpu];

		for (int k = 0; k < PURR_NCOUNTERS; k++) {
			ssize_t len;
			int fd;

			c->seen[k] = false;
			c->reopened[k] = false;
			if (!(wanted & PURR_BIT(k)))
				continue;
			if (c->fd[k] < 0 && c->retry[k]) {
				if ((fd = open_file(p, cpu, k)) < 0) {
					note_failure(p, cpu, k, -fd);
					continue;
				}
				c->retry[k] = false;
				c->reopened[k] = true;
			}
			if (c->fd[k] < 0)
				continue;
			if ((len = rf_pread(c->fd[k], text, sizeof text)) < 0 && len != -EFBIG) {
				smt_log_once(SMT_LOG_WARNING, "cpu%d/%s: %s; retried every pass",
					     cpu, purr_file_names[k], strerror((int)-len));
				note_failure(p, cpu, k, (int)-len);
				close_file(p, cpu, k);
				c->retry[k] = true;
				continue;
			}
			if (len < 0 || purr_parse_hex(text, &c->now[k]) < 0) {
				smt_log_once(SMT_LOG_WARNING, "cpu%d/%s: not a hex counter: \"%.20s\"",
					     cpu, purr_file_names[k], text);
				if (p->nmalformed[k]++ == 0)
					p->malformed_cpu[k] = cpu;
				continue;
			}
			c->seen[k] = true;
		}
		n += c->seen[PURR];
	}
	return n;
}

void purr_split(double dpurr, double didle, const double stat[PMODE_COUNT],
		double out[PMODE_COUNT])
{
	double busy_ticks = stat[PMODE_USER] + stat[PMODE_SYS];
	double idle_ticks = stat[PMODE_WAIT] + stat[PMODE_IDLE];

	for (int m = 0; m < PMODE_COUNT; m++)
		out[m] = 0;
	if (didle < 0) {
		double all = busy_ticks + idle_ticks;
		if (all <= 0) {
			out[PMODE_IDLE] = dpurr;
			return;
		}
		for (int m = 0; m < PMODE_COUNT; m++)
			out[m] = dpurr * stat[m] / all;
		return;
	}
	if (didle > dpurr)
		didle = dpurr;	/* read a moment apart: idle cannot exceed all */
	double busy = dpurr - didle;

	if (busy_ticks > 0) {
		out[PMODE_USER] = busy * stat[PMODE_USER] / busy_ticks;
		out[PMODE_SYS] = busy - out[PMODE_USER];
	} else {
		out[PMODE_SYS] = busy;
	}
	if (idle_ticks > 0) {
		out[PMODE_WAIT] = didle * stat[PMODE_WAIT] / idle_ticks;
		out[PMODE_IDLE] = didle - out[PMODE_WAIT];
	} else {
		out[PMODE_IDLE] = didle;
	}
}
