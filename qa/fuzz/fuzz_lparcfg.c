/* /proc/powerpc/lparcfg, as lparcfg_read hands it over. */
#include "fuzz.h"
#include "lparcfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lparcfg l;
	char *text = fuzz_text(data, size);

	fuzz_quiet();
	memset(&l, 0, sizeof l);
	l.fd = -1;
	lparcfg_parse(&l, text);
	free(text);
	return 0;
}
