/* pmproxy's answers as pcp-smtcpu reads them (report/pmproxy_json.c and
 * report/pmproxy_values.c): the fix-up before a JSON parser, a timestamp's
 * text, a parsed name made printable, and the one-pass scan of
 * /series/values.  Whatever the bytes: the fix-up ends where its length
 * says (no NUL before it but the body's own); a name fits its buffer and
 * prints; every member the scan passes is a string within the input's
 * size; a timestamp read is not before the epoch. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "pmproxy_json.h"
#include "pmproxy_values.h"

struct seen {
	size_t size, objects;
};

static void check_member(const char *s, size_t size)
{
	if (s != NULL && strlen(s) > size)
		abort();
}

static int each_value(void *arg, const struct pmproxy_value *v, char *err, size_t errlen)
{
	struct seen *seen = arg;
	int64_t us;

	(void)err;
	(void)errlen;
	check_member(v->series, seen->size);
	check_member(v->instance, seen->size);
	check_member(v->value, seen->size);
	if (v->stamp != NULL) {
		check_member(v->stamp, seen->size);
		if (pmproxy_stamp(v->stamp, &us) == 0 && us < 0)
			abort();
	}
	/* (an object is two bytes at least) */
	if (++seen->objects > seen->size / 2)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), name[64], err[128];
	struct seen seen = { size, 0 };
	size_t outlen = 0;
	char *fixed = pmproxy_json_fixup(text, size, &outlen);
	int64_t us;

	/* (a NUL in the body passes through, as the parser then sees it) */
	if (fixed != NULL) {
		if (fixed[outlen] != '\0' || strlen(fixed) > outlen ||
		    (memchr(text, '\0', size) == NULL && strlen(fixed) != outlen))
			abort();
		free(fixed);
	}
	if (pmproxy_stamp(text, &us) == 0 && us < 0)
		abort();
	pmproxy_name(name, sizeof name, text);
	if (strlen(name) >= sizeof name)
		abort();
	for (const char *p = name; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
	err[0] = '\0';
	if (pmproxy_values_scan(text, size, "fuzz", each_value, &seen, err, sizeof err) < 0 && err[0] == '\0')
		abort();
	free(text);
	return 0;
}
