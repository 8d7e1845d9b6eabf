/* A PURR file's hex, and the share-out by mode with counts from the input. */
#include <math.h>

#include "fuzz.h"
#include "purr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double stat[PMODE_COUNT], out[PMODE_COUNT];
	char *text = fuzz_text(data, size);
	uint64_t v, u[PMODE_COUNT + 2];

	purr_parse_hex(text, &v);
	free(text);
	/* Tick counts as the sampler takes them: whole 32-bit deltas. */
	if (size >= sizeof u) {
		memcpy(u, data, sizeof u);
		for (int m = 0; m < PMODE_COUNT; m++)
			stat[m] = (double)(uint32_t)u[m];
		purr_split((double)(uint32_t)u[PMODE_COUNT],
			   u[PMODE_COUNT + 1] & 1 ? -1 : (double)(uint32_t)(u[PMODE_COUNT + 1] >> 1),
			   stat, out);
	}
	return 0;
}
