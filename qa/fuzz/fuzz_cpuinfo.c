/* /proc/cpuinfo, POWER and x86. */
#include "cpuinfo.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cpuinfo info;
	char *text = fuzz_text(data, size);

	cpuinfo_parse(&info, text);
	free(text);
	return 0;
}
