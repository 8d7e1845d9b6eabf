#include "pmu.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "sysroot.h"

#define PMU_DIR "/sys/bus/event_source/devices"

static int read_fields(struct pmu *p, char *why, size_t whysize)
{
	char path[PATH_MAX], text[128];
	struct dirent *e;
	DIR *d;
	int sts = 0;

	if (sr_path(path, sizeof path, PMU_DIR "/%s/format", p->name) < 0 ||
	    (d = opendir(path)) == NULL) {
		snprintf(why, whysize, "%s PMU has no format directory", p->name);
		return -EINVAL;
	}
	while (sts == 0 && (e = readdir(d)) != NULL) {
		struct pmu_field *f = &p->field[p->nfields];

		if (e->d_name[0] == '.')
			continue;
		if (p->nfields == PMU_MAX_FIELDS || strlen(e->d_name) >= PMU_NAME_MAX) {
			snprintf(why, whysize, "%s PMU: too many or too long format names", p->name);
			sts = -EINVAL;
		} else if (sr_read_small(text, sizeof text, PMU_DIR "/%s/format/%s", p->name,
					 e->d_name) < 0 || pmu_field_parse(text, f) < 0) {
			snprintf(why, whysize, "%s PMU: format/%s is not a perf format (\"%s\")",
				 p->name, e->d_name, text);
			sts = -EINVAL;
		} else {
			snprintf(p->field_name[p->nfields++], PMU_NAME_MAX, "%s", e->d_name);
		}
	}
	closedir(d);
	return sts;
}

static int read_cpumask(struct pmu *p, char *why, size_t whysize)
{
	unsigned char set[PMU_MAX_CPUS * 16];
	char text[4096];
	int n;

	if (sr_read_small(text, sizeof text, PMU_DIR "/%s/cpumask", p->name) < 0) {
		snprintf(why, whysize, "%s PMU has no cpumask", p->name);
		return -EINVAL;
	}
	n = cpulist_parse(text, set, (int)sizeof set);
	if (n <= 0 || n > PMU_MAX_CPUS) {
		snprintf(why, whysize, "%s PMU: cpumask \"%s\" is not a CPU list", p->name, text);
		return -EINVAL;
	}
	p->ncpus = 0;
	for (int cpu = 0; cpu < (int)sizeof set; cpu++)
		if (set[cpu])
			p->cpu[p->ncpus++] = cpu;
	return 0;
}

/* What every PMU has: its directory, its type and its format/ fields. */
static int discover_common(struct pmu *p, const char *name, char *why, size_t whysize)
{
	long type;

	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	if (!sr_exists(PMU_DIR "/%s", name)) {
		snprintf(why, whysize, "no %s PMU in " PMU_DIR, name);
		return -ENOENT;
	}
	if (sr_read_long(&type, 0, UINT32_MAX, PMU_DIR "/%s/type", name) < 0) {
		snprintf(why, whysize, "%s PMU: type is not a number", name);
		return -EINVAL;
	}
	p->type = (uint32_t)type;
	return read_fields(p, why, whysize);
}

int pmu_discover(struct pmu *p, const char *name, char *why, size_t whysize)
{
	long ms;
	int sts;

	if ((sts = discover_common(p, name, why, whysize)) < 0 ||
	    (sts = read_cpumask(p, why, whysize)) < 0)
		return sts;
	if (sr_read_long(&ms, 0, INT_MAX, PMU_DIR "/%s/perf_event_mux_interval_ms", name) == 0 && ms > 0)
		p->mux_interval_ms = (unsigned)ms;
	return 0;
}

int pmu_discover_core(struct pmu *p, const char *name, char *why, size_t whysize)
{
	return discover_common(p, name, why, whysize);
}

int pmu_encode(const struct pmu *p, const struct pmu_setting *settings, int n,
	       uint64_t config[3], char *why, size_t whysize)
{
	config[0] = config[1] = config[2] = 0;
	for (int i = 0; i < n; i++) {
		int k = 0;

		while (k < p->nfields && strcmp(p->field_name[k], settings[i].field) != 0)
			k++;
		if (k == p->nfields) {
			snprintf(why, whysize, "%s PMU has no format field \"%s\"", p->name,
				 settings[i].field);
			return -ENOENT;
		}
		if (pmu_field_encode(&p->field[k], settings[i].value,
				     &config[p->field[k].config]) < 0) {
			snprintf(why, whysize, "%s PMU: %s=0x%llx does not fit its %d bits", p->name,
				 settings[i].field, (unsigned long long)settings[i].value,
				 p->field[k].width);
			return -ERANGE;
		}
	}
	return 0;
}

int pmu_event_alias(const struct pmu *p, const char *event, uint64_t config[3], char *why,
		    size_t whysize)
{
	struct pmu_setting term[PMU_MAX_FIELDS];
	char text[256], *save = NULL;
	int n = 0;

	if (strchr(event, '/') || sr_read_small(text, sizeof text, PMU_DIR "/%s/events/%s", p->name,
						 event) < 0) {
		snprintf(why, whysize, "%s PMU has no event %s", p->name, event);
		return -ENOENT;
	}
	text[strcspn(text, "\n")] = '\0';
	for (char *t = strtok_r(text, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(t, '='), *end = NULL;

		if (n == PMU_MAX_FIELDS)
			break;
		term[n].value = 1;
		if (eq) {
			*eq = '\0';
			errno = 0;
			term[n].value = strtoull(eq + 1, &end, 0);
			if (errno || end == eq + 1 || *end) {
				snprintf(why, whysize, "%s PMU: events/%s has \"%s=%s\", not a number",
					 p->name, event, t, eq + 1);
				return -EINVAL;
			}
		}
		term[n++].field = t;
	}
	if (n == 0 || n == PMU_MAX_FIELDS) {
		snprintf(why, whysize, "%s PMU: events/%s is not field=value terms", p->name, event);
		return -EINVAL;
	}
	/* a field the format lacks makes the alias malformed, not absent */
	int sts = pmu_encode(p, term, n, config, why, whysize);
	return sts == -ENOENT ? -EINVAL : sts;
}
