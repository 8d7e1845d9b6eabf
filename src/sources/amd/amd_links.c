/*
 * Cross-socket (xGMI) traffic per link and socket, on the Data Fabric:
 * its own groups on amd_df, which the kernel rotates with the DRAM groups
 * when they do not all fit (Zen2/Zen3: 8 DRAM and 4 link events on 4
 * counters make three groups, each counting a third of the time).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "amd_internal.h"

int amd_links_open(struct amd *a)
{
	const struct amd_family *f = a->family;
	struct uncore_spec spec = { .second_field = "umask", .nunits = f->nlinks,
		.per_unit = f->link_in_umask ? 2 : 1,
		.counters = config_pmu_counters(a->cfg, "amd_df", f->df_counters) };
	int sts;

	a->links_in = f->link_in_umask != 0;
	for (int n = 0; n < f->nlinks; n++) {
		spec.event[n][0] = spec.event[n][1] = amd_link_event(f, n);
		spec.second[n][0] = f->link_out_umask;
		spec.second[n][1] = f->link_in_umask;
	}
	if ((sts = uncore_open(&a->links, "amd_df", &spec, a->backend)) < 0) {
		char why[200];

		amd_describe_error(why, sizeof why, &a->links);
		snprintf(a->xgmi_status, AMD_STATUS_LEN, "xGMI link events not counted "
			 "(DRAM is not affected): %s", why);
		return sts;
	}
	for (int i = 0; i < a->links.pmu.ncpus; i++) {
		int s = amd_unit_socket_slot(a, i, a->links.pmu.cpu[i]);

		if (s < 0)
			break;
		a->socket[s].nlinks = f->nlinks;
		for (int n = 0; n < f->nlinks; n++)
			a->link[s][n] = (struct amd_link){ .at = { &a->links, i, n } };
	}
	snprintf(a->xgmi_ok, sizeof a->xgmi_ok, "ok: %s, %d links a socket, %s, %d bytes an "
		 "event", f->name, f->nlinks, a->links_in ? "outbound and inbound" : "outbound",
		 f->link_bytes);
	return 0;
}

void amd_links_sum(struct amd *a)
{
	const struct uncore *u = &a->links;
	int per = u->spec.per_unit, bytes = a->family->link_bytes;

	for (int s = 0; s < a->nsockets; s++) {
		struct amd_socket *so = &a->socket[s];

		so->xgmi_out = so->xgmi_in = 0;
		so->have_xgmi = so->nlinks > 0;
		for (int n = 0; n < so->nlinks; n++) {
			struct amd_link *l = &a->link[s][n];
			int cell = uncore_index(u, l->at.cpu_index, l->at.unit);

			l->have = u->have[cell] && u->fresh[cell];
			l->duty = u->duty[cell];
			l->out = u->total[cell * per] * bytes;
			l->in = per > 1 ? u->total[cell * per + 1] * bytes : 0;
			so->xgmi_out += l->out;
			so->xgmi_in += l->in;
			so->have_xgmi &= l->have;
		}
	}
}
