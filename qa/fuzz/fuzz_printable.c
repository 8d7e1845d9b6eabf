/* Names made printable, and /proc's mount options from mountinfo text:
 * the output is never longer than the input and holds no control byte. */
#include <stdbool.h>
#include <string.h>

#include "fuzz.h"
#include "printable.h"
#include "procmount.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char out[129];
	char *text = fuzz_text(data, size);
	struct proc_mount m;
	size_t n = printable_copy(out, sizeof out, (const char *)data, size);

	if (n >= sizeof out || strlen(out) != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			abort();
	proc_mount_parse(text, &m);
	free(text);
	return 0;
}
