/*
 * pmproxy's answer of values, scanned (pmproxy_values.h).
 */
#include "pmproxy_values.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum member { M_SERIES, M_INSTANCE, M_STAMP, M_VALUE, NMEMBERS, M_OTHER = NMEMBERS };

struct scan {
	const char *p, *end;
	char *buf[NMEMBERS + 1];	/* each member's text, and a key's */
	size_t cap[NMEMBERS + 1];
	bool oom;
};

static void blanks(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

static bool room(struct scan *s, int k, size_t n)
{
	if (n <= s->cap[k])
		return true;
	size_t cap = s->cap[k] ? s->cap[k] : 64;
	char *grown;

	while (cap < n)
		cap *= 2;
	if ((grown = realloc(s->buf[k], cap)) == NULL) {
		s->oom = true;
		return false;
	}
	s->buf[k] = grown;
	s->cap[k] = cap;
	return true;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static size_t utf8(char *o, unsigned cp)
{
	if (cp < 0x80)
		return o[0] = (char)cp, 1;
	if (cp < 0x800)
		return o[0] = (char)(0xc0 | cp >> 6), o[1] = (char)(0x80 | (cp & 0x3f)), 2;
	o[0] = (char)(0xe0 | cp >> 12), o[1] = (char)(0x80 | ((cp >> 6) & 0x3f)), o[2] = (char)(0x80 | (cp & 0x3f));
	return 3;
}

/* The string at s->p (its opening quote) into buf[k] (k < 0: passed
 * over), its escapes taken back: \xHH a byte, \uXXXX in UTF-8.  false
 * where it is not a string, or out of memory. */
static bool string(struct scan *s, int k)
{
	const char *q;
	size_t n = 0;

	/* (a name or a number of pmproxy's has no escape: copied whole) */
	s->p++;
	if ((q = memchr(s->p, '"', (size_t)(s->end - s->p))) != NULL && memchr(s->p, '\\', (size_t)(q - s->p)) == NULL) {
		if (k >= 0) {
			if (!room(s, k, (size_t)(q - s->p) + 1))
				return false;
			memcpy(s->buf[k], s->p, (size_t)(q - s->p));
			s->buf[k][q - s->p] = '\0';
		}
		s->p = q + 1;
		return true;
	}
	for (q = s->p; q < s->end && *q != '"'; ) {
		char c = *q, out[4];
		size_t len = 1;

		if (c != '\\') {
			out[0] = c;
			q++;
		} else if (q + 1 >= s->end) {
			return false;
		} else {
			int a, b;

			switch ((c = q[1])) {
			case 'n': out[0] = '\n'; break;
			case 'r': out[0] = '\r'; break;
			case 't': out[0] = '\t'; break;
			case 'a': out[0] = '\a'; break;
			case 'b': out[0] = '\b'; break;
			case 'f': out[0] = '\f'; break;
			case 'x':
				if (q + 3 >= s->end || (a = hexval(q[2])) < 0 || (b = hexval(q[3])) < 0)
					return false;
				out[0] = (char)(a * 16 + b);
				q += 2;
				break;
			case 'u': {
				unsigned cp = 0;

				if (q + 5 >= s->end)
					return false;
				for (int i = 2; i < 6; i++) {
					if ((a = hexval(q[i])) < 0)
						return false;
					cp = cp * 16 + (unsigned)a;
				}
				len = utf8(out, cp);
				q += 4;
				break;
			}
			default: out[0] = c; break;	/* \" \\ \/ */
			}
			q += 2;
		}
		if (k >= 0) {
			if (!room(s, k, n + len + 1))
				return false;
			memcpy(s->buf[k] + n, out, len);
		}
		n += len;
	}
	if (q >= s->end)
		return false;
	if (k >= 0)
		s->buf[k][n] = '\0';
	s->p = q + 1;
	return true;
}

/* A number or a literal: its text into buf[k] (k < 0: passed over). */
static bool token(struct scan *s, int k)
{
	const char *q = s->p;

	while (q < s->end && ((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'z') || *q == '.' || *q == '-' ||
			      *q == '+' || *q == 'E'))
		q++;
	if (q == s->p)
		return false;
	if (k >= 0) {
		if (!room(s, k, (size_t)(q - s->p) + 1))
			return false;
		memcpy(s->buf[k], s->p, (size_t)(q - s->p));
		s->buf[k][q - s->p] = '\0';
	}
	s->p = q;
	return true;
}

/* Any value, passed over. */
static bool skip(struct scan *s, int depth)
{
	char close;

	blanks(s);
	if (s->p >= s->end)
		return false;
	if (*s->p == '"')
		return string(s, -1);
	if (*s->p != '{' && *s->p != '[')
		return token(s, -1);
	if (depth > 64)
		return false;
	close = *s->p == '{' ? '}' : ']';
	s->p++;
	blanks(s);
	if (s->p < s->end && *s->p == close)
		return s->p++, true;
	for (;;) {
		if (close == '}') {
			blanks(s);
			if (s->p >= s->end || *s->p != '"' || !string(s, -1))
				return false;
			blanks(s);
			if (s->p >= s->end || *s->p++ != ':')
				return false;
		}
		if (!skip(s, depth + 1))
			return false;
		blanks(s);
		if (s->p >= s->end)
			return false;
		if (*s->p == close)
			return s->p++, true;
		if (*s->p++ != ',')
			return false;
	}
}

static enum member member_of(const char *key)
{
	static const char *const names[NMEMBERS] = { "series", "instance", "timestamp", "value" };

	for (int m = 0; m < NMEMBERS; m++)
		if (strcmp(key, names[m]) == 0)
			return (enum member)m;
	return M_OTHER;
}

/* One object's members into v. */
static bool object(struct scan *s, struct pmproxy_value *v)
{
	const char **field[NMEMBERS] = { &v->series, &v->instance, &v->stamp, &v->value };

	memset(v, 0, sizeof *v);
	s->p++;
	blanks(s);
	if (s->p < s->end && *s->p == '}')
		return s->p++, true;
	for (;;) {
		enum member m;

		blanks(s);
		if (s->p >= s->end || *s->p != '"' || !string(s, NMEMBERS))
			return false;
		m = member_of(s->buf[NMEMBERS]);
		blanks(s);
		if (s->p >= s->end || *s->p++ != ':')
			return false;
		blanks(s);
		if (s->p >= s->end)
			return false;
		if (m != M_OTHER && *s->p == '"') {
			if (!string(s, m))
				return false;
			*field[m] = s->buf[m];
		} else if (m == M_STAMP && *s->p != '{' && *s->p != '[') {
			if (!token(s, m))
				return false;
			/* (a literal is no time: as a parser's tree has it) */
			*field[m] = s->buf[m][0] >= 'a' ? NULL : s->buf[m];
		} else {
			if (!skip(s, 0))
				return false;
			if (m != M_OTHER)
				*field[m] = NULL;
		}
		blanks(s);
		if (s->p >= s->end)
			return false;
		if (*s->p == '}')
			return s->p++, true;
		if (*s->p++ != ',')
			return false;
	}
}

int pmproxy_values_scan(const char *body, size_t len, const char *what, pmproxy_value_fn fn, void *arg,
			char *err, size_t errlen)
{
	struct scan s = { .p = body, .end = body + len };
	struct pmproxy_value v;
	int sts = -1;

	blanks(&s);
	if (s.p >= s.end || *s.p++ != '[')
		goto bad;
	blanks(&s);
	if (s.p < s.end && *s.p == ']') {
		s.p++;
	} else {
		for (;;) {
			blanks(&s);
			if (s.p < s.end && *s.p == '{') {
				if (!object(&s, &v))
					goto bad;
				if (fn(arg, &v, err, errlen) < 0)
					goto out;
			} else if (!skip(&s, 0)) {
				goto bad;
			}
			blanks(&s);
			if (s.p >= s.end)
				goto bad;
			if (*s.p == ']') {
				s.p++;
				break;
			}
			if (*s.p++ != ',')
				goto bad;
		}
	}
	blanks(&s);
	if (s.p == s.end) {
		sts = 0;
		goto out;
	}
bad:
	if (s.oom)
		snprintf(err, errlen, "out of memory");
	else
		snprintf(err, errlen, "%s is not a JSON array of values (at byte %zu)", what,
			 (size_t)(s.p - body));
out:
	for (int k = 0; k <= NMEMBERS; k++)
		free(s.buf[k]);
	return sts;
}
