/*
 * Who a client is, and what it may do (pmda/clients.c): stores from uid 0
 * only; processes only to a client with credentials, and then those /proc
 * shows its uid.
 */
#ifndef SMTCPU_PMDA_CLIENTS_H
#define SMTCPU_PMDA_CLIENTS_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdbool.h>
#include <stdint.h>

#include "procmount.h"

/* What one fetch may see of the processes. */
struct process_view {
	bool all;		/* every process */
	uint32_t uid, gid;	/* else those this uid owns */
};

/* dso_mode: the client is this process; all_access (-A): processes go to
 * every client; mount: how /proc hides processes. */
void clients_setup(bool dso_mode, bool all_access, const struct proc_mount *mount);

/* pmcd's attribute and end-of-context callbacks. */
int clients_attribute(int ctx, int attr, const char *value, int length, pmdaExt *pmda);
void clients_end(int ctx);

/* Whether the client of the request at hand may store: uid 0 only, and
 * not pmproxy (which stores for REST clients it has not authenticated). */
bool client_may_store(void);

/* The processes the client at hand may see: 0 and *view set, or
 * PM_ERR_PERMISSION for a client without credentials. */
int client_process_access(struct process_view *view);

/* Whether view shows a process that owner (a uid, or UINT32_MAX when not
 * known) owns. */
bool client_sees(const struct process_view *view, uint32_t owner);

#endif
