/* smtcpu-model --fit's runs file, NULs and all, and the fit of what parses. */
#include "fuzz.h"
#include "runsfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct runs_file rf;
	struct smt_fit fit;
	char why[256];

	fuzz_quiet();
	if (runs_parse(&rf, "fuzz.runs", (const char *)data, size) == 0) {
		smt_fit_table(rf.runs, rf.nruns, rf.threads, 0, false, &fit, why, sizeof why);
		smt_fit_table(rf.runs, rf.nruns, rf.threads, 0, true, &fit, why, sizeof why);
	}
	return 0;
}
