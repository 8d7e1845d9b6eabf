/*
 * The software PURR's processes and cgroups as instances (pmda/sched_publish.c).
 */
#ifndef SMTCPU_PMDA_SCHED_PUBLISH_H
#define SMTCPU_PMDA_SCHED_PUBLISH_H

#include <pcp/pmapi.h>

/* After each pass; now in monotonic seconds. */
void sched_publish(double now);

/* Every instance of PROC_INDOM or CGROUP_INDOM, those that left a moment
 * ago (inactive) too, for an instance request naming them all;
 * PM_ERR_INDOM for another domain. */
int sched_instance_list(pmInDom in, pmInResult **result);

#endif
