/* The configuration file, NULs and all. */
#include "config.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct smt_config cfg;

	fuzz_quiet();
	config_parse(&cfg, "fuzz.conf", (const char *)data, size);
	if (cfg.model[0])
		config_find_table(&cfg, cfg.model);
	return 0;
}
