#include "procmount.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysroot.h"

/* mountinfo's lines are "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS
 * [OPTIONAL...] - FSTYPE SOURCE SUPER-OPTIONS" (show_mountinfo,
 * fs/proc_namespace.c); proc's hidepid= and gid= are super options. */
static void parse_options(const char *opts, size_t len, struct proc_mount *m)
{
	char buf[256];
	char *save = NULL;

	if (len >= sizeof buf)
		len = sizeof buf - 1;
	memcpy(buf, opts, len);
	buf[len] = '\0';
	for (char *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save)) {
		char *end;
		unsigned long v;

		if (strncmp(o, "hidepid=", 8) == 0) {
			const char *h = o + 8;
			if (!strcmp(h, "off") || !strcmp(h, "0"))
				m->hidepid = HIDEPID_OFF;
			else if (!strcmp(h, "noaccess") || !strcmp(h, "1"))
				m->hidepid = HIDEPID_NOACCESS;
			else if (!strcmp(h, "invisible") || !strcmp(h, "2"))
				m->hidepid = HIDEPID_INVISIBLE;
			else	/* ptraceable, 4, or one not known yet: the strictest */
				m->hidepid = HIDEPID_PTRACEABLE;
		} else if (strncmp(o, "gid=", 4) == 0) {
			v = strtoul(o + 4, &end, 10);
			if (end != o + 4 && *end == '\0' && v <= UINT32_MAX) {
				m->gid = (uint32_t)v;
				m->has_gid = true;
			}
		}
	}
}

/* A mount over another at /proc hides it: the last line at /proc counts. */
bool proc_mount_parse(const char *mountinfo, struct proc_mount *m)
{
	bool found = false;

	for (const char *line = mountinfo; line && *line;) {
		const char *eol = strchr(line, '\n'), *f = line, *sep;
		size_t len = eol ? (size_t)(eol - line) : strlen(line);
		int field = 0;

		/* the fifth field, the mount point */
		while (field < 4 && (f = memchr(f, ' ', len - (size_t)(f - line))) != NULL) {
			f++;
			field++;
		}
		sep = f ? strstr(f, " - proc ") : NULL;
		if (f && strncmp(f, "/proc ", 6) == 0 && sep && sep < line + len) {
			const char *super = memchr(sep + 8, ' ', len - (size_t)(sep + 8 - line));
			*m = (struct proc_mount){ HIDEPID_OFF, false, 0 };
			if (super) {
				super++;
				parse_options(super, len - (size_t)(super - line), m);
			}
			found = true;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!found)
		*m = (struct proc_mount){ HIDEPID_OFF, false, 0 };
	return found;
}

bool proc_mount_read(struct proc_mount *m)
{
	static char text[64 * 1024];	/* (mountinfo of a host with many mounts is long) */
	ssize_t n = sr_read_small(text, sizeof text, "/proc/self/mountinfo");

	if (n == -EFBIG)
		n = (ssize_t)strlen(text);
	if (n <= 0) {
		*m = (struct proc_mount){ HIDEPID_OFF, false, 0 };
		return false;
	}
	return proc_mount_parse(text, m);
}
