#include "printable.h"

#include <stdbool.h>

/* The length of the well-formed UTF-8 sequence at s (at most n bytes), or
 * 0: RFC 3629, section 4's table of the bytes each lead allows next. */
static size_t sequence_length(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (c == 0xe0)
		lo = 0xa0;		/* (overlong below) */
	else if (c == 0xed)
		hi = 0x9f;		/* (surrogates above) */
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;		/* (past U+10FFFF above) */
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

size_t printable_copy(char *dst, size_t size, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t in = 0, out = 0;

	if (size == 0)
		return 0;
	while (in < len && s[in] != '\0') {
		size_t n = sequence_length(s + in, len - in);
		/* C0, DEL, and C1 (U+0080 to U+009F, 0xc2 0x80 to 0xc2 0x9f) */
		bool control = n == 1 ? (s[in] < 0x20 || s[in] == 0x7f) : n == 2 && s[in] == 0xc2 && s[in + 1] < 0xa0;

		if (n == 0 || control) {
			if (out + 1 >= size)
				break;
			dst[out++] = '?';
			in += n ? n : 1;
			continue;
		}
		if (out + n >= size)
			break;
		for (size_t i = 0; i < n; i++)	/* (out <= in: dst may be src) */
			dst[out++] = (char)s[in++];
	}
	dst[out] = '\0';
	return out;
}
