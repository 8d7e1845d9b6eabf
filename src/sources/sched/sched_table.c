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

/* The free slots are a min-heap: the lowest is taken first, so those in use
 * gather at the bottom and the table can shrink once a crowd has gone. */
static void free_push(struct sched_table *t, int slot)
{
	int i = t->nfree++;

	while (i > 0 && t->free[(i - 1) / 2] > slot) {
		t->free[i] = t->free[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	t->free[i] = slot;
}

static int free_pop(struct sched_table *t)
{
	int top = t->free[0], last = t->free[--t->nfree], i = 0;

	for (;;) {
		int c = 2 * i + 1;
		if (c >= t->nfree)
			break;
		if (c + 1 < t->nfree && t->free[c + 1] < t->free[c])
			c++;
		if (t->free[c] >= last)
			break;
		t->free[i] = t->free[c];
		i = c;
	}
	if (t->nfree > 0)
		t->free[i] = last;
	return top;
}

static void index_insert(struct sched_table *t, int slot)
{
	unsigned h = hash(t->e[slot].key, t->icap);

	while (t->index[h])
		h = (h + 1) & (unsigned)(t->icap - 1);
	t->index[h] = slot + 1;
}

/* The table at cap slots (more or fewer: only free ones go); the free
 * heap and the index are rebuilt at the new size. */
static int resize(struct sched_table *t, int cap)
{
	int icap = 4 * cap, *fr, *ix;
	struct sched_entry *e;

	if ((ix = calloc((size_t)icap, sizeof *ix)) == NULL)
		return -ENOMEM;
	if ((e = realloc(t->e, (size_t)cap * sizeof *e)) == NULL) {
		free(ix);
		return -ENOMEM;
	}
	t->e = e;
	if ((fr = realloc(t->free, (size_t)cap * sizeof *fr)) == NULL) {
		free(ix);
		return -ENOMEM;	/* (a shrink keeps the larger free heap) */
	}
	t->free = fr;
	if (cap > t->cap)
		memset(t->e + t->cap, 0, (size_t)(cap - t->cap) * sizeof *e);
	free(t->index);
	t->index = ix;
	t->icap = icap;
	t->cap = cap;
	t->nfree = 0;
	for (int i = 0; i < cap; i++)
		if (t->e[i].used)
			index_insert(t, i);
		else
			t->free[t->nfree++] = i;	/* ascending: already a heap */
	return 0;
}

static int grow(struct sched_table *t)
{
	return resize(t, t->cap ? 2 * t->cap : 256);
}

int sched_table_claim(struct sched_table *t, uint64_t key)
{
	struct sched_entry *e;
	int slot, sts;

	if (t->nfree == 0 && (sts = grow(t)) < 0)
		return sts;
	slot = free_pop(t);
	e = &t->e[slot];
	memset(e, 0, sizeof *e);
	e->key = key;
	e->gen = ++t->next_gen;
	e->moved_from = -1;
	e->used = true;
	t->used++;
	t->changes++;
	index_insert(t, slot);
	return slot;
}

/* Takes slot out of the index.  Linear probing: later members of its run
 * move back into the gap, so lookups need no tombstones. */
static void index_remove(struct sched_table *t, int slot)
{
	unsigned mask = (unsigned)(t->icap - 1), h, gap;

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
}

void sched_table_rekey(struct sched_table *t, int slot, uint64_t key)
{
	if (slot < 0 || slot >= t->cap || !t->e[slot].used)
		return;
	index_remove(t, slot);
	t->e[slot].key = key;
	index_insert(t, slot);
}

void sched_table_release(struct sched_table *t, int slot)
{
	if (slot < 0 || slot >= t->cap || !t->e[slot].used)
		return;
	index_remove(t, slot);
	t->e[slot].used = false;
	free_push(t, slot);
	t->used--;
	t->changes++;
}

/* The entry at from moves to the free slot to, under the same key and
 * gen: whoever follows slots finds it by moved_from. */
static void move_down(struct sched_table *t, int from, int to)
{
	index_remove(t, from);
	t->e[to] = t->e[from];
	t->e[to].moved_from = from;
	index_insert(t, to);
	t->e[from].used = false;
	free_push(t, from);
}

bool sched_table_shrink(struct sched_table *t)
{
	int half = t->cap / 2;

	if (t->cap <= 256 || t->used > t->cap / 4)
		return false;
	/* At most a quarter is used, so at least a quarter of the lower half
	 * is free: each entry above it finds a place there. */
	for (int i = half; i < t->cap; i++)
		if (t->e[i].used)
			move_down(t, i, free_pop(t));
	t->changes++;
	return resize(t, half) == 0;
}

int sched_table_same_word(const struct sched_table *t, int slot, const char *name)
{
	size_t n = strcspn(name, " ");

	for (int i = 0; i < t->cap; i++)
		if (i != slot && t->e[i].used && strcspn(t->e[i].name, " ") == n &&
		    strncmp(t->e[i].name, name, n) == 0)
			return i;
	return -1;
}
