/*
 * Writes what PCP reads of the agent's names and help from files, made from
 * the one definition of each metric (its row in its cluster's file in pmda/) and of each
 * instance domain (pmda/indoms.c):
 *
 *   metric-text root   the stand-alone PMNS: the top names, then pmns
 *   metric-text pmns   every name below them, with its PMID (SMTCPU:c:i)
 *   metric-text help   the help text, as newhelp reads it
 *
 * A name given twice, or a row without its help, is an error: nothing is
 * written and the build stops.
 */
#include <stdio.h>
#include <string.h>

#include "shared.h"

#define MAX_NAMES 1024

struct leaf {
	const char *name;
	unsigned cluster, item;
};

static struct leaf leaves[MAX_NAMES];
static int nleaves;

static bool gather(void)
{
	bool ok = true;

	for (unsigned c = 0; c < NUM_CLUSTERS; c++)
		for (int i = 0; i < clusters[c]->nmetrics; i++) {
			const struct metric *m = &clusters[c]->metrics[i];

			for (int k = 0; k < nleaves; k++)
				if (strcmp(leaves[k].name, m->name) == 0) {
					fprintf(stderr, "metric-text: %s is defined twice\n", m->name);
					ok = false;
				}
			if (!m->oneline || !*m->oneline || !m->help || !*m->help) {
				fprintf(stderr, "metric-text: %s has no one-line or no long help\n", m->name);
				ok = false;
			}
			if (nleaves == MAX_NAMES) {
				fprintf(stderr, "metric-text: more than %d metrics\n", MAX_NAMES);
				return false;
			}
			leaves[nleaves++] = (struct leaf){ m->name, c, m->item };
		}
	return ok;
}

/* The length of name's part after prefix (which ends in '.', or is empty)
 * up to the next '.', or 0 when name is not below prefix. */
static size_t child_len(const char *name, const char *prefix)
{
	size_t p = strlen(prefix);

	if (strncmp(name, prefix, p) != 0)
		return 0;
	return strcspn(name + p, ".");
}

/* Whether leaf k is the first below prefix to name child (its next part). */
static bool first_child(int k, const char *prefix)
{
	size_t p = strlen(prefix), n = child_len(leaves[k].name, prefix);

	for (int j = 0; j < k; j++)
		if (child_len(leaves[j].name, prefix) == n &&
		    strncmp(leaves[j].name + p, leaves[k].name + p, n) == 0)
			return false;
	return true;
}

/* Node path's block ("path {" its children "}"), then its subtrees'. */
static void print_node(const char *path)
{
	char prefix[256], child[256];

	snprintf(prefix, sizeof prefix, "%s.", path);
	printf("\n%s {\n", path);
	for (int k = 0; k < nleaves; k++) {
		size_t n = child_len(leaves[k].name, prefix);
		const char *rest = leaves[k].name + strlen(prefix);

		if (n == 0 || !first_child(k, prefix))
			continue;
		if (rest[n] == '\0')
			printf("    %-28s SMTCPU:%u:%u\n", rest, leaves[k].cluster, leaves[k].item);
		else
			printf("    %.*s\n", (int)n, rest);
	}
	printf("}\n");
	for (int k = 0; k < nleaves; k++) {
		size_t n = child_len(leaves[k].name, prefix);
		const char *rest = leaves[k].name + strlen(prefix);

		if (n && rest[n] == '.' && first_child(k, prefix)) {
			snprintf(child, sizeof child, "%s%.*s", prefix, (int)n, rest);
			print_node(child);
		}
	}
}

static void print_pmns(void)
{
	char top[256];

	printf("/*\n * smtcpu PMDA metric names, made from the metrics' rows (pmda/).\n"
	       " * SMTCPU is the domain, from domain.h.\n */\n");
	for (int k = 0; k < nleaves; k++)
		if (first_child(k, "")) {
			snprintf(top, sizeof top, "%.*s", (int)child_len(leaves[k].name, ""), leaves[k].name);
			print_node(top);
		}
}

static void print_root(void)
{
	printf("/*\n * A stand-alone PMNS with only smtcpu's names: for building the help\n"
	       " * text, and private pmcd and local-context tests.\n */\n\n"
	       "#include \"domain.h\"\n\nroot {\n");
	for (int k = 0; k < nleaves; k++)
		if (first_child(k, ""))
			printf("    %.*s\n", (int)child_len(leaves[k].name, ""), leaves[k].name);
	printf("}\n\n#include \"pmns\"\n");
}

static void print_help(void)
{
	printf("#\n# smtcpu PMDA help text, made from the metrics' rows (pmda/) and\n"
	       "# the instance domains' (pmda/indoms.c)\n#\n");
	for (int i = 0; i < NUM_INDOMS; i++)
		printf("@ SMTCPU.%d %s\n%s\n\n", i, indom_docs[i].oneline, indom_docs[i].help);
	for (unsigned c = 0; c < NUM_CLUSTERS; c++)
		for (int i = 0; i < clusters[c]->nmetrics; i++) {
			const struct metric *m = &clusters[c]->metrics[i];
			printf("@ %s %s\n%s\n\n", m->name, m->oneline, m->help);
		}
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "root") && strcmp(argv[1], "pmns") && strcmp(argv[1], "help"))) {
		fprintf(stderr, "usage: metric-text root|pmns|help\n");
		return 2;
	}
	for (int i = 0; i < NUM_INDOMS; i++)
		if (!indom_docs[i].oneline || !indom_docs[i].help) {
			fprintf(stderr, "metric-text: instance domain %d has no help\n", i);
			return 1;
		}
	if (!gather())
		return 1;
	if (strcmp(argv[1], "root") == 0)
		print_root();
	else if (strcmp(argv[1], "pmns") == 0)
		print_pmns();
	else
		print_help();
	return fflush(stdout) == 0 ? 0 : 1;
}
