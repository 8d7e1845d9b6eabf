/* The whole sampler on a tree: start-up (configuration, cpuinfo, topology,
 * PURR, lparcfg, AMD PMUs and SMBIOS, counters replayed from an empty
 * trace), a pass, the rest of the input written over the tree, another
 * pass. */
#include "sampler.h"
#include "sysroot.h"
#include "tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sampler s;
	static char conf[PATH_MAX + 32];
	const char *root;

	fuzz_quiet();
	root = tree_reset();
	if (conf[0] == '\0') {
		/* Beside the tree, where no record reaches: counters come from
		 * an empty trace, never from this machine's PMUs. */
		char trace[PATH_MAX + 32];
		FILE *f;

		snprintf(trace, sizeof trace, "%s.trace", root);
		snprintf(conf, sizeof conf, "%s.conf", root);
		if ((f = fopen(trace, "w")) == NULL)
			abort();
		fputs("step\n", f);
		fclose(f);
		if ((f = fopen(conf, "w")) == NULL)
			abort();
		fprintf(f, "replay %s\n", trace);
		fclose(f);
	}
	sr_set_root(root);
	tree_apply(&data, &size);
	sampler_init(&s, sampler_sources, sampler_nsources, conf, 0);
	sampler_pass(&s);
	tree_apply(&data, &size);
	sampler_pass(&s);
	sampler_free(&s);
	sr_set_root(NULL);
	return 0;
}
