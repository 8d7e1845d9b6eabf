/*
 * mkcharge: PCP archives of what smtcpu's PMDA would record every INTERVAL
 * seconds under a load pattern, for the reports of pcp-smtcpu (qa 040-045)
 * and the fleet (qa/fleet-scale).  Every metric's PMID, type, instance
 * domain, semantics and units, and the agent's domain and instance domain
 * labels, are looked up from a live smtcpu PMDA (the private pmcd a test
 * starts), never typed in here, and so are the labels of its domain and
 * instance domains (put_labels says what libpcp_import cannot write).
 *
 *   mkcharge -h unix:SOCKET [-n PMNS] PATTERN
 *
 * PATTERN, a line each ('#' starts a comment; DURATION is seconds, or
 * numbers each with d, h, m or s: 3h10m, -1h; times are from the first
 * sample, and the agent counts from the earliest load's start or the first
 * sample, whichever comes first):
 *
 *   host NAME                  the archives' hostname
 *   machine power7 CORES [shared ENT POOLCORES OTHERS]
 *                              a POWER7 LPAR, SMT4 (power7-smt4: c(k) = 0.625,
 *                              0.4375, 0.3125, 0.25), CPUs 4i..4i+3 core "core4i";
 *                              dedicated (physc = CORES) unless shared: ENT
 *                              entitled cores, a pool of POOLCORES of which
 *                              OTHERS are used by other LPARs throughout
 *   machine power8 CORES [shared ENT POOLCORES OTHERS]
 *                              the same, SMT8 (power8-smt8: seed 000 section
 *                              8, c(1) = 0.56, levels by POWER7's shape as
 *                              src/model/smtmodel.c's comment gives them),
 *                              CPUs 8i..8i+7 core "core8i"
 *   machine epyc SOCKETS CORES a 2-socket EPYC, SMT2 (x86-smt2: c(1) = 0.8,
 *                              c(2) = 0.5), N = SOCKETS x CORES cores: CPUs i
 *                              and i+N are core "corei"
 *   start EPOCH                the first sample, seconds since 1970 UTC
 *   length DURATION            the last sample (start + DURATION)
 *   interval DURATION          between samples (10 s unless given;
 *                              pmlogger's default is 60 s)
 *   archive PATH               the first archive
 *   digits N                   each value written to N significant digits:
 *                              7, and a key-value store of pmproxy 6.0.3
 *                              (which keeps a double as %e) keeps it whole
 *   record all|report          all of the groups' smt.* and lpar.* below, or
 *                              only what the reports read (smt.all.*,
 *                              smt.busy_cpu, smt.cgroup.*, lpar.*)
 *   load CGROUP CPUS BUSY FROM TO [COMMAND]
 *                              threads on CPUS (a list: 0-3,8) each busy BUSY
 *                              of every interval's part in [FROM, TO): from
 *                              the part's start, after any load listed before
 *                              it on the same CPU.  CGROUP a path ("/" the
 *                              root), or "-" for busy time no cgroup is
 *                              charged (interrupts).  A process "PID COMMAND"
 *                              a load in a cgroup (PID 1000 + the load's
 *                              number, from 1; COMMAND the cgroup's last
 *                              component less any suffix unless given).
 *   daily CGROUP CPUS BUSY GROWTH FROM TO FIRSTDAY DAYS
 *                              a load each day d = FIRSTDAY .. FIRSTDAY+DAYS-1
 *                              (days from the start's midnight) from FROM to
 *                              TO of the day, busy BUSY + d x GROWTH
 *   agent-restart AT           the PMDA restarts at AT: every counter it keeps
 *                              starts again from 0 (lpar.* are the kernel's
 *                              lparcfg counters: they go on)
 *   logger-restart AT GAP PATH pmlogger stops after its sample at AT (or the
 *                              last before it) and starts a new archive PATH
 *                              at AT + GAP
 *   mark AT GAP                the same in one archive: a <mark> record after
 *                              the sample at AT, the next at AT + GAP
 *
 * Which PMDA code produces each metric, and what this follows of it:
 *   smt.throughput_cpu{,_lower,_upper}, smt.busy_cpu, smt.elapsed_cpu:
 *     pmda/smt.c from src/sampler/core_account.c: per CPU, each busy stretch
 *     dt x c(k) while k threads of its core are busy (the "sched" and "purr"
 *     sources measure the overlap, so the bounds equal the value); busy and
 *     elapsed time in ms
 *   smt.core.*: pmda/core.c from core_account.c: the sum of the core's CPUs,
 *     capacity += dt (every thread online), capacity_left += dt - throughput
 *     (never below 0: no load here exceeds the core), busy_threads += the
 *     threads' busy time, model_cpu the table's estimate (here the same)
 *   smt.all.*: pmda/smt.c, the sums over cores (busy_cpu: over CPUs); ncores, ncpus
 *   smt.cgroup.*, smt.proc.*: pmda/sched.c from the software PURR's charges
 *     (src/sources/sched): each task's dt x c(k), its cgroup's the sum; an
 *     instance appears once charged and goes a retire period (60 s) after
 *     its last task ends
 *   lpar.*: pmda/power.c from src/sources/power (lparcfg): purr the sum of
 *     the online CPUs' PURR (a dedicated LPAR's cores' whole time; a shared
 *     LPAR's, the time each virtual processor was dispatched, i.e. any of
 *     its threads busy), tbr at 1e6 us a second, pool.idle_time the pool's
 *     idle cores' time, in us; totals since boot, kept across an agent
 *     restart (source_power.c accumulates from the kernel's first value)
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcp/pmapi.h>
#include <pcp/import.h>

#define MAXCPU 2048
#define MAXLOAD 1024
#define MAXPERCPU 64
#define MAXEV 64
#define MAXCG 64
#define RETIRE 60.0

static void die(const char *fmt, const char *a)
{
	fprintf(stderr, "mkcharge: ");
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	exit(2);
}

/* the machine */
static int power, ncores, tpc, ncpus, shared;
static double ent, poolcores, others, c[9];
static int core_of[MAXCPU], cpu_of[MAXCPU][8];
static char hostname[256] = "smtcpu-qa";
static double start = -1, length = -1, interval = 10;
static char first_archive[1024];
static int record_all = 1, digits;

