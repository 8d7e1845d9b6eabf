/* The SMBIOS table: memory devices, their strings and speeds. */
#include "dmi.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *table = malloc(size ? size : 1);	/* exactly the table: over-reads show */
	struct dmi_memory m;

	memcpy(table, data, size);
	dmi_memory_parse(table, (long)size, &m);
	free(table);
	return 0;
}
