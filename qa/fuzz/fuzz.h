/*
 * Shared by the libFuzzer harnesses: a quiet log, and the input as a
 * NUL-terminated string on the heap (exactly its size plus the NUL, so
 * AddressSanitizer sees a read one past it).
 */
#ifndef SMTCPU_FUZZ_H
#define SMTCPU_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fuzz_quiet_sink(enum smt_log_level level, const char *message)
{
	(void)level;
	(void)message;
}

static inline void fuzz_quiet(void)
{
	smt_log_set_sink(fuzz_quiet_sink);
}

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

#endif
