/*
 * The SMBIOS memory devices (type 17) in /sys/firmware/dmi/tables/DMI: how
 * many DRAM channels are populated and at what speed, for the peak DRAM
 * bandwidth (channels x MT/s x 8 bytes).
 */
#ifndef SMTCPU_DMI_H
#define SMTCPU_DMI_H

#define DMI_MAX_DEVICES 256
/* SMBIOS 2.x tables are at most 65535 bytes (a 16-bit length); 3.x tables
 * of servers stay well under this. */
#define DMI_TABLE_MAX (1 << 20)
#define DMI_TABLE_MAX_TEXT "1048576"

struct dmi_memory {
	int devices;		/* type 17 records */
	int populated;		/* with a module installed */
	int channels;		/* populated channels: slots of one channel share a locator
				   but for its trailing number (P0_DIMM_A1, P0_DIMM_A2) */
	int mts;		/* slowest configured speed of a populated device, MT/s */
	int data_width;		/* bits, of that device (64 for DDR4/DDR5 DIMMs) */
};

/* Reads and parses the table.  Returns 0, -ENOENT without one, -EINVAL when
 * it has no populated device with a speed, -EFBIG past DMI_TABLE_MAX. */
int dmi_memory_read(struct dmi_memory *m);

/* Parses a table already in memory (for tests). */
int dmi_memory_parse(const unsigned char *table, long size, struct dmi_memory *m);

#endif
