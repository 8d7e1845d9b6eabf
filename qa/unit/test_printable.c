/*
 * Names from the machine made printable (src/util/printable.c), and how
 * /proc hides processes (src/machine/procmount.c): each answer worked out
 * by hand from RFC 3629's table and the kernel's mountinfo lines.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "printable.h"
#include "procmount.h"
#include "unit.h"

static void expect(const char *in, size_t size, const char *want)
{
	char out[512];

	assert_true(size <= sizeof out);
	assert_int_equal(printable_copy(out, size, in, strlen(in)), strlen(want));
	assert_string_equal(out, want);
}

static void control_characters(void **state)
{
	(void)state;
	expect("a\x1b[31mb", 64, "a?[31mb");		/* ESC: a colour */
	expect("line\nnext\r", 64, "line?next?");
	expect("tab\there", 64, "tab?here");
	expect("del\x7f", 64, "del?");
	expect("csi\xc2\x9b" "2J", 64, "csi?2J");	/* C1 CSI, U+009B, as UTF-8 */
	expect("nbsp\xc2\xa0" "ok", 64, "nbsp\xc2\xa0" "ok");	/* U+00A0 is printable */
}

static void utf8_kept_and_invalid_replaced(void **state)
{
	(void)state;
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 64, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect("\x80x", 64, "?x");			/* a continuation alone */
	expect("\xc0\xaf", 64, "??");			/* overlong '/' */
	expect("\xe0\x80\xaf", 64, "???");		/* overlong, three bytes */
	expect("\xed\xa0\x80", 64, "???");		/* a surrogate, U+D800 */
	expect("\xf4\x90\x80\x80", 64, "????");		/* past U+10FFFF */
	expect("\xf5\x80", 64, "??");			/* no such lead */
	expect("end\xe2\x82", 64, "end??");		/* cut short */
	expect("\xff\xfe", 64, "??");
}

static void over_long_names(void **state)
{
	char in[301], out[128];

	(void)state;
	memset(in, 'x', 300);
	in[300] = '\0';
	assert_int_equal(printable_copy(out, sizeof out, in, sizeof in), 127);
	assert_int_equal(strlen(out), 127);
	expect("ab\xe2\x82\xac", 4, "ab");		/* the euro sign would not fit whole */
	expect("ab\xe2\x82\xac", 6, "ab\xe2\x82\xac");
	expect("abc", 1, "");
	assert_int_equal(printable_copy(out, 0, "abc", 3), 0);
	/* len bounds the source: no NUL needed */
	assert_int_equal(printable_copy(out, sizeof out, "abcdef", 3), 3);
	assert_string_equal(out, "abc");
}

static void in_place(void **state)
{
	char name[32] = "0042 (x\xc2\x9b\x1b" "y)";

	(void)state;
	printable_copy(name, sizeof name, name, sizeof name);
	assert_string_equal(name, "0042 (x??y)");
}

static void proc_mount_options(void **state)
{
	struct proc_mount m;

	(void)state;
	assert_true(proc_mount_parse("22 27 0:21 / /proc rw,relatime - proc proc rw\n"
				     "23 22 0:22 / /proc/sys/fs/binfmt_misc rw - binfmt_misc x rw\n", &m));
	assert_int_equal(m.hidepid, HIDEPID_OFF);
	assert_false(m.has_gid);
	/* a mount over the first: the last at /proc counts */
	assert_true(proc_mount_parse("22 27 0:21 / /proc rw,relatime - proc proc rw\n"
				     "67 47 0:40 / /proc rw,relatime - proc proc rw,gid=27,hidepid=invisible\n", &m));
	assert_int_equal(m.hidepid, HIDEPID_INVISIBLE);
	assert_true(m.has_gid);
	assert_int_equal(m.gid, 27);
	/* before 5.8 the kernel printed numbers */
	assert_true(proc_mount_parse("22 27 0:21 / /proc rw - proc proc rw,hidepid=1", &m));
	assert_int_equal(m.hidepid, HIDEPID_NOACCESS);
	assert_true(proc_mount_parse("22 27 0:21 / /proc rw - proc proc rw,hidepid=ptraceable", &m));
	assert_int_equal(m.hidepid, HIDEPID_PTRACEABLE);
	/* none at /proc, and text that is not mountinfo */
	assert_false(proc_mount_parse("23 22 0:22 / /sys rw - sysfs sysfs rw\n", &m));
	assert_int_equal(m.hidepid, HIDEPID_OFF);
	assert_false(proc_mount_parse("/proc - proc hidepid=2", &m));
	assert_false(proc_mount_parse("", &m));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(control_characters),
		cmocka_unit_test(utf8_kept_and_invalid_replaced),
		cmocka_unit_test(over_long_names),
		cmocka_unit_test(in_place),
		cmocka_unit_test(proc_mount_options),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
