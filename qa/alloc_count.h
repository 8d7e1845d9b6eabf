/*
 * Counts the library's allocations: link with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc and read `allocations`.
 * A test sets `fail_calloc_size` to have every calloc of elements of that
 * size fail, as out of memory.
 */
#ifndef SMTCPU_ALLOC_COUNT_H
#define SMTCPU_ALLOC_COUNT_H

#include <stddef.h>

static long allocations;
static size_t fail_calloc_size;

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void *__wrap_malloc(size_t n) { allocations++; return __real_malloc(n); }
void *__wrap_calloc(size_t m, size_t n)
{
	allocations++;
	return fail_calloc_size && n == fail_calloc_size ? NULL : __real_calloc(m, n);
}
void *__wrap_realloc(void *p, size_t n) { allocations++; return __real_realloc(p, n); }

#endif