struct load {
	char cgroup[512], command[64];
	int cg, pid;
	int cpus[MAXCPU], n;
	double busy, from, to;		/* absolute */
	double thr, busyms;		/* the agent's counters */
};
static struct load loads[MAXLOAD];
static int nloads;

struct event { double at, gap; char path[1024]; int kind; };	/* 0 agent, 1 logger, 2 mark */
static struct event ev[MAXEV];
static int nev;

static char cgname[MAXCG][512];
static int ncg;

/* the agent's counters (ms), per CPU and core, and the kernel's (us) */
static double cpu_thr[MAXCPU], cpu_busy[MAXCPU], cpu_el[MAXCPU];
static double core_thr[MAXCPU], core_cap[MAXCPU], core_left[MAXCPU], core_bt[MAXCPU];
static double lpar_purr, lpar_tbr, lpar_pool_idle;
static double agent_start;

/* power8-smt8: T(k) = 1 + a, 1 + 1.25a, ... 1 + 1.75a from T(1) = 1 with
 * T(8) = 1 / 0.56; each of k busy threads gets T(k) / (k T(8)). */
static void power8_smt8(void)
{
	static const double shape[9] = { 0, 0, 1, 1.25, 1.5, 1.5625, 1.625, 1.6875, 1.75 };
	double a = (1 / 0.56 - 1) / 1.75;

	for (int k = 1; k <= 8; k++)
		c[k] = (1 + shape[k] * a) / (k * (1 + 1.75 * a));
}

static double duration(const char *s)
{
	const char *p = s;
	char *end;
	double v = 0, x;

	do {	/* 5h, 90m, 3h10m, 5h0m5s */
		x = strtod(p, &end);
		if (end == p)
			die("not a duration: %s", s);
		switch (*end) {
		case 'd': x *= 86400; end++; break;
		case 'h': x *= 3600; end++; break;
		case 'm': x *= 60; end++; break;
		case 's': end++; break;
		case '\0': break;
		default: die("not a duration: %s", s);
		}
		v += x;
		p = end;
	} while (*p);
	return v;
}

static int cpulist(const char *s, int *out)
{
	int n = 0;
	char buf[1024], *tok, *save;

	snprintf(buf, sizeof buf, "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int a, b;
		if (sscanf(tok, "%d-%d", &a, &b) == 2) {
		} else if (sscanf(tok, "%d", &a) == 1)
			b = a;
		else
			die("not a CPU list: %s", s);
		for (int i = a; i <= b; i++) {
			if (i < 0 || i >= ncpus)
				die("CPU out of range (machine line first): %s", s);
			out[n++] = i;
		}
	}
	return n;
}

static int cgroup_index(const char *path)
{
	if (strcmp(path, "-") == 0)
		return -1;
	for (int i = 0; i < ncg; i++)
		if (strcmp(cgname[i], path) == 0)
			return i;
	if (ncg == MAXCG)
		die("too many cgroups%s", "");
	snprintf(cgname[ncg], sizeof cgname[ncg], "%s", path);
	return ncg++;
}

