/*
 * pmproxy 6.0.3's answers made JSON (report/pmproxy_json.c), on answers
 * as its series module writes them: a value's timestamp a bare MS.SEQ,
 * names in sdscatrepr's C escapes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmproxy_json.h"

static void fixed(const char *in, const char *want)
{
	size_t len;
	char *out = pmproxy_json_fixup(in, strlen(in), &len);

	assert_non_null(out);
	assert_string_equal(out, want);
	assert_int_equal(len, strlen(want));
	free(out);
}

/* 1741651320247.36 is 247 ms and 36 us: quoted, read as the stream ID it is */
static void timestamps_are_quoted_and_read_as_stream_ids(void **state)
{
	int64_t us;
	(void)state;

	fixed("[{\"series\":\"ab\",\"timestamp\":1741651320247.36,\"value\":\"7.4e+06\"}]",
	      "[{\"series\":\"ab\",\"timestamp\":\"1741651320247.36\",\"value\":\"7.4e+06\"}]");
	fixed("{\"timestamp\": 5, \"t\":\"timestamp\", \"x\":7}", "{\"timestamp\": \"5\", \"t\":\"timestamp\", \"x\":7}");
	assert_int_equal(pmproxy_stamp("1741651320247.36", &us), 0);
	assert_true(us == 1741651320247036LL);
	assert_int_equal(pmproxy_stamp("1741651260123.580", &us), 0);
	assert_true(us == 1741651260123580LL);
	assert_int_equal(pmproxy_stamp("1741579200000", &us), 0);
	assert_true(us == 1741579200000000LL);
	assert_int_equal(pmproxy_stamp("17416.1234", &us), -1);	/* above 999 us */
	assert_int_equal(pmproxy_stamp("-1", &us), -1);
	assert_int_equal(pmproxy_stamp("1.5e3", &us), -1);
	assert_int_equal(pmproxy_stamp("", &us), -1);
}

/* \xHH and \a are C's, not JSON's; bytes above 0x7f come back as bytes,
 * and the name is made printable (the escape character a '?') */
static void names_come_back_as_their_bytes(void **state)
{
	char name[64];
	(void)state;

	fixed("[\"caf\\xc3\\xa9\\x1b\\a\\\"q\\\"\"]", "[\"caf\\uf7c3\\uf7a9\\u001b\\u0007\\\"q\\\"\"]");
	/* what a JSON parser makes of \uf7c3\uf7a9: U+F7C3 U+F7A9 in UTF-8 */
	pmproxy_name(name, sizeof name, "caf\xef\x9f\x83\xef\x9e\xa9\x1b!");
	assert_string_equal(name, "caf\xc3\xa9?!");
	pmproxy_name(name, sizeof name, "web.service");
	assert_string_equal(name, "web.service");
	pmproxy_name(name, 6, "0123456789");
	assert_string_equal(name, "01234");
}

/* A string of nothing but \a is the fix-up's largest growth: 2 bytes to 6,
 * each (a heap overflow when the output was sized for \xHH's 4 to 6; the
 * fuzz harness qa/fuzz/fuzz_pmproxy.c found it). */
static void bells_grow_threefold(void **state)
{
	char in[2 + 2 * 200 + 3], want[2 + 6 * 200 + 3];
	char *i = in, *w = want;
	(void)state;

	*i++ = '[', *i++ = '"', *w++ = '[', *w++ = '"';
	for (int k = 0; k < 200; k++) {
		memcpy(i, "\\a", 2), i += 2;
		memcpy(w, "\\u0007", 6), w += 6;
	}
	memcpy(i, "\"]", 3);
	memcpy(w, "\"]", 3);
	fixed(in, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(timestamps_are_quoted_and_read_as_stream_ids),
		cmocka_unit_test(names_come_back_as_their_bytes),
		cmocka_unit_test(bells_grow_threefold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
