#include "parsenum.h"

#include <errno.h>
#include <stddef.h>

static int digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : -1;
}

static int hexdigit(char c, int upper_too)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (upper_too && c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

const char *pn_u64_prefix(const char *s, uint64_t *v)
{
	uint64_t n = 0;
	int d;

	if (digit(*s) < 0)
		return NULL;
	for (; (d = digit(*s)) >= 0; s++) {
		if (n > (UINT64_MAX - (uint64_t)d) / 10)
			return NULL;	/* more than 64 bits */
		n = n * 10 + (uint64_t)d;
	}
	*v = n;
	return s;
}

static const char *hex(const char *s, uint64_t *v, int upper_too)
{
	uint64_t n = 0;
	int d, digits = 0;

	for (; (d = hexdigit(*s, upper_too)) >= 0; s++) {
		if (++digits > 16)
			return NULL;
		n = n << 4 | (uint64_t)d;
	}
	if (digits == 0)
		return NULL;
	*v = n;
	return s;
}

const char *pn_hex_prefix(const char *s, uint64_t *v)
{
	return hex(s, v, 0);
}

const char *pn_i64_prefix(const char *s, int64_t *v)
{
	int negative = *s == '-';
	uint64_t n;

	if ((s = pn_u64_prefix(s + negative, &n)) == NULL)
		return NULL;
	if (negative ? n > (uint64_t)INT64_MAX + 1 : n > (uint64_t)INT64_MAX)
		return NULL;
	*v = negative ? (int64_t)(0 - n) : (int64_t)n;
	return s;
}

const char *pn_decimal_prefix(const char *s, double *v)
{
	double n = 0, scale = 1;
	int d, digits = 0;

	if (digit(*s) < 0)
		return NULL;
	for (; (d = digit(*s)) >= 0; s++)
		if ((digits += digits || d) <= 15)
			n = n * 10 + d;
		else
			return NULL;
	if (*s == '.') {
		if (digit(s[1]) < 0)
			return NULL;
		for (s++; (d = digit(*s)) >= 0; s++) {
			if ((digits += digits || d) > 15)
				continue;	/* beyond a double's precision: dropped */
			scale /= 10;
			n += d * scale;
		}
	}
	*v = n;
	return s;
}

static int whole(const char *end)
{
	return end != NULL && (*end == '\0' || (*end == '\n' && end[1] == '\0'));
}

int pn_long(const char *s, long min, long max, long *v)
{
	int64_t n;
	const char *end = pn_i64_prefix(s, &n);

	if (!whole(end))
		return end == NULL && s && (digit(*s) >= 0 || (*s == '-' && digit(s[1]) >= 0))
			       ? -ERANGE : -EINVAL;
	if (n < min || n > max)
		return -ERANGE;
	*v = (long)n;
	return 0;
}

int pn_u64(const char *s, uint64_t *v)
{
	const char *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		end = hex(s + 2, v, 1);
	else
		end = pn_u64_prefix(s, v);
	return whole(end) ? 0 : -EINVAL;
}