static void add_load(const char *cg, const char *cpus, double busy, double from, double to, const char *cmd)
{
	struct load *l;
	const char *slash;

	if (nloads == MAXLOAD)
		die("too many loads%s", "");
	if (start < 0)
		die("start comes before loads%s", "");
	l = &loads[nloads++];
	snprintf(l->cgroup, sizeof l->cgroup, "%s", cg);
	l->cg = cgroup_index(cg);
	l->n = cpulist(cpus, l->cpus);
	l->busy = busy;
	l->from = start + from;
	l->to = start + to;
	l->pid = 1000 + nloads;
	if (cmd)
		snprintf(l->command, sizeof l->command, "%s", cmd);
	else {
		slash = strrchr(cg, '/');
		snprintf(l->command, sizeof l->command, "%s", slash && slash[1] ? slash + 1 : "irq");
		if (strchr(l->command, '.'))
			*strchr(l->command, '.') = '\0';
	}
}

static void parse(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[2048];

	if (!f)
		die("cannot open %s", file);
	while (fgets(line, sizeof line, f)) {
		char *w[12];
		int n = 0;
		char *p = strchr(line, '#');

		if (p)
			*p = '\0';
		for (p = strtok(line, " \t\n"); p && n < 12; p = strtok(NULL, " \t\n"))
			w[n++] = p;
		if (n == 0)
			continue;
		if (strcmp(w[0], "host") == 0 && n == 2)
			snprintf(hostname, sizeof hostname, "%s", w[1]);
		else if (strcmp(w[0], "machine") == 0 && n >= 3 &&
			 (strcmp(w[1], "power7") == 0 || strcmp(w[1], "power8") == 0)) {
			power = 1, tpc = w[1][5] == '7' ? 4 : 8, ncores = atoi(w[2]);
			if (tpc == 4)
				c[1] = 0.625, c[2] = 0.4375, c[3] = 0.3125, c[4] = 0.25;
			else
				power8_smt8();
			ent = ncores;
			if (n == 7 && strcmp(w[3], "shared") == 0)
				shared = 1, ent = atof(w[4]), poolcores = atof(w[5]), others = atof(w[6]);
			else if (n != 3)
				die("machine %s CORES [shared ENT POOLCORES OTHERS]", w[1]);
			ncpus = ncores * tpc;
			if (ncores < 1 || ncpus > MAXCPU)
				die("machine %s: 1 to 2048 CPUs", w[1]);
			for (int i = 0; i < ncpus; i++)
				core_of[i] = i / tpc, cpu_of[i / tpc][i % tpc] = i;
		} else if (strcmp(w[0], "machine") == 0 && n == 4 && strcmp(w[1], "epyc") == 0) {
			int per_socket = atoi(w[3]);
			tpc = 2, ncores = atoi(w[2]) * per_socket;
			c[1] = 0.8, c[2] = 0.5;
			ncpus = 2 * ncores;
			if (per_socket < 1 || ncores < 1 || ncpus > MAXCPU)
				die("machine epyc: 1 to 2048 CPUs%s", "");
			for (int i = 0; i < ncores; i++) {
				core_of[i] = core_of[i + ncores] = i;
				cpu_of[i][0] = i, cpu_of[i][1] = i + ncores;
			}
		} else if (strcmp(w[0], "start") == 0 && n == 2)
			start = atof(w[1]);
		else if (strcmp(w[0], "length") == 0 && n == 2)
			length = duration(w[1]);
		else if (strcmp(w[0], "interval") == 0 && n == 2)
			interval = duration(w[1]);
		else if (strcmp(w[0], "archive") == 0 && n == 2)
			snprintf(first_archive, sizeof first_archive, "%s", w[1]);
		else if (strcmp(w[0], "digits") == 0 && n == 2 && atoi(w[1]) > 0 && atoi(w[1]) <= 17)
			digits = atoi(w[1]);
		else if (strcmp(w[0], "record") == 0 && n == 2)
			record_all = strcmp(w[1], "all") == 0;
		else if (strcmp(w[0], "load") == 0 && (n == 6 || n == 7))
			add_load(w[1], w[2], atof(w[3]), duration(w[4]), duration(w[5]), n == 7 ? w[6] : NULL);
		else if (strcmp(w[0], "daily") == 0 && n == 9) {
			double day0 = floor(start / 86400) * 86400 - start;
			int first = atoi(w[7]), days = atoi(w[8]);
			for (int d = first; d < first + days; d++)
				add_load(w[1], w[2], atof(w[3]) + d * atof(w[4]),
					 day0 + d * 86400 + duration(w[5]), day0 + d * 86400 + duration(w[6]), NULL);
		} else if (strcmp(w[0], "agent-restart") == 0 && n == 2 && nev < MAXEV)
			ev[nev].at = start + duration(w[1]), ev[nev++].kind = 0;
		else if (strcmp(w[0], "logger-restart") == 0 && n == 4 && nev < MAXEV) {
			ev[nev].at = start + duration(w[1]), ev[nev].gap = duration(w[2]);
			snprintf(ev[nev].path, sizeof ev[nev].path, "%s", w[3]);
			ev[nev++].kind = 1;
		} else if (strcmp(w[0], "mark") == 0 && n == 3 && nev < MAXEV)
			ev[nev].at = start + duration(w[1]), ev[nev].gap = duration(w[2]), ev[nev++].kind = 2;
		else
			die("bad line: %s", w[0]);
	}
	fclose(f);
	if (!ncores || start < 0 || length < 0 || !first_archive[0])
		die("%s needs machine, start, length and archive", file);
}

