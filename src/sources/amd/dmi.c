#include "dmi.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "readfile.h"
#include "sysroot.h"

#define DMI_TYPE_MEMORY_DEVICE 17
#define DMI_TYPE_END 127

static unsigned word(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

/* String number n (1-based) of the structure whose strings start at s, and
 * its length: strings are NUL-terminated, but a table may end without the
 * NUL, so the length is bounded by the table's end. */
static const char *dmi_string(const unsigned char *s, const unsigned char *end, int n,
			      size_t *len)
{
	*len = 0;
	if (n < 1)
		return "";
	while (--n > 0 && s < end) {
		s += strnlen((const char *)s, (size_t)(end - s)) + 1;
		if (s < end && *s == '\0')
			return "";
	}
	if (s >= end)
		return "";
	*len = strnlen((const char *)s, (size_t)(end - s));
	return (const char *)s;
}

/* The locator without its trailing slot number: the channel's name. */
static void channel_key(const char *locator, size_t len, char *key, size_t size)
{
	size_t n = len < size - 1 ? len : size - 1;

	while (n > 0 && locator[n - 1] >= '0' && locator[n - 1] <= '9')
		n--;
	memcpy(key, locator, n);
	key[n] = '\0';
}

int dmi_memory_parse(const unsigned char *table, long size, struct dmi_memory *m)
{
	static char keys[DMI_MAX_DEVICES][32];
	const unsigned char *p = table, *end = table + size;

	memset(m, 0, sizeof *m);
	while (p + 4 <= end && p[0] != DMI_TYPE_END) {
		unsigned len = p[1];
		const unsigned char *strings = p + len, *next = strings;

		if (len < 4 || strings > end)
			return -EINVAL;
		while (next + 1 < end && (next[0] || next[1]))	/* strings end with two NULs */
			next++;
		next = next + 1 < end ? next + 2 : end;		/* or the table does */
		if (p[0] == DMI_TYPE_MEMORY_DEVICE && len >= 0x17) {
			unsigned sz = word(p + 0x0c), mts = word(p + 0x15);
			const char *locator;
			char key[32];
			size_t len = 0;
			int seen = 0;

			m->devices++;
			if (len >= 0x22 && word(p + 0x20) != 0)
				mts = word(p + 0x20);	/* configured speed, SMBIOS 2.7+ */
			if (sz != 0 && sz != 0xffff && mts != 0 && m->populated < DMI_MAX_DEVICES) {
				m->populated++;
				if (m->mts == 0 || (int)mts < m->mts) {
					m->mts = (int)mts;
					m->data_width = (int)word(p + 0x0a);
				}
				locator = dmi_string(strings, end, p[0x10], &len);
				channel_key(locator, len, key, sizeof key);
				for (int i = 0; i < m->channels; i++)
					seen |= strcmp(keys[i], key) == 0;
				if (!seen)
					memcpy(keys[m->channels++], key, sizeof key);
			}
		}
		p = next;
	}
	return m->populated > 0 ? 0 : -EINVAL;
}

int dmi_memory_read(struct dmi_memory *m)
{
	static unsigned char table[DMI_TABLE_MAX];
	int fd = sr_open("/sys/firmware/dmi/tables/DMI");
	ssize_t size;

	memset(m, 0, sizeof *m);
	if (fd < 0)
		return fd;
	/* A sysfs binary file gives at most a page a read: read to the end. */
	size = rf_read_binary(fd, table, sizeof table);
	close(fd);
	if (size < 0)
		return (int)size;
	if (size == 0)
		return -EINVAL;
	return dmi_memory_parse(table, (long)size, m);
}
