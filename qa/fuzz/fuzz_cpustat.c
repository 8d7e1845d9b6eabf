/* /proc/stat: the per-CPU lines, as cpustat_read hands them over. */
#include "cpustat.h"
#include "fuzz.h"
#include "sysroot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cpustat cs;
	static int ready;
	char *text;

	if (!ready) {
		fuzz_quiet();
		sr_set_root("/nonexistent");
		cpustat_open(&cs, 64);	/* the arrays stay though the file is absent */
		ready = 1;
	}
	text = fuzz_text(data, size);
	cpustat_parse(&cs, text);
	for (int cpu = 0; cpu < cs.ncpus; cpu++)
		if (cs.seen[cpu])
			(void)(cpustat_busy(&cs.now[cpu]) + cpustat_window(&cs.now[cpu]));
	free(text);
	return 0;
}