/* The loads on each CPU, in the pattern's order. */
static int cpu_loads[MAXCPU][MAXPERCPU], ncpu_loads[MAXCPU];

static void index_loads(void)
{
	for (int j = 0; j < nloads; j++)
		for (int k = 0; k < loads[j].n; k++) {
			int i = loads[j].cpus[k];
			if (ncpu_loads[i] == MAXPERCPU)
				die("more than 64 loads on a CPU%s", "");
			cpu_loads[i][ncpu_loads[i]++] = j;
		}
}

/* Integrate the counters over [t0, t1], no restart inside. */
struct stretch { double a, b; int load; };

static void integrate(double t0, double t1)
{
	static struct stretch st[MAXCPU][64];
	int nst[MAXCPU];
	double dt = t1 - t0;

	if (dt <= 0)
		return;
	for (int i = 0; i < ncpus; i++) {
		double cursor = t0;
		nst[i] = 0;
		for (int x = 0; x < ncpu_loads[i]; x++) {
			int j = cpu_loads[i][x];
			struct load *l = &loads[j];
			double a = l->from > t0 ? l->from : t0, b = l->to < t1 ? l->to : t1, s, e;
			if (b <= a)
				continue;
			s = a > cursor ? a : cursor;
			e = s + l->busy * (b - a);
			if (e > t1)
				e = t1;
			if (e <= s || nst[i] == 64)
				continue;
			st[i][nst[i]].a = s, st[i][nst[i]].b = e, st[i][nst[i]++].load = j;
			cursor = e;
		}
	}
	double dispatched = 0;
	for (int k = 0; k < ncores; k++) {
		double pts[8 * 64 * 2 + 2];
		int np = 0;
		double thr = 0;
		for (int t = 0; t < tpc; t++) {
			int i = cpu_of[k][t];
			for (int s = 0; s < nst[i]; s++)
				pts[np++] = st[i][s].a, pts[np++] = st[i][s].b;
		}
		/* sort the breakpoints */
		for (int x = 1; x < np; x++)
			for (int y = x; y > 0 && pts[y - 1] > pts[y]; y--) {
				double tmp = pts[y]; pts[y] = pts[y - 1]; pts[y - 1] = tmp;
			}
		for (int x = 0; x + 1 < np; x++) {
			double p = pts[x], q = pts[x + 1], mid = (p + q) / 2;
			int busy[8], kb = 0;
			if (q <= p)
				continue;
			for (int t = 0; t < tpc; t++) {
				int i = cpu_of[k][t];
				busy[t] = -1;
				for (int s = 0; s < nst[i]; s++)
					if (st[i][s].a <= mid && mid < st[i][s].b)
						busy[t] = st[i][s].load;
				kb += busy[t] >= 0;
			}
			if (kb == 0)
				continue;
			dispatched += q - p;
			for (int t = 0; t < tpc; t++) {
				int i = cpu_of[k][t];
				double ms;
				if (busy[t] < 0)
					continue;
				ms = (q - p) * 1000 * c[kb];
				cpu_thr[i] += ms;
				thr += ms;
				cpu_busy[i] += (q - p) * 1000;
				core_bt[k] += (q - p) * 1000;
				loads[busy[t]].thr += ms;
				loads[busy[t]].busyms += (q - p) * 1000;
			}
		}
		core_thr[k] += thr;
		core_cap[k] += dt * 1000;
		core_left[k] += dt * 1000 - thr > 0 ? dt * 1000 - thr : 0;
		for (int t = 0; t < tpc; t++)
			cpu_el[cpu_of[k][t]] += dt * 1000;
	}
	lpar_tbr += dt * 1e6;
	lpar_purr += (shared ? dispatched : ncores * dt) * 1e6;
	lpar_pool_idle += ((poolcores - others) * dt - dispatched) * 1e6;
}

static void agent_restart(double at)
{
	memset(cpu_thr, 0, sizeof cpu_thr), memset(cpu_busy, 0, sizeof cpu_busy);
	memset(cpu_el, 0, sizeof cpu_el), memset(core_thr, 0, sizeof core_thr);
	memset(core_cap, 0, sizeof core_cap), memset(core_left, 0, sizeof core_left);
	memset(core_bt, 0, sizeof core_bt);
	for (int j = 0; j < nloads; j++)
		loads[j].thr = loads[j].busyms = 0;
	agent_start = at;
}

