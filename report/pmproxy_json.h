/*
 * What pmproxy 6.0.3's REST answers need before and after a JSON parser
 * reads them.  Its series module writes instance names and messages with
 * sdscatrepr, a C string's escapes, of which \xHH and \a are not JSON's;
 * and a value's timestamp as a bare number MS.SEQ, the key-value store's
 * stream ID (milliseconds, then the microseconds beyond them, not
 * zero-padded: 1741651320247.36 is 247 ms and 36 us), which a parser
 * reading numbers as doubles would take for a decimal fraction.
 */
#ifndef SMTCPU_PMPROXY_JSON_H
#define SMTCPU_PMPROXY_JSON_H

#include <stddef.h>
#include <stdint.h>

/* body (len bytes) as JSON a parser can take: \xHH and \a within strings
 * as \u escapes (bytes 0x80-0xff as U+F780-U+F7FF, which pmproxy_name
 * takes back to bytes), and every "timestamp" member's number quoted.
 * Returns a string to free, its length in *outlen, or NULL out of memory. */
char *pmproxy_json_fixup(const char *body, size_t len, size_t *outlen);

/* A timestamp pmproxy_json_fixup quoted ("MS" or "MS.SEQ", SEQ below 1000)
 * as microseconds since the epoch: 0, or -1 if it is not one. */
int pmproxy_stamp(const char *s, int64_t *us);

/* A parsed name as the bytes pmproxy was given, made printable
 * (printable_copy) into dst (size bytes). */
void pmproxy_name(char *dst, size_t size, const char *parsed);

#endif
