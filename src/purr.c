#include "purr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
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
	for (int k = 0; k < PURR_NCOUNTERS; k++)
		p->open_error[k] = 0;
	p->nonline = 0;
	for (int cpu = 0; cpu < p->ncpus; cpu++) {
		p->nonline += online[cpu] != 0;
		for (int k = 0; k < PURR_NCOUNTERS; k++) {
			int *fd = &p->cpu[cpu].fd[k];

			if (!online[cpu]) {
				close_file(p, cpu, k);
				continue;
			}
			if (*fd >= 0)
				continue;
			*fd = sr_open("/sys/devices/system/cpu/cpu%d/%s", cpu, purr_file_names[k]);
			if (*fd >= 0) {
				p->nopen[k]++;
			} else {
				if (p->open_error[k] == 0) {	/* report the first */
					p->open_error[k] = -*fd;
					p->open_error_cpu[k] = cpu;
				}
				*fd = -1;
			}
		}
	}
}

int purr_parse_hex(const char *text, uint64_t *value)
{
	uint64_t v = 0;
	int digits = 0;

	for (; digits < 17; text++, digits++) {
		int d;
		if (*text >= '0' && *text <= '9')
			d = *text - '0';
		else if (*text >= 'a' && *text <= 'f')
			d = *text - 'a' + 10;
		else
			break;
		v = v << 4 | (uint64_t)d;
	}
	if (digits == 0 || digits > 16 || (*text != '\n' && *text != '\0') ||
	    (*text == '\n' && text[1] != '\0'))
		return -EINVAL;
	*value = v;
	return 0;
}

int purr_read(struct purr *p)
{
	char text[32];
	int n = 0;

	for (int cpu = 0; cpu < p->ncpus; cpu++) {
		struct purr_cpu *c = &p->cpu[cpu];

		for (int k = 0; k < PURR_NCOUNTERS; k++) {
			ssize_t len;

			c->seen[k] = false;
			if (c->fd[k] < 0)
				continue;
			if ((len = sr_pread_all(c->fd[k], text, sizeof text)) < 0) {
				smt_log_once(SMT_LOG_WARNING, "cpu%d/%s: %s; reopened when the "
					     "CPU is next online", cpu, purr_file_names[k],
					     strerror((int)-len));
				close_file(p, cpu, k);
				continue;
			}
			if (purr_parse_hex(text, &c->now[k]) < 0) {
				smt_log_once(SMT_LOG_WARNING, "cpu%d/%s: not a hex counter: \"%.20s\"",
					     cpu, purr_file_names[k], text);
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