/* metadata, from the PMDA */
struct mdesc { const char *name; int group; pmDesc d; int have; };
enum { G_CPU, G_CORE, G_ALL, G_CG, G_PROC, G_LPAR, G_LPARSH };
static struct mdesc md[] = {
	{ "smt.throughput_cpu", G_CPU }, { "smt.throughput_cpu_lower", G_CPU },
	{ "smt.throughput_cpu_upper", G_CPU }, { "smt.busy_cpu", G_CPU }, { "smt.elapsed_cpu", G_CPU },
	{ "smt.core.throughput_cpu", G_CORE }, { "smt.core.throughput_cpu_lower", G_CORE },
	{ "smt.core.throughput_cpu_upper", G_CORE }, { "smt.core.capacity", G_CORE },
	{ "smt.core.capacity_left", G_CORE }, { "smt.core.busy_threads", G_CORE },
	{ "smt.core.model_cpu", G_CORE }, { "smt.core.threads", G_CORE },
	{ "smt.all.throughput_cpu", G_ALL }, { "smt.all.throughput_cpu_lower", G_ALL },
	{ "smt.all.throughput_cpu_upper", G_ALL }, { "smt.all.capacity", G_ALL },
	{ "smt.all.capacity_left", G_ALL }, { "smt.all.ncores", G_ALL }, { "smt.all.ncpus", G_ALL },
	{ "smt.all.threads_per_core", G_ALL }, { "smt.all.model", G_ALL }, { "smt.all.busy_cpu", G_ALL },
	{ "smt.cgroup.throughput_cpu", G_CG }, { "smt.cgroup.throughput_cpu_lower", G_CG },
	{ "smt.cgroup.throughput_cpu_upper", G_CG }, { "smt.cgroup.busy_cpu", G_CG },
	{ "smt.proc.throughput_cpu", G_PROC }, { "smt.proc.throughput_cpu_lower", G_PROC },
	{ "smt.proc.throughput_cpu_upper", G_PROC }, { "smt.proc.busy_cpu", G_PROC },
	{ "lpar.purr", G_LPAR }, { "lpar.tbr", G_LPAR }, { "lpar.entitled_capacity", G_LPAR },
	{ "lpar.shared", G_LPAR }, { "lpar.capped", G_LPAR }, { "lpar.virtual_processors", G_LPAR },
	{ "lpar.pool.idle_time", G_LPARSH }, { "lpar.pool.cores", G_LPARSH },
};
#define NMD (int)(sizeof md / sizeof md[0])

/* libpcp_import's handle of each metric's instance number N (its value
 * + 1; 0 not yet asked), for this archive: pmiPutValue looks the instance
 * up by name among all the domain's, too slow for 1920 CPUs a sample. */
static int handles[NMD][MAXCPU];

static int wanted(const struct mdesc *m)
{
	if ((m->group == G_LPAR || m->group == G_LPARSH) && !power)
		return 0;
	if (m->group == G_LPARSH && !shared)
		return 0;
	if (record_all)
		return 1;
	return m->group == G_ALL || m->group == G_CG || m->group == G_LPAR || m->group == G_LPARSH ||
	       strcmp(m->name, "smt.busy_cpu") == 0;
}

static int metric_index(const char *name);

/* Labels as the live agent and pmcd give them: name and JSON value. */
struct label { char name[64], value[256]; };
#define MAXLABEL 16
static struct label context_labels[MAXLABEL], domain_labels[MAXLABEL], indom_labels[MAXLABEL];
static int ncontext_labels, ndomain_labels, nindom_labels;

static int copy_labels(pmLabelSet *sets, int nsets, struct label *out)
{
	int n = 0;

	for (int s = 0; s < nsets; s++)
		for (int i = 0; i < sets[s].nlabels && n < MAXLABEL; i++, n++) {
			const pmLabel *l = &sets[s].labels[i];
			snprintf(out[n].name, sizeof out[n].name, "%.*s", l->namelen, sets[s].json + l->name);
			/* (pmiPutLabel quotes every value but true, false and null
			 * itself: a string's quotes come off, and a number is
			 * written as a string, which libpcp_import cannot avoid) */
			const char *v = sets[s].json + l->value;
			int len = l->valuelen;
			if (len >= 2 && v[0] == '"')
				v++, len -= 2;
			snprintf(out[n].value, sizeof out[n].value, "%.*s", len, v);
		}
	if (nsets > 0)
		pmFreeLabelSets(sets, nsets);
	return n;
}

