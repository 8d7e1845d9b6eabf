/* A counter trace, read from a memfd as from a file; then every group it
 * declares opened, read over every step and closed, as the sampler would. */
#include <sys/mman.h>
#include <stdio.h>
#include <unistd.h>

#include "counters.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], why[256];
	struct ctr_backend *b;
	int fd = memfd_create("trace", 0);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	b = ctr_replay_new(path, 8, why, sizeof why);
	close(fd);
	if (b == NULL)
		return 0;
	/* Events of the first declared group: the parser's own words. */
	for (int type = 0; type < 16; type++)
		for (int cpu = 0; cpu < 4; cpu++) {
			struct ctr_event ev = { (uint32_t)type, { 1, 0, 0 } };
			struct ctr_reading r;
			int h = b->ops->open_group(b, cpu, &ev, 1);

			if (h < 0)
				continue;
			for (int step = 0; step < 4; step++) {
				b->ops->read_group(b, h, &r);
				b->ops->begin_pass(b);
			}
			b->ops->close_group(b, h);
		}
	ctr_replay_ended(b);
	b->ops->destroy(b);
	return 0;
}
