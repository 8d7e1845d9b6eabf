/* A perf PMU format string ("config:0-7,32-35"), then a value encoded into
 * it: the input is the string, a NUL, and the value's 8 bytes. */
#include "fuzz.h"
#include "pmuformat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmu_field f;
	uint64_t config[3] = { 0, 0, 0 }, value = 0;
	char *text = fuzz_text(data, size);
	size_t n = strlen(text);

	if (size >= n + 1 + sizeof value)
		memcpy(&value, data + n + 1, sizeof value);
	if (pmu_field_parse(text, &f) == 0)
		pmu_field_encode(&f, value, &config[f.config]);
	free(text);
	return 0;
}
