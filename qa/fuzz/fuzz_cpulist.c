/* The kernel's CPU lists (online, possible, sibling and cache lists) and
 * masks (thread_siblings on older kernels). */
#include "cpulist.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char set[4096];
	int cpus[9];
	char *text = fuzz_text(data, size);

	cpulist_parse(text, set, (int)sizeof set);
	cpulist_span(text);
	cpulist_first(text);
	cpulist_collect(text, cpus, 8);
	cpumask_collect(text, cpus, 8);
	free(text);
	return 0;
}
