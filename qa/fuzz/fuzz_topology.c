/* CPUs, cores, sockets and L3 domains from a sysfs tree, then a refresh
 * after the rest of the input is written over it. */
#include "sysroot.h"
#include "topology.h"
#include "tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topology t;

	fuzz_quiet();
	sr_set_root(tree_reset());
	tree_apply(&data, &size);
	if (topology_init(&t) == 0) {
		tree_apply(&data, &size);
		topology_refresh(&t);
	}
	topology_free(&t);
	sr_set_root(NULL);
	return 0;
}