static void lookup_labels(pmInDom cpu_indom)
{
	pmLabelSet *sets;
	int n;

	if ((n = pmGetContextLabels(&sets)) < 0)
		die("pmGetContextLabels: %s", pmErrStr(n));
	ncontext_labels = copy_labels(sets, n, context_labels);
	if ((n = pmGetDomainLabels(pmInDom_domain(cpu_indom), &sets)) < 0)
		die("pmGetDomainLabels: %s", pmErrStr(n));
	ndomain_labels = copy_labels(sets, n, domain_labels);
	if ((n = pmGetInDomLabels(cpu_indom, &sets)) < 0)
		die("pmGetInDomLabels: %s", pmErrStr(n));
	nindom_labels = copy_labels(sets, n, indom_labels);
}

static void lookup(const char *host, const char *pmns)
{
	int ctx, sts;

	if (pmns && (sts = pmLoadASCIINameSpace(pmns, 1)) < 0)
		die("cannot load the PMNS: %s", pmErrStr(sts));
	if ((ctx = pmNewContext(PM_CONTEXT_HOST, host)) < 0)
		die("cannot reach the PMDA: %s", pmErrStr(ctx));
	for (int i = 0; i < NMD; i++) {
		pmID id;
		char *name = (char *)md[i].name;
		if (!wanted(&md[i]))
			continue;
		if ((sts = pmLookupName(1, (const char **)&name, &id)) < 0)
			die("pmLookupName: %s", md[i].name);
		if ((sts = pmLookupDesc(id, &md[i].d)) < 0)
			die("pmLookupDesc: %s", md[i].name);
		md[i].have = 1;
	}
	lookup_labels(md[metric_index("smt.busy_cpu")].d.indom);
	pmDestroyContext(ctx);
}

/* instance names, as the PMDA makes them */
static char cpuname[MAXCPU][16], corename[MAXCPU][16], procname[MAXLOAD][96];

static void check(int sts, const char *what)
{
	if (sts < 0) {
		fprintf(stderr, "mkcharge: %s: %s\n", what, pmiErrStr(sts));
		exit(1);
	}
}

/* A host's machine ID: 32 hex digits of its name's FNV-1a hashes. */
static void machine_id(char *out, size_t len)
{
	unsigned int h[4];

	for (int k = 0; k < 4; k++) {
		h[k] = 2166136261u ^ (unsigned int)k;
		for (const char *p = hostname; *p; p++)
			h[k] = (h[k] ^ (unsigned char)*p) * 16777619u;
	}
	snprintf(out, len, "%08x%08x%08x%08x", h[0], h[1], h[2], h[3]);
}

/* The labels, written with the first sample.  libpcp_import (6.0.3) keeps
 * one label set per type and ID and quotes every value: the domain's and
 * the instance domains' are as pmlogger records them; the CPUs' and cores'
 * own ({"cpu":N,"core":N,"socket":N}) cannot be written, one set each,
 * through it. */
static void put_labels(void)
{
	pmInDom cpus = md[metric_index("smt.busy_cpu")].d.indom;
	pmInDom cores = md[metric_index("smt.core.capacity")].d.indom;
	int have_cores = md[metric_index("smt.core.capacity")].have;
	char id[40];

	for (int i = 0; i < ncontext_labels; i++) {
		const char *name = context_labels[i].name, *value = context_labels[i].value;
		if (strcmp(name, "hostname") == 0)
			value = hostname;
		else if (strcmp(name, "machineid") == 0)
			machine_id(id, sizeof id), value = id;
		check(pmiPutLabel(PM_LABEL_CONTEXT, 0, 0, name, value), "context label");
	}
	for (int i = 0; i < ndomain_labels; i++)
		check(pmiPutLabel(PM_LABEL_DOMAIN, pmInDom_domain(cpus), 0, domain_labels[i].name,
				  domain_labels[i].value), "domain label");
	for (int i = 0; i < nindom_labels; i++) {
		check(pmiPutLabel(PM_LABEL_INDOM, cpus, 0, indom_labels[i].name, indom_labels[i].value), "indom label");
		if (have_cores)
			check(pmiPutLabel(PM_LABEL_INDOM, cores, 0, indom_labels[i].name, indom_labels[i].value),
			      "indom label");
	}
}

