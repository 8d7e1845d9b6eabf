/*
 * Counts the library's allocations: link with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc and read `allocations`.
 */
#ifndef SMTCPU_ALLOC_COUNT_H
#define SMTCPU_ALLOC_COUNT_H

#include <stddef.h>

static long allocations;

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void *__wrap_malloc(size_t n) { allocations++; return __real_malloc(n); }
void *__wrap_calloc(size_t m, size_t n) { allocations++; return __real_calloc(m, n); }
void *__wrap_realloc(void *p, size_t n) { allocations++; return __real_realloc(p, n); }

#endif
