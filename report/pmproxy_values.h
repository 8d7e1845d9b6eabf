/*
 * pmproxy 6.0.3's answer to /series/values, read in one pass: a JSON array
 * of flat objects, one a value (its series.c, on_pmseries_value):
 *   {"series":ID,"instance":ID,"timestamp":MS.SEQ,"value":"%e"}
 * A page of them is megabytes; a parser's tree of it (jansson, after
 * pmproxy_json_fixup) costs several times this scan, which is the reader's
 * own time over a fleet.  Strings come back from C's escapes (sdscatrepr)
 * and JSON's; a timestamp is its text, MS.SEQ (pmproxy_stamp reads it).
 */
#ifndef SMTCPU_PMPROXY_VALUES_H
#define SMTCPU_PMPROXY_VALUES_H

#include <stddef.h>

struct pmproxy_value {
	const char *series;	/* NULL where absent or not a string */
	const char *instance;
	const char *stamp;	/* a number's text, or a string's */
	const char *value;
};

/* 0, or -1 with err set. */
typedef int (*pmproxy_value_fn)(void *arg, const struct pmproxy_value *v, char *err, size_t errlen);

/* Each object of the array body (len bytes) to fn, in order; a member not
 * of the four, or an element not an object, passed over.  0, or -1 with err
 * set: fn's, or body not such an array (what names it says so). */
int pmproxy_values_scan(const char *body, size_t len, const char *what, pmproxy_value_fn fn, void *arg,
			char *err, size_t errlen);

#endif
