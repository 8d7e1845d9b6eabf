/*
 * What /proc/cpuinfo says about the processor, as far as the SMT model and
 * the counter tables need it.
 */
#ifndef SMTCPU_CPUINFO_H
#define SMTCPU_CPUINFO_H

#include <stdbool.h>
#include <stdint.h>

enum cpu_arch { CPU_ARCH_UNKNOWN, CPU_ARCH_POWER, CPU_ARCH_X86, CPU_ARCH_S390 };

/* A POWER guest of QEMU: under KVM (the device tree's hypervisor node says
 * "linux,kvm") or emulated by TCG (QEMU's machine name, no such node). */
enum power_guest { POWER_GUEST_NONE, POWER_GUEST_KVM, POWER_GUEST_TCG };

struct cpuinfo {
	enum cpu_arch arch;
	char cpu_name[64];	/* POWER "cpu" line ("POWER9 (architected), ...") or x86 "model name" */
	int power_generation;	/* 7 for POWER7 and POWER7+, 8, 9, 10, ...; 0 when not POWER */
	char platform[32];	/* POWER "platform": "pSeries", "PowerNV", ... */
	char machine[64];	/* POWER "machine": "CHRP IBM,9009-42A", ... */
	uint64_t timebase;	/* POWER timebase frequency in Hz, 0 if absent */
	double clock_mhz;	/* POWER nominal clock ("clock : 3550.000000MHz"), 0 if absent */
	enum power_guest guest;
	char vendor[16];	/* x86 vendor_id ("IBM/S390" on s390) */
	int family, model;	/* x86 "cpu family" and "model" */
	bool hypervisor;	/* x86 "hypervisor" flag */
};

/* x86 prints ~1.6 KB a CPU, POWER ~60 bytes: room for 8192 x86 CPUs. */
#define CPUINFO_MAX_BYTES (32 << 20)

/* Reads root/proc/cpuinfo.  Returns 0 or -errno (-EFBIG past
 * CPUINFO_MAX_BYTES); on error *info is zeroed. */
int cpuinfo_read(struct cpuinfo *info);

/* The engine of cpuinfo_read (for tests): text is modified. */
void cpuinfo_parse(struct cpuinfo *info, char *text);

/* AMD families 15h and 16h (Bulldozer to Jaguar): a compute unit's two
 * cores, which the kernel lists as thread siblings, are cores. */
bool cpuinfo_has_compute_units(const struct cpuinfo *info);

/* "POWER", "x86", "s390" or "unknown". */
const char *cpuinfo_arch_name(enum cpu_arch arch);

#endif
