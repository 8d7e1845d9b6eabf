/*
 * Readable service names.
 */
#include "service_name.h"
#include "printable.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define CONTAINER_ID_LEN 64
#define SHORT_ID_LEN 12

/* Where a run of 64 hex digits starts in s, or NULL. */
static const char *container_id(const char *s)
{
	for (const char *p = s; *p; p++) {
		size_t n = 0;

		while (isxdigit((unsigned char)p[n]))
			n++;
		if (n == CONTAINER_ID_LEN)
			return p;
		if (n)
			p += n - 1;
	}
	return NULL;
}

void service_name(char *name, size_t size, const char *instance, enum sample_by by)
{
	char raw[512];
	const char *last = instance, *id;

	if (by == BY_CGROUP) {
		const char *slash = strrchr(instance, '/');

		if (slash && slash[1])
			last = slash + 1;
	}
	if (by == BY_CGROUP && (id = container_id(last)) != NULL) {
		/* "docker-<id>.scope" -> "docker-<12>"; "<id>" -> "<12>" */
		snprintf(raw, sizeof raw, "%.*s%.*s", (int)(id - last), last, SHORT_ID_LEN, id);
	} else
		snprintf(raw, sizeof raw, "%s", last);
	printable_copy(name, size, raw, strlen(raw));
}

bool is_service(const char *instance, enum sample_by by)
{
	return by == BY_PROCESS || strcmp(instance, "/") != 0;
}
