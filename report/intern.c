/*
 * The name table: open addressing on FNV-1a, grown at half full.
 */
#include "intern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int grow(struct intern *t)
{
	int nslots = t->nslots ? 2 * t->nslots : 64;
	int *slots = calloc((size_t)nslots, sizeof *slots);

	if (slots == NULL)
		return -1;
	for (int i = 0; i < t->n; i++) {
		uint32_t k = hash(t->names[i]) & (uint32_t)(nslots - 1);

		while (slots[k])
			k = (k + 1) & (uint32_t)(nslots - 1);
		slots[k] = i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return 0;
}

int intern(struct intern *t, const char *name)
{
	uint32_t k;

	if (2 * (t->n + 1) > t->nslots && grow(t) < 0)
		return -1;
	for (k = hash(name) & (uint32_t)(t->nslots - 1); t->slots[k]; k = (k + 1) & (uint32_t)(t->nslots - 1))
		if (strcmp(t->names[t->slots[k] - 1], name) == 0)
			return t->slots[k] - 1;
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;
		char **names = realloc(t->names, (size_t)cap * sizeof *names);

		if (names == NULL)
			return -1;
		t->names = names;
		t->cap = cap;
	}
	if ((t->names[t->n] = strdup(name)) == NULL)
		return -1;
	t->slots[k] = ++t->n;
	return t->n - 1;
}

int intern_find(const struct intern *t, const char *name)
{
	if (t->n == 0)
		return -1;
	for (uint32_t k = hash(name) & (uint32_t)(t->nslots - 1); t->slots[k]; k = (k + 1) & (uint32_t)(t->nslots - 1))
		if (strcmp(t->names[t->slots[k] - 1], name) == 0)
			return t->slots[k] - 1;
	return -1;
}

void intern_free(struct intern *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->slots);
	memset(t, 0, sizeof *t);
}