static void open_archive(const char *path)
{
	memset(handles, 0, sizeof handles);
	check(pmiStart(path, 0), path);
	check(pmiSetHostname(hostname), "pmiSetHostname");
	check(pmiSetTimezone("UTC"), "pmiSetTimezone");
	for (int i = 0; i < NMD; i++) {
		pmDesc *d = &md[i].d;
		if (!md[i].have)
			continue;
		check(pmiAddMetric(md[i].name, d->pmid, d->type, d->indom, d->sem, d->units), md[i].name);
	}
	for (int i = 0; i < NMD; i++) {
		pmInDom indom = md[i].d.indom;
		static pmInDom done[8];
		static int ndone, archives;
		int seen = 0;
		if (i == 0)
			ndone = 0, archives++;
		if (!md[i].have || indom == PM_INDOM_NULL)
			continue;
		for (int j = 0; j < ndone; j++)
			seen |= done[j] == indom;
		if (seen)
			continue;
		done[ndone++] = indom;
		switch (md[i].group) {
		case G_CPU:
			for (int k = 0; k < ncpus; k++)
				check(pmiAddInstance(indom, cpuname[k], k), "cpu instance");
			break;
		case G_CORE:
			for (int k = 0; k < ncores; k++)
				check(pmiAddInstance(indom, corename[k], cpu_of[k][0]), "core instance");
			break;
		case G_CG:
			for (int k = 0; k < ncg; k++)
				check(pmiAddInstance(indom, cgname[k], k + 1), "cgroup instance");
			break;
		case G_PROC:
			for (int k = 0; k < nloads; k++)
				if (loads[k].cg >= 0)
					check(pmiAddInstance(indom, procname[k], loads[k].pid), "process instance");
			break;
		}
	}	put_labels();
}

/* The metric NAME (a literal, known by its address after the first call). */
static int metric_index(const char *name)
{
	static const char *known[NMD];

	for (int i = 0; i < NMD; i++)
		if (known[i] == name)
			return i;
	for (int i = 0; i < NMD; i++)
		if (strcmp(md[i].name, name) == 0)
			return known[i] = name, i;
	die("no such metric here: %s", name);
	return -1;
}

/* NAME's value for instance INST (NULL: none), the N-th of its domain. */
static void put(const char *name, int n, const char *inst, double v, int integer)
{
	int m = metric_index(name), *h = &handles[m][n];
	char buf[64];
	int sts;

	if (!md[m].have)
		return;
	if (integer)
		snprintf(buf, sizeof buf, "%.0f", floor(v + 0.5));
	else
		snprintf(buf, sizeof buf, "%.*g", digits ? digits : 17, v);
	if (*h == 0) {
		if ((sts = pmiGetHandle(name, inst)) < 0) {
			fprintf(stderr, "mkcharge: pmiGetHandle %s[%s]: %s\n", name, inst ? inst : "", pmiErrStr(sts));
			exit(1);
		}
		*h = sts + 1;
	}
	if ((sts = pmiPutValueHandle(*h - 1, buf)) < 0) {
		fprintf(stderr, "mkcharge: pmiPutValue %s[%s]: %s\n", name, inst ? inst : "", pmiErrStr(sts));
		exit(1);
	}
}

static int present(const struct load *l, double t)
{
	return l->cg >= 0 && l->from < t && t <= l->to + RETIRE && l->to > agent_start;
}

static void sample(double t)
{
	double all_thr = 0, all_cap = 0, all_left = 0, all_busy = 0;
	char s[32];

	for (int i = 0; i < ncpus; i++) {
		put("smt.throughput_cpu", i, cpuname[i], cpu_thr[i], 0);
		put("smt.throughput_cpu_lower", i, cpuname[i], cpu_thr[i], 0);
		put("smt.throughput_cpu_upper", i, cpuname[i], cpu_thr[i], 0);
		put("smt.busy_cpu", i, cpuname[i], cpu_busy[i], 0);
		put("smt.elapsed_cpu", i, cpuname[i], cpu_el[i], 0);
		all_busy += cpu_busy[i];
	}
	for (int k = 0; k < ncores; k++) {
		put("smt.core.throughput_cpu", k, corename[k], core_thr[k], 0);
		put("smt.core.throughput_cpu_lower", k, corename[k], core_thr[k], 0);
		put("smt.core.throughput_cpu_upper", k, corename[k], core_thr[k], 0);
		put("smt.core.capacity", k, corename[k], core_cap[k], 0);
		put("smt.core.capacity_left", k, corename[k], core_left[k], 0);
		put("smt.core.busy_threads", k, corename[k], core_bt[k], 0);
		put("smt.core.model_cpu", k, corename[k], core_thr[k], 0);
		put("smt.core.threads", k, corename[k], tpc, 1);
		all_thr += core_thr[k], all_cap += core_cap[k], all_left += core_left[k];
	}
	put("smt.all.throughput_cpu", 0, NULL, all_thr, 0);
	put("smt.all.throughput_cpu_lower", 0, NULL, all_thr, 0);
	put("smt.all.throughput_cpu_upper", 0, NULL, all_thr, 0);
	put("smt.all.capacity", 0, NULL, all_cap, 0);
	put("smt.all.capacity_left", 0, NULL, all_left, 0);
	put("smt.all.ncores", 0, NULL, ncores, 1);
	put("smt.all.ncpus", 0, NULL, ncpus, 1);
	put("smt.all.threads_per_core", 0, NULL, tpc, 1);
	put("smt.all.busy_cpu", 0, NULL, all_busy, 0);
	for (int i = 0; i < NMD; i++)
		if (md[i].have && strcmp(md[i].name, "smt.all.model") == 0)
			check(pmiPutValue("smt.all.model", NULL,
					  !power ? "x86-smt2" : tpc == 4 ? "power7-smt4" : "power8-smt8"), "model");
	for (int g = 0; g < ncg; g++) {
		double thr = 0, busy = 0;
		int on = 0;
		for (int j = 0; j < nloads; j++)
			if (loads[j].cg == g) {
				thr += loads[j].thr, busy += loads[j].busyms;
				on |= present(&loads[j], t);
			}
		if (!on)
			continue;
		put("smt.cgroup.throughput_cpu", g, cgname[g], thr, 0);
		put("smt.cgroup.throughput_cpu_lower", g, cgname[g], thr, 0);
		put("smt.cgroup.throughput_cpu_upper", g, cgname[g], thr, 0);
		put("smt.cgroup.busy_cpu", g, cgname[g], busy, 0);
	}
	for (int j = 0; j < nloads; j++) {
		if (!present(&loads[j], t))
			continue;
		put("smt.proc.throughput_cpu", j, procname[j], loads[j].thr, 0);
		put("smt.proc.throughput_cpu_lower", j, procname[j], loads[j].thr, 0);
		put("smt.proc.throughput_cpu_upper", j, procname[j], loads[j].thr, 0);
		put("smt.proc.busy_cpu", j, procname[j], loads[j].busyms, 0);
	}
	if (power) {
		put("lpar.purr", 0, NULL, lpar_purr, 1);
		put("lpar.tbr", 0, NULL, lpar_tbr, 1);
		put("lpar.entitled_capacity", 0, NULL, ent, 0);
		put("lpar.shared", 0, NULL, shared, 1);
		put("lpar.capped", 0, NULL, 0, 1);
		put("lpar.virtual_processors", 0, NULL, ncores, 1);
		if (shared) {
			put("lpar.pool.idle_time", 0, NULL, lpar_pool_idle, 1);
			put("lpar.pool.cores", 0, NULL, poolcores, 1);
		}
	}
	snprintf(s, sizeof s, "%.0f", t);
	check(pmiWrite((int)floor(t), (int)((t - floor(t)) * 1e6)), s);
}

