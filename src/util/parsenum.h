/*
 * Checked number parsing: every number smtcpu takes from a file or a command
 * line goes through here, so overflow, signs, hex prefixes, "nan" and "inf"
 * are refused in one place.  The pn_*_prefix functions parse a number at the
 * start of s and return where it ends, or NULL when there is none or it does
 * not fit; the others take a whole word (an optional trailing newline
 * allowed) and return 0 or -EINVAL / -ERANGE.
 */
#ifndef SMTCPU_PARSENUM_H
#define SMTCPU_PARSENUM_H

#include <stdint.h>

/* Decimal digits, no sign: "123". */
const char *pn_u64_prefix(const char *s, uint64_t *v);

/* Lowercase hex digits without 0x, at most 16: the kernel's "%llx". */
const char *pn_hex_prefix(const char *s, uint64_t *v);

/* An optional '-' and decimal digits. */
const char *pn_i64_prefix(const char *s, int64_t *v);

/* A plain decimal fraction: digits, optionally '.' and digits.  No sign,
 * exponent, hex, "inf" or "nan".  At most 15 significant digits. */
const char *pn_decimal_prefix(const char *s, double *v);

/* A whole word: decimal in [min, max]. */
int pn_long(const char *s, long min, long max, long *v);

/* A whole word: decimal or 0x-hex, unsigned 64-bit. */
int pn_u64(const char *s, uint64_t *v);

#endif
