/*
 * Who a client is, and what it may do: pmcd passes the user, group and
 * process of a client on its local socket (PMDA_FLAG_AUTHORIZE); a client
 * over TCP without authentication has none.  Stores are taken from uid 0
 * only (as the proc PMDA takes hotproc.control.refresh), and never from
 * pmproxy; processes go only to a client with credentials, and then only
 * those /proc shows its uid.
 */
#include "clients.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysroot.h"

struct client {
	bool has_uid, has_gid;
	uint32_t uid, gid, pid;	/* pid: 0 where pmcd did not say */
};

static struct client *clients;	/* by context number, grown as contexts come */
static int nclients;
static bool dso;		/* a local context: the client is this process */
static bool everyone;		/* -A: no checks on processes */
static struct proc_mount proc_mount;

void clients_setup(bool dso_mode, bool all_access, const struct proc_mount *mount)
{
	dso = dso_mode;
	everyone = all_access;
	proc_mount = *mount;
}

static struct client *client_of(int ctx, bool grow)
{
	if (ctx < 0)
		return NULL;
	if (ctx >= nclients && grow) {
		struct client *more = realloc(clients, (size_t)(ctx + 1) * sizeof *more);
		if (more == NULL)
			return NULL;
		for (int i = nclients; i <= ctx; i++)
			more[i] = (struct client){ 0 };
		clients = more;
		nclients = ctx + 1;
	}
	return ctx < nclients ? &clients[ctx] : NULL;
}

static bool parse_id(const char *value, int length, uint32_t *id)
{
	uint64_t v = 0;

	if (length <= 0)
		return false;
	for (int i = 0; i < length && value[i]; i++) {
		if (value[i] < '0' || value[i] > '9' || (v = v * 10 + (uint64_t)(value[i] - '0')) > UINT32_MAX)
			return false;
	}
	*id = (uint32_t)v;
	return true;
}

int clients_attribute(int ctx, int attr, const char *value, int length, pmdaExt *pmda)
{
	struct client *c;
	uint32_t id;
	int sts;

	if ((sts = pmdaAttribute(ctx, attr, value, length, pmda)) < 0)
		return sts;
	if ((attr != PMDA_ATTR_USERID && attr != PMDA_ATTR_GROUPID && attr != PMDA_ATTR_PROCESSID) ||
	    !parse_id(value, length, &id))
		return 0;
	if ((c = client_of(ctx, true)) == NULL)
		return -ENOMEM;
	if (attr == PMDA_ATTR_USERID) {
		c->uid = id;
		c->has_uid = true;
	} else if (attr == PMDA_ATTR_GROUPID) {
		c->gid = id;
		c->has_gid = true;
	} else {
		c->pid = id;
	}
	return 0;
}

void clients_end(int ctx)
{
	struct client *c = client_of(ctx, false);

	if (c)
		*c = (struct client){ 0 };
}

/* The fetching client's uid and gid: false where it has none. */
static bool credentials(uint32_t *uid, uint32_t *gid)
{
	const struct client *c;

	if (dso) {
		*uid = (uint32_t)geteuid();
		*gid = (uint32_t)getegid();
		return true;
	}
	if ((c = client_of(pmdaGetContext(), false)) == NULL || !c->has_uid)
		return false;
	*uid = c->uid;
	*gid = c->has_gid ? c->gid : UINT32_MAX;
	return true;
}

/* pmproxy speaks for its REST clients, whom it does not authenticate, in
 * its own name: root's, where it runs as root. */
static bool a_proxy(uint32_t pid)
{
	char comm[32];

	return pid != 0 && sr_read_small(comm, sizeof comm, "/proc/%u/comm", pid) > 0 &&
	       strcmp(comm, "pmproxy") == 0;
}

bool client_may_store(void)
{
	const struct client *c;
	uint32_t uid, gid;

	if (!credentials(&uid, &gid) || uid != 0)
		return false;
	return dso || (c = client_of(pmdaGetContext(), false)) == NULL || !a_proxy(c->pid);
}

int client_process_access(struct process_view *view)
{
	if (everyone) {
		view->all = true;
		return 0;
	}
	if (!credentials(&view->uid, &view->gid))
		return PM_ERR_PERMISSION;
	view->all = view->uid == 0 || proc_mount.hidepid == HIDEPID_OFF ||
		    (proc_mount.has_gid && view->gid == proc_mount.gid);
	return 0;
}

bool client_sees(const struct process_view *view, uint32_t owner)
{
	return view->all || owner == view->uid;
}