int main(int argc, char **argv)
{
	const char *host = NULL, *pmns = NULL;
	int o;

	pmSetProgname(argv[0]);
	while ((o = getopt(argc, argv, "h:n:")) != -1)
		switch (o) {
		case 'h': host = optarg; break;
		case 'n': pmns = optarg; break;
		default: die("usage: mkcharge -h unix:SOCKET [-n PMNS] PATTERN%s", "");
		}
	if (!host || optind != argc - 1)
		die("usage: mkcharge -h unix:SOCKET [-n PMNS] PATTERN%s", "");
	parse(argv[optind]);
	index_loads();
	lookup(host, pmns);
	for (int i = 0; i < ncpus; i++)
		snprintf(cpuname[i], sizeof cpuname[i], "cpu%d", i);
	for (int k = 0; k < ncores; k++)
		snprintf(corename[k], sizeof corename[k], "core%d", cpu_of[k][0]);
	for (int j = 0; j < nloads; j++)
		snprintf(procname[j], sizeof procname[j], "%06d %s", loads[j].pid, loads[j].command);
	/* counters since boot: the kernel's ten days up, the agent's from its start */
	lpar_tbr = 864000e6;
	lpar_purr = (shared ? 0.5 : ncores) * 864000e6;
	lpar_pool_idle = (poolcores - others - 0.5) * 864000e6;
	/* a load from before the start (FROM negative) has run, and the agent
	 * with it, since then: the first sample holds its charge so far */
	double t = start, prev = start, end = start + length;
	for (int j = 0; j < nloads; j++)
		if (loads[j].from < prev)
			prev = loads[j].from;
	agent_start = prev;
	open_archive(first_archive);
	while (t <= end + 1e-9) {
		/* integrate up to t, through any agent restart on the way */
		double from = prev;
		for (int e = 0; e < nev; e++)
			if (ev[e].kind == 0 && ev[e].at > from && ev[e].at <= t) {
				integrate(from, ev[e].at);
				agent_restart(ev[e].at);
				from = ev[e].at;
			}
		integrate(from, t);
		sample(t);
		prev = t;
		double next = t + interval;
		for (int e = 0; e < nev; e++)
			if (ev[e].kind != 0 && ev[e].at >= t && ev[e].at < next) {
				next = ev[e].at + ev[e].gap;
				if (ev[e].kind == 1) {
					check(pmiEnd(), "pmiEnd");
					open_archive(ev[e].path);
				} else
					check(pmiPutMark(), "pmiPutMark");
			}
		t = next;
	}
	check(pmiEnd(), "pmiEnd");
	return 0;
}
