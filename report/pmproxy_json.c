/*
 * pmproxy's JSON made JSON, and what it says taken back (pmproxy_json.h).
 */
#include "pmproxy_json.h"
#include "printable.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Bytes 0x80-0xff of an \xHH escape travel as these code points (the
 * Private Use Area, which no name of the PMDA's holds): \u00HH would be
 * the character U+00HH, not the byte. */
#define BYTE_BASE 0xf700

static int hex(int c)
{
	return isdigit(c) ? c - '0' : tolower(c) - 'a' + 10;
}

static bool is_number_char(int c)
{
	return isdigit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
}

char *pmproxy_json_fixup(const char *body, size_t len, size_t *outlen)
{
	/* \a grows from 2 bytes to 6 (\u0007), \xHH from 4 to 6, a quoted
	 * number by 2 after a key of 11: never three times the length */
	char *out = malloc(3 * len + 16), *o;
	const char *key = NULL;		/* where the last string began in out */
	bool in_string = false;
	int after_stamp = 0;		/* 1: "timestamp" just closed, 2: and its ':' */

	if (out == NULL)
		return NULL;
	o = out;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)body[i];

		if (in_string) {
			if (c == '\\' && i + 1 < len) {
				char n = body[i + 1];

				if (n == 'x' && i + 3 < len && isxdigit((unsigned char)body[i + 2]) &&
				    isxdigit((unsigned char)body[i + 3])) {
					int v = hex((unsigned char)body[i + 2]) * 16 + hex((unsigned char)body[i + 3]);
					static const char digits[] = "0123456789abcdef";
					int cp = v >= 0x80 ? BYTE_BASE + v : v;

					*o++ = '\\', *o++ = 'u';
					*o++ = digits[(cp >> 12) & 15], *o++ = digits[(cp >> 8) & 15];
					*o++ = digits[(cp >> 4) & 15], *o++ = digits[cp & 15];
					i += 3;
				} else if (n == 'a') {
					memcpy(o, "\\u0007", 6);
					o += 6;
					i++;
				} else {
					*o++ = (char)c, *o++ = n;
					i++;
				}
				continue;
			}
			if (c == '"') {
				in_string = false;
				after_stamp = (size_t)(o - key) == 9 && memcmp(key, "timestamp", 9) == 0;
			}
			*o++ = (char)c;
			continue;
		}
		if (c == '"') {
			in_string = true;
			after_stamp = 0;
			*o++ = (char)c;
			key = o;
			continue;
		}
		if (after_stamp == 1 && c == ':') {
			after_stamp = 2;
			*o++ = (char)c;
			continue;
		}
		if (after_stamp == 2 && is_number_char(c)) {
			*o++ = '"';
			while (i < len && is_number_char((unsigned char)body[i]))
				*o++ = body[i++];
			*o++ = '"';
			i--;
			after_stamp = 0;
			continue;
		}
		if (!isspace(c))
			after_stamp = 0;
		*o++ = (char)c;
	}
	*o = '\0';
	*outlen = (size_t)(o - out);
	return out;
}

int pmproxy_stamp(const char *s, int64_t *us)
{
	int64_t ms = 0, seq = 0;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++) {
		if (++digits > 16)	/* past the year 318857 */
			return -1;
		ms = ms * 10 + (*s - '0');
	}
	if (digits == 0)
		return -1;
	if (*s == '.') {
		digits = 0;
		for (s++; isdigit((unsigned char)*s); s++) {
			if (++digits > 3)
				return -1;
			seq = seq * 10 + (*s - '0');
		}
		if (digits == 0)
			return -1;
	}
	if (*s != '\0')
		return -1;
	*us = ms * 1000 + seq;
	return 0;
}

void pmproxy_name(char *dst, size_t size, const char *parsed)
{
	size_t len = strlen(parsed), n = 0;
	char *bytes = malloc(len + 1);
	const unsigned char *p = (const unsigned char *)parsed;

	if (bytes == NULL) {
		printable_copy(dst, size, parsed, len);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		/* U+F780 to U+F7FF in UTF-8: ef 9e 80 to ef 9f bf */
		if (p[i] == 0xef && i + 2 < len && (p[i + 1] == 0x9e || p[i + 1] == 0x9f) &&
		    (p[i + 2] & 0xc0) == 0x80) {
			int cp = 0xf000 | (p[i + 1] & 0x3f) << 6 | (p[i + 2] & 0x3f);

			bytes[n++] = (char)(cp - BYTE_BASE);
			i += 2;
		} else
			bytes[n++] = (char)p[i];
	}
	printable_copy(dst, size, bytes, n);
	free(bytes);
}
