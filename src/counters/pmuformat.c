#include "pmuformat.h"

#include <errno.h>
#include <string.h>

#include "parsenum.h"

/* A bit number, 0 to 63. */
static const char *number(const char *s, int *v)
{
	uint64_t n;

	if ((s = pn_u64_prefix(s, &n)) == NULL || n > 63)
		return NULL;
	*v = (int)n;
	return s;
}

int pmu_field_parse(const char *text, struct pmu_field *f)
{
	static const char *const names[] = { "config:", "config1:", "config2:" };
	const char *s = NULL;
	uint64_t used = 0;

	memset(f, 0, sizeof *f);
	for (int i = 0; i < 3 && s == NULL; i++)
		if (strncmp(text, names[i], strlen(names[i])) == 0) {
			f->config = i;
			s = text + strlen(names[i]);
		}
	if (s == NULL)
		return -EINVAL;
	for (;;) {
		int lo, hi;

		if ((s = number(s, &lo)) == NULL)
			return -EINVAL;
		hi = lo;
		if (*s == '-' && ((s = number(s + 1, &hi)) == NULL || hi < lo))
			return -EINVAL;
		if (f->nranges == PMU_FORMAT_MAX_RANGES)
			return -EINVAL;
		for (int b = lo; b <= hi; b++) {
			if (used & (1ull << b))
				return -EINVAL;
			used |= 1ull << b;
		}
		f->lo[f->nranges] = (unsigned char)lo;
		f->hi[f->nranges] = (unsigned char)hi;
		f->nranges++;
		f->width += hi - lo + 1;
		if (*s != ',')
			break;
		s++;
	}
	return (*s == '\0' || (*s == '\n' && s[1] == '\0')) ? 0 : -EINVAL;
}

int pmu_field_encode(const struct pmu_field *f, uint64_t value, uint64_t *config)
{
	int shift = 0;

	if (f->width < 64 && value >> f->width)
		return -ERANGE;
	for (int r = 0; r < f->nranges; r++) {
		int n = f->hi[r] - f->lo[r] + 1;
		uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
		*config |= ((value >> shift) & mask) << f->lo[r];
		shift += n;
	}
	return 0;
}
