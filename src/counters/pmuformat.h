/*
 * A perf PMU's format/ files, as sysfs prints them: "config:0-7,32-35,59-60"
 * names the bits of attr.config (or config1, config2) that hold a field, low
 * bits of the value first, range by range.  Every range is encoded: a field
 * split over several ranges (the AMD Data Fabric's event) loses nothing.
 */
#ifndef SMTCPU_PMUFORMAT_H
#define SMTCPU_PMUFORMAT_H

#include <stdint.h>

#define PMU_FORMAT_MAX_RANGES 8

struct pmu_field {
	int config;				/* 0: config, 1: config1, 2: config2 */
	int nranges;
	unsigned char lo[PMU_FORMAT_MAX_RANGES], hi[PMU_FORMAT_MAX_RANGES];
	int width;				/* bits in all */
};

/* Parses one format file's text.  Returns 0, or -EINVAL for anything the
 * kernel would not print (bad name, a range out of 0..63, overlaps). */
int pmu_field_parse(const char *text, struct pmu_field *f);

/* ORs value into *config along the field's ranges.  Returns 0, or -ERANGE
 * when value has bits the field cannot hold. */
int pmu_field_encode(const struct pmu_field *f, uint64_t value, uint64_t *config);

#endif
