#include "sched_table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static unsigned hash(uint64_t key, int icap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (unsigned)key & (unsigned)(icap - 1);
}

void sched_table_free(struct sched_table *t)
{
	free(t->e);
	free(t->free);
	free(t->index);
	memset(t, 0, sizeof *t);
}

int sched_table_find(const struct sched_table *t, uint64_t key)
{
	if (t->icap == 0)
		return -1;
	for (unsigned h = hash(key, t->icap);; h = (h + 1) & (unsigned)(t->icap - 1)) {
		int slot = t->index[h] - 1;
		if (slot < 0)
			return -1;
		if (t->e[slot].key == key)
			return slot;
	}
}

static void index_insert(struct sched_table *t, int slot)
{
	unsigned h = hash(t->e[slot].key, t->icap);

	while (t->index[h])
		h = (h + 1) & (unsigned)(t->icap - 1);
	t->index[h] = slot + 1;
}

/* Doubles the table; the index is rebuilt at its new size. */
static int grow(struct sched_table *t)
{
	int cap = t->cap ? 2 * t->cap : 256, icap = 4 * cap;
	struct sched_entry *e = realloc(t->e, (size_t)cap * sizeof *e);
	int *fr, *ix;

	if (e == NULL)
		return -ENOMEM;
	t->e = e;
	if ((fr = realloc(t->free, (size_t)cap * sizeof *fr)) == NULL)
		return -ENOMEM;
	t->free = fr;
	if ((ix = calloc((size_t)icap, sizeof *ix)) == NULL)
		return -ENOMEM;
	memset(t->e + t->cap, 0, (size_t)(cap - t->cap) * sizeof *e);
	/* New slots go on the stack highest first, so the lowest is taken next. */
	for (int i = cap - 1; i >= t->cap; i--)
		t->free[t->nfree++] = i;
	free(t->index);
	t->index = ix;
	t->icap = icap;
	t->cap = cap;
	for (int i = 0; i < cap; i++)
		if (t->e[i].used)
			index_insert(t, i);
	return 0;
}

int sched_table_claim(struct sched_table *t, uint64_t key)
{
	struct sched_entry *e;
	uint32_t gen;
	int slot, sts;

	if (t->nfree == 0 && (sts = grow(t)) < 0)
		return sts;
	slot = t->free[--t->nfree];
	e = &t->e[slot];
	gen = e->gen + 1;
	memset(e, 0, sizeof *e);
	e->key = key;
	e->gen = gen;
	e->used = true;
	t->used++;
	t->changes++;
	index_insert(t, slot);
	return slot;
}

void sched_table_release(struct sched_table *t, int slot)
{
	unsigned mask = (unsigned)(t->icap - 1), h, gap;

	if (slot < 0 || slot >= t->cap || !t->e[slot].used)
		return;
	/* Linear probing: take the slot out and move later members of its run
	 * back into the gap, so lookups need no tombstones. */
	for (h = hash(t->e[slot].key, t->icap); t->index[h] != slot + 1; h = (h + 1) & mask)
		;
	gap = h;
	t->index[gap] = 0;
	for (h = (gap + 1) & mask; t->index[h]; h = (h + 1) & mask) {
		unsigned home = hash(t->e[t->index[h] - 1].key, t->icap);
		/* Move it if its home is not in (gap, h] cyclically. */
		if (((h - home) & mask) >= ((h - gap) & mask)) {
			t->index[gap] = t->index[h];
			t->index[h] = 0;
			gap = h;
		}
	}
	t->e[slot].used = false;
	t->e[slot].gen++;
	t->free[t->nfree++] = slot;
	t->used--;
	t->changes++;
}
