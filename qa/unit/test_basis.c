/*
 * Adding a source, as the README shows it: test-only sources, each offering
 * a measured basis, in a table of the test's own that it gives sampler_init
 * as the PMDA gives the shipped one.  For each core the sampler takes the
 * first basis in the table's order that measures every thread, and the model
 * where none does: worked here by hand on a small x86 tree (4 cores of 2
 * threads, cpuN and cpuN+4 siblings, x86-smt2: c(1) = 0.8, c(2) = 0.5).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "unit.h"
#include "log.h"
#include "sampler.h"
#include "source.h"

#define CPUDIR "/sys/devices/system/cpu"

/* A basis that credits each thread FACTOR of its busy time, on the CPUs of
 * its mask, and counts the windows it was told of. */
struct fake_state {
	int marks, counted;
};
struct fake {
	double factor;
	unsigned mask;		/* CPUs it measures */
};

static bool fake_measure(const struct fake *f, const int *cpus, int n,
			 const struct basis_thread *w, double *ms)
{
	for (int i = 0; i < n; i++) {
		if (!(f->mask & (1u << cpus[i])))
			return false;
		ms[i] = f->factor * w[i].busy_ms;
	}
	return true;
}

static struct fake half = { 0.5, 0x0f }, most = { 0.9, 0x33 };

static bool half_measure(void *st, const int *cpus, int n, const struct basis_thread *w,
			 double *ms)
{
	(void)st;
	return fake_measure(&half, cpus, n, w, ms);
}
static bool most_measure(void *st, const int *cpus, int n, const struct basis_thread *w,
			 double *ms)
{
	(void)st;
	return fake_measure(&most, cpus, n, w, ms);
}
static void fake_counted(void *st, const int *cpus, int n, const struct basis_thread *w)
{
	(void)cpus; (void)n; (void)w;
	((struct fake_state *)st)->counted++;
}
static void fake_mark(void *st, const int *cpus, int n)
{
	(void)cpus; (void)n;
	((struct fake_state *)st)->marks++;
}
/* A source's status, set through its context as any source sets its own. */
static int fake_init(const struct source_ctx *ctx, void *st)
{
	(void)st;
	source_set_status(ctx, 0, "ok");
	return 0;
}
static void fake_read(const struct source_ctx *ctx, void *st, bool changed)
{
	(void)ctx; (void)st; (void)changed;
}
static void fake_free(const struct source_ctx *ctx, void *st) { (void)ctx; (void)st; }

static const struct source_basis half_basis = {
	.name = "half", .measure = half_measure, .counted = fake_counted, .mark = fake_mark,
};
static const struct source_basis most_basis = {
	.name = "most", .measure = most_measure, .counted = fake_counted, .mark = fake_mark,
};
static const char *const half_status[] = { "half" }, *const most_status[] = { "most" };
static const struct sampler_source half_source = {
	.name = "half", .status_names = half_status, .nstatus = 1,
	.state_size = sizeof(struct fake_state), .init = fake_init, .read = fake_read,
	.free = fake_free, .basis = &half_basis,
};
static const struct sampler_source most_source = {
	.name = "most", .status_names = most_status, .nstatus = 1,
	.state_size = sizeof(struct fake_state), .init = fake_init, .read = fake_read,
	.free = fake_free, .basis = &most_basis,
};

/* A sampler of two sources, in this order, on a configuration that is not
 * there. */
static int init_with(struct sampler *s, const struct sampler_source *first,
		     const struct sampler_source *second)
{
	const struct sampler_source *const table[] = { first, second };

	return sampler_init(s, table, 2, "/nonexistent/smtcpu.conf", 1);
}

static uint64_t user[8], idle[8];

static void write_stat(void)
{
	char text[2048];
	size_t used = (size_t)snprintf(text, sizeof text, "cpu  0 0 0 0 0 0 0 0 0 0\n");
	for (int c = 0; c < 8; c++)
		used += (size_t)snprintf(text + used, sizeof text - used,
			"cpu%d %llu 0 0 %llu 0 0 0 0 0 0\n", c,
			(unsigned long long)user[c], (unsigned long long)idle[c]);
	fixture_write("/proc/stat", "%s", text);
}

static void quiet(enum smt_log_level level, const char *message)
{
	(void)level;
	(void)message;
}

static int make_machine(void **state)
{
	(void)state;
	fixture_new("basis");
	fixture_cpus(8);
	for (int c = 0; c < 8; c++) {
		char siblings[16];
		snprintf(siblings, sizeof siblings, "%d,%d", c % 4, c % 4 + 4);
		fixture_cpu_topology(c, siblings, 0);
		user[c] = 1000;
		idle[c] = 9000;
	}
	fixture_epyc_cpuinfo();
	write_stat();
	sr_set_root(fixture_root);
	smt_log_set_sink(quiet);
	return 0;
}

/* Two passes around one window of 100 ticks (1000 ms at USER_HZ 100): every
 * CPU busy 60 ticks. */
