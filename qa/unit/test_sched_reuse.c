/*
 * The software PURR's process map, on this machine's kernel: a new process
 * under a PID used before replaces the PID's last process once, even where
 * its first switches out come on two CPUs at once.  (Two CPUs that both
 * replaced it would leave one of their slots holding the new process
 * without tasks[] naming it, read on as a second entry and never given
 * back, and could give the last process's slot back twice, to be handed
 * to two processes.)
 *
 * Each round forks a process at the PID the first round's took (the
 * kernel's ns_last_pid set just below it; a round another process beat to
 * the PID is not counted), whose two threads, one on each CPU, spin till
 * both run and then sleep together.  After REUSES processes at the PID
 * (within ROUNDS rounds: on a busy host other processes take it in some),
 * the PID has exactly one entry in the map.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sched_unit.h"
#include "unit.h"

#define REUSES 1500
#define ROUNDS 8000
#define LAST_PID "/proc/sys/kernel/ns_last_pid"

static atomic_int ready, go;

static void nap(void)
{
	struct timespec ts = { 0, 20000L };
	nanosleep(&ts, NULL);
}

static void *second_thread(void *arg)
{
	(void)arg;
	atomic_store(&ready, 1);
	while (!atomic_load(&go))
		;
	nap();
	return NULL;
}

/* The child: its threads' first switches out, on CPU 0 and CPU 1 together. */
static void run_pair(void)
{
	pthread_attr_t attr;
	pthread_t thread;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(1, &one);
	if (pthread_attr_init(&attr) != 0 || pthread_attr_setaffinity_np(&attr, sizeof one, &one) != 0 ||
	    pthread_create(&thread, &attr, second_thread, NULL) != 0)
		_exit(2);
	while (!atomic_load(&ready))
		;
	atomic_store(&go, 1);
	nap();
	pthread_join(thread, NULL);
	_exit(0);
}

/* A child at pid where free (pid 0: any), its PID; -1 on failure. */
static pid_t fork_at(pid_t pid)
{
	pid_t child;

	if (pid > 1) {
		FILE *f = fopen(LAST_PID, "w");

		if (f == NULL)
			return -1;
		fprintf(f, "%d\n", (int)pid - 1);
		if (fclose(f) != 0)
			return -1;
	}
	if ((child = fork()) == 0)
		run_pair();
	return child;
}

struct count {
	uint32_t tgid;
	int entries;
};

static void count_entries(void *arg, uint32_t tgid, const struct sp_task *t)
{
	struct count *c = arg;
	(void)t;
	if (tgid == c->tgid)
		c->entries++;
}

static void reused_pid_has_one_entry(void **state)
{
	struct sched_purr sp;
	int ncpus = (int)sysconf(_SC_NPROCESSORS_CONF), reused = 0, round, status;
	pid_t pid = 0;
	(void)state;

	sched_unit_open(&sp, ncpus, "the threads need CPU 0 and CPU 1");
	if (access(LAST_PID, W_OK) != 0) {
		sched_purr_close(&sp);
		print_message("skipped: %s cannot be written here: no PID can be chosen\n", LAST_PID);
		skip();
	}
	assert_int_equal(sched_unit_pin(0), 0);
	for (round = 0; round < ROUNDS && reused < REUSES; round++) {
		pid_t child = fork_at(pid);

		assert_true(child > 0);
		assert_int_equal(waitpid(child, &status, 0), child);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		if (pid == 0)
			pid = child;
		else if (child == pid)
			reused++;
	}
	struct count c = { (uint32_t)pid, 0 };
	struct sp_task_ref ref = { 0 };
	struct sp_refused refused;
	uint32_t key = (uint32_t)pid;
	uint64_t named = 0;

	assert_true(sched_purr_each_task(&sp, count_entries, &c) >= 0);
	if (bpf_map_lookup_elem(sp.tasks_fd, &key, &ref) == 0 && ref.slot < sp.nslots)
		named = sp.task_slots[ref.slot].tgid;
	assert_int_equal(sched_purr_refused(&sp, SP_MAP_TASKS, &refused), 0);
	sched_purr_close(&sp);
	print_message("%d processes at PID %d (of %d rounds): %d entries for it, the one tasks[] names "
		      "for PID %d; %llu charges refused\n", reused + 1, (int)pid, round, c.entries, (int)named,
		      (unsigned long long)refused.entries);
	/* Premise: the PID was used again REUSES times. */
	assert_true(reused >= REUSES);
	assert_int_equal(c.entries, 1);
	assert_int_equal(named, (uint64_t)pid);
	/* Both threads' first charges were entered: none refused (the map
	 * had room for all this machine's processes). */
	assert_int_equal(refused.entries, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reused_pid_has_one_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
