#include "cpuinfo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parsenum.h"
#include "readfile.h"
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

/* A small decimal at the start of s, or 0. */
static int small_number(const char *s)
{
	uint64_t v;

	return pn_u64_prefix(s, &v) != NULL && v <= INT_MAX ? (int)v : 0;
}

static void parse_line(struct cpuinfo *info, char *line)
{
	char *key, *value;
	uint64_t u;
	double d;

	if ((value = split(line, &key)) == NULL)
		return;
	if (strcmp(key, "cpu") == 0 && info->cpu_name[0] == '\0') {
		copy(info->cpu_name, sizeof info->cpu_name, value);
		if (strncmp(value, "POWER", 5) == 0) {
			info->arch = CPU_ARCH_POWER;
			info->power_generation = small_number(value + 5);
		}
	} else if (strcmp(key, "timebase") == 0) {
		info->timebase = pn_u64_prefix(value, &u) ? u : 0;
	} else if (strcmp(key, "clock") == 0 && info->clock_mhz == 0) {
		info->clock_mhz = pn_decimal_prefix(value, &d) ? d : 0;
	} else if (strcmp(key, "platform") == 0) {
		copy(info->platform, sizeof info->platform, value);
	} else if (strcmp(key, "machine") == 0) {
		copy(info->machine, sizeof info->machine, value);
	} else if (strcmp(key, "vendor_id") == 0 && info->vendor[0] == '\0') {
		/* s390's show_cpu_summary prints "IBM/S390"
		 * (arch/s390/kernel/processor.c); x86's, below. */
		copy(info->vendor, sizeof info->vendor, value);
		if (strncmp(value, "IBM/S390", 8) == 0)
			info->arch = CPU_ARCH_S390;
	} else if (strcmp(key, "cpu family") == 0 && info->family == 0) {
		/* x86's show_cpuinfo (arch/x86/kernel/cpu/proc.c) prints
		 * vendor_id, then "cpu family": together, they are x86's. */
		info->family = small_number(value);
		if (info->vendor[0] && info->arch == CPU_ARCH_UNKNOWN)
			info->arch = CPU_ARCH_X86;
	} else if (strcmp(key, "model") == 0 && info->model == 0 && info->arch == CPU_ARCH_X86) {
		info->model = small_number(value);
	} else if (strcmp(key, "model name") == 0 && info->cpu_name[0] == '\0') {
		copy(info->cpu_name, sizeof info->cpu_name, value);
	} else if (strcmp(key, "flags") == 0 && !info->hypervisor) {
		info->hypervisor = strstr(value, " hypervisor") != NULL ||
				   strncmp(value, "hypervisor", 10) == 0;
	}
}

void cpuinfo_parse(struct cpuinfo *info, char *text)
{
	memset(info, 0, sizeof *info);
	for (char *line = text, *next; line && *line; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		parse_line(info, line);
	}
}

int cpuinfo_read(struct cpuinfo *info)
{
	char *text;
	size_t len;
	int fd, sts;

	memset(info, 0, sizeof *info);
	if ((fd = sr_open("/proc/cpuinfo")) < 0)
		return fd;
	if ((sts = rf_load(fd, NULL, CPUINFO_MAX_BYTES, &text, &len)) < 0)
		return sts;
	cpuinfo_parse(info, text);
	free(text);
	if (info->arch == CPU_ARCH_POWER) {
		if (kvm_device_tree())
			info->guest = POWER_GUEST_KVM;
		else if (strstr(info->machine, "emulated by qemu") != NULL)
			info->guest = POWER_GUEST_TCG;
	}
	return 0;
}

bool cpuinfo_has_compute_units(const struct cpuinfo *info)
{
	return info->arch == CPU_ARCH_X86 && strcmp(info->vendor, "AuthenticAMD") == 0 &&
	       (info->family == 0x15 || info->family == 0x16);
}

const char *cpuinfo_arch_name(enum cpu_arch arch)
{
	switch (arch) {
	case CPU_ARCH_POWER: return "POWER";
	case CPU_ARCH_X86: return "x86";
	case CPU_ARCH_S390: return "s390";
	default: return "unknown";
	}
}