static void one_window(struct sampler *s)
{
	sampler_pass(s);
	for (int c = 0; c < 8; c++) {
		user[c] += 60;
		idle[c] += 40;
	}
	write_stat();
	sampler_pass(s);
}

static double ms_per_tick(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	return 1000.0 / (double)(hz > 0 ? hz : 100);
}

/* half first: cores 0-3 all have both threads in half's mask (0x0f holds
 * cpu0-3 but not their siblings cpu4-7), so no core is half's; most's mask
 * (cpu0,1,4,5) holds cores 0 and 1 whole: most for those, the model for
 * cores 2 and 3. */
static void first_basis_that_measures_the_core(void **state)
{
	struct sampler s;
	double busy = 60 * ms_per_tick();
	(void)state;

	assert_int_equal(init_with(&s, &half_source, &most_source), 0);
	assert_string_equal(sampler_status(&s, "half"), "ok");
	one_window(&s);
	for (int cpu = 0; cpu < 8; cpu++) {
		int measured = cpu % 4 < 2;
		assert_string_equal(s.cpu[cpu].basis, measured ? "most" : "model");
		/* the model: both threads busy 0.6, independent:
		 * 0.6 x (0.4 x 0.8 + 0.6 x 0.5) = 0.372 of the window */
		assert_float_equal(s.cpu[cpu].throughput, measured ? 0.9 * busy : 0.372 * 100 *
				   ms_per_tick(), 1e-6);
	}
	assert_string_equal(s.core[0].basis, "most");
	assert_string_equal(s.core[2].basis, "model");
	assert_true(s.core[0].have_error && !s.core[2].have_error);
	sampler_free(&s);
}

/* A basis that measures every core, placed first, is every core's; the
 * one after it only sees its windows counted (counted and mark called for
 * every basis, whichever is taken). */
static void table_order_decides(void **state)
{
	static const struct fake all = { 0.7, 0xff };
	struct sampler s;
	(void)state;

	/* half's mask widened to every CPU for this case */
	struct fake saved = half;
	half = all;
	assert_int_equal(init_with(&s, &half_source, &most_source), 0);
	one_window(&s);
	for (int cpu = 0; cpu < 8; cpu++) {
		assert_string_equal(s.cpu[cpu].basis, "half");
		assert_float_equal(s.cpu[cpu].throughput, 0.7 * 60 * ms_per_tick(), 1e-6);
	}
	/* 4 cores' windows counted for both sources; marked at the first pass
	 * (a new window) and after the counted one */
	assert_int_equal(((struct fake_state *)s.state[0])->counted, 4);
	assert_int_equal(((struct fake_state *)s.state[1])->counted, 4);
	assert_int_equal(((struct fake_state *)s.state[1])->marks, 8);
	sampler_free(&s);

	assert_int_equal(init_with(&s, &most_source, &half_source), 0);
	one_window(&s);
	assert_string_equal(s.cpu[0].basis, "most");	/* most's cores */
	assert_string_equal(s.cpu[2].basis, "half");	/* the rest: half, after it */
	sampler_free(&s);
	half = saved;
}

/* A basis that may not measure (its .active says so) is asked nothing per
 * core; once it may, every core's window starts again (its marks were not
 * kept meanwhile), and the window after that is its. */
static bool half_on;
static bool half_active(const void *st)
{
	(void)st;
	return half_on;
}

static void inactive_basis_is_not_asked(void **state)
{
	struct fake saved = half;
	struct sampler_source late = half_source;
	struct source_basis late_basis = half_basis;
	struct sampler s;
	double before;
	(void)state;

	half = (struct fake){ 0.7, 0xff };
	late_basis.active = half_active;
	late.basis = &late_basis;
	half_on = false;
	assert_int_equal(init_with(&s, &late, &most_source), 0);
	one_window(&s);
	assert_int_equal(((struct fake_state *)s.state[0])->marks, 0);
	assert_int_equal(((struct fake_state *)s.state[0])->counted, 0);
	assert_string_equal(s.cpu[2].basis, "model");		/* most holds cores 0, 1 */
	before = s.cpu[2].throughput;
	half_on = true;
	for (int c = 0; c < 8; c++) {	/* a window that would be counted... */
		user[c] += 60;
		idle[c] += 40;
	}
	write_stat();
	sampler_pass(&s);	/* ...but the pass it turns on starts every core again */
	assert_float_equal(s.cpu[2].throughput, before, 1e-9);
	assert_int_equal(((struct fake_state *)s.state[0])->counted, 0);
	assert_int_equal(((struct fake_state *)s.state[0])->marks, 4);
	one_window(&s);
	assert_string_equal(s.cpu[2].basis, "half");
	assert_float_equal(s.cpu[2].throughput, before + 0.7 * 60 * ms_per_tick(), 1e-6);
	sampler_free(&s);
	half = saved;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(first_basis_that_measures_the_core, make_machine,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(table_order_decides, make_machine, fixture_teardown),
		cmocka_unit_test_setup_teardown(inactive_basis_is_not_asked, make_machine,
						fixture_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
