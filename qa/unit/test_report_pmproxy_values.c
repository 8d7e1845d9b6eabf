/*
 * pmproxy 6.0.3's answer to /series/values scanned in one pass
 * (report/pmproxy_values.c): what a parser's tree of the answer holds, on
 * answers as its series module writes them (a timestamp a bare MS.SEQ,
 * strings in sdscatrepr's C escapes) and on JSON it does not write.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "pmproxy_values.h"

/* Each value as a line: series|instance|stamp|value, "-" for none. */
struct seen {
	char text[4096];
	int n, stop_at;
};

static int take(void *arg, const struct pmproxy_value *v, char *err, size_t errlen)
{
	struct seen *s = arg;
	size_t used = strlen(s->text);

	if (++s->n == s->stop_at) {
		snprintf(err, errlen, "stopped");
		return -1;
	}
	snprintf(s->text + used, sizeof s->text - used, "%s|%s|%s|%s\n", v->series ? v->series : "-",
		 v->instance ? v->instance : "-", v->stamp ? v->stamp : "-", v->value ? v->value : "-");
	return 0;
}

static int scan(const char *body, struct seen *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	err[0] = '\0';
	return pmproxy_values_scan(body, strlen(body), "the answer", take, s, err, errlen);
}

static void scanned(const char *body, const char *want)
{
	struct seen s;
	char err[256];

	assert_int_equal(scan(body, &s, err, sizeof err), 0);
	assert_string_equal(s.text, want);
}

static void rejected(const char *body)
{
	struct seen s;
	char err[256];

	assert_int_equal(scan(body, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "the answer is not a JSON array of values"));
}

/* pmproxy's own: the members in its order, the timestamp a bare number */
static void pmproxys_answer_value_by_value(void **state)
{
	(void)state;
	scanned("[{\"series\":\"a1\",\"timestamp\":1741651320247.36,\"value\":\"7.400000e+06\"},"
		"{\"series\":\"b2\",\"instance\":\"c3\",\"timestamp\":1741651320247,\"value\":\"0.000000e+00\"}]\r\n",
		"a1|-|1741651320247.36|7.400000e+06\n"
		"b2|c3|1741651320247|0.000000e+00\n");
	scanned("[]\r\n", "");
	scanned(" [ ] ", "");
}

/* any order, blanks between, members not of the four passed over however
 * nested; a member of the four not a string is none (a timestamp's number
 * or string is its text) */
static void json_it_does_not_write(void **state)
{
	(void)state;
	scanned("[ { \"value\" : \"1\" , \"x\" : {\"a\":[1,{\"b\":\"]}\"}],\"c\":null} , \"series\" : \"s\" ,"
		" \"timestamp\" : \"5\" } ]",
		"s|-|5|1\n");
	scanned("[{\"series\":7,\"instance\":null,\"timestamp\":null,\"value\":[\"1\"]}]", "-|-|-|-\n");
	scanned("[{}, 3, \"x\", [1, 2], {\"series\":\"s\"}]", "-|-|-|-\n" "s|-|-|-\n");
}

/* C's escapes (\xHH a byte, \a) and JSON's (\uXXXX in UTF-8) taken back */
static void strings_come_back_from_their_escapes(void **state)
{
	(void)state;
	scanned("[{\"series\":\"caf\\xc3\\xa9\\a\\\"q\\\"\\\\\",\"value\":\"\\u00e9\\u0031\\t\\/\"}]",
		"caf\xc3\xa9\a\"q\"\\|-|-|\xc3\xa9" "1\t/\n");
}

static void not_an_array_of_values(void **state)
{
	(void)state;
	rejected("");
	rejected("{\"success\":true}");
	rejected("[{\"series\":\"a\"}");
	rejected("[{\"series\":\"a\"},]");
	rejected("[{\"series\" \"a\"}]");
	rejected("[{\"series\":\"a}]");
	rejected("[{\"series\":\"\\x4\"}]");
	rejected("[{\"series\":\"\\u12\"}]");
	rejected("[] x");
}

/* the first error ends the scan, and is the caller's */
static void a_callers_error_ends_it(void **state)
{
	struct seen s;
	char err[256];
	const char *body = "[{\"series\":\"a\"},{\"series\":\"b\"},{\"series\":\"c\"}]";

	(void)state;
	memset(&s, 0, sizeof s);
	s.stop_at = 2;
	assert_int_equal(pmproxy_values_scan(body, strlen(body), "the answer", take, &s, err, sizeof err), -1);
	assert_string_equal(err, "stopped");
	assert_string_equal(s.text, "a|-|-|-\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pmproxys_answer_value_by_value),
		cmocka_unit_test(json_it_does_not_write),
		cmocka_unit_test(strings_come_back_from_their_escapes),
		cmocka_unit_test(not_an_array_of_values),
		cmocka_unit_test(a_callers_error_ends_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
