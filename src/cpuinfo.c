#include "cpuinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysroot.h"

/* Splits "key\t: value\n" in place; returns the value or NULL. */
static char *split(char *line, char **key)
{
	char *colon = strchr(line, ':'), *end;

	if (colon == NULL)
		return NULL;
	end = colon;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = '\0';
	*key = line;
	colon++;
	while (*colon == ' ' || *colon == '\t')
		colon++;
	end = colon + strlen(colon);
	while (end > colon && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	return colon;
}

static void copy(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src);
}

/* A KVM guest's device tree has a hypervisor node compatible with "linux,kvm". */
static bool kvm_device_tree(void)
{
	char text[64];

	return sr_read_small(text, sizeof text, "/proc/device-tree/hypervisor/compatible") > 0 &&
	       strncmp(text, "linux,kvm", 9) == 0;
}

int cpuinfo_read(struct cpuinfo *info)
{
	char line[4096], *key, *value;
	FILE *f;
	int fd;

	memset(info, 0, sizeof *info);
	if ((fd = sr_open("/proc/cpuinfo")) < 0)
		return fd;
	if ((f = fdopen(fd, "r")) == NULL) {
		int sts = -errno;
		close(fd);
		return sts;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		if ((value = split(line, &key)) == NULL)
			continue;
		if (strcmp(key, "cpu") == 0 && info->cpu_name[0] == '\0') {
			copy(info->cpu_name, sizeof info->cpu_name, value);
			if (strncmp(value, "POWER", 5) == 0) {
				info->arch = CPU_ARCH_POWER;
				info->power_generation = atoi(value + 5);
			}
		} else if (strcmp(key, "timebase") == 0) {
			info->timebase = strtoull(value, NULL, 10);
		} else if (strcmp(key, "clock") == 0 && info->clock_mhz == 0) {
			info->clock_mhz = strtod(value, NULL);
		} else if (strcmp(key, "platform") == 0) {
			copy(info->platform, sizeof info->platform, value);
		} else if (strcmp(key, "machine") == 0) {
			copy(info->machine, sizeof info->machine, value);
		} else if (strcmp(key, "vendor_id") == 0 && info->vendor[0] == '\0') {
			copy(info->vendor, sizeof info->vendor, value);
			info->arch = CPU_ARCH_X86;
		} else if (strcmp(key, "cpu family") == 0 && info->family == 0) {
			info->family = atoi(value);
		} else if (strcmp(key, "model") == 0 && info->model == 0 && info->arch == CPU_ARCH_X86) {
			info->model = atoi(value);
		} else if (strcmp(key, "model name") == 0 && info->cpu_name[0] == '\0') {
			copy(info->cpu_name, sizeof info->cpu_name, value);
		} else if (strcmp(key, "flags") == 0 && !info->hypervisor) {
			info->hypervisor = strstr(value, " hypervisor") != NULL ||
					   strncmp(value, "hypervisor", 10) == 0;
		}
	}
	fclose(f);
	if (info->arch == CPU_ARCH_POWER)
		info->kvm_guest = strstr(info->machine, "emulated by qemu") != NULL ||
				  kvm_device_tree();
	return 0;
}
