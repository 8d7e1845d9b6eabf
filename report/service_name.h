/*
 * A service's name for people: the last part of a cgroup's path (a systemd
 * unit, a scope), a container's 64-hex ID cut to 12 as docker ps shows it;
 * a process as the PMDA names it.  Every name printable.
 */
#ifndef SMTCPU_SERVICE_NAME_H
#define SMTCPU_SERVICE_NAME_H

#include <stdbool.h>
#include <stddef.h>

#include "samples.h"

/* The readable name of instance into name (size bytes). */
void service_name(char *name, size_t size, const char *instance, enum sample_by by);

/* Whether instance is a service: every cgroup but the root, every process. */
bool is_service(const char *instance, enum sample_by by);

#endif
