/*
 * mkmonth HOST DIR [DAYS]: DAYS (30) days of 10-second records of smtcpu's
 * report metrics for a 256-CPU host (128 cores, SMT2: the epyc-2s fixture
 * the agent runs on) with 200 services, one archive a day in DIR as a
 * pmlogger farm keeps them (DIR/YYYYMMDD.00.00), for qa/bench/report.
 *
 * Every metric's PMID, type, instance domain, semantics and units are
 * smtcpu's own, looked up through PMAPI from HOST (a pmcd running the
 * agent on that fixture, e.g. unix:SOCKET), and so are the CPUs'
 * instances; the services' instances (/system.slice/svcNNN.service) are
 * made here, in the agent's cgroup domain.
 *
 * The counters (ms) grow as the agent's do: capacity by ncores x 10,000 a
 * record; each CPU's busy time from a busy fraction drawn around a daily
 * load (office hours on weekdays, less at weekends, a night batch); each
 * core's throughput from its two threads' fractions (one thread alone 0.625
 * of the core, both the whole core); capacity_left = capacity - throughput;
 * lower and upper 3% either side; the services share 85% of the throughput
 * (their sum never above it), by a Zipf-like weight and one of four daily
 * shapes, their busy time in the system's busy/throughput ratio.  The
 * agent runs throughout: the counters go on from one day's archive to the
 * next.  Deterministic: the same source writes the same archives.
 * Prints what a reader should sum over the archives' covered intervals
 * (core-hours: capacity, throughput, idle, all services, svc000; busy
 * CPU-hours).
 */
#include <pcp/pmapi.h>
#include <pcp/import.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define NCPUS 256
#define NCORES 128
#define NSVCS 200
#define STEP 10			/* seconds a record */
#define START 1717200000	/* 2024-06-01 00:00:00 UTC, a Saturday */

enum metric {
	M_CAPACITY, M_LEFT, M_THROUGHPUT, M_LOWER, M_UPPER, M_NCORES, M_NCPUS,
	M_BUSY, M_SVC_THROUGHPUT, M_SVC_LOWER, M_SVC_UPPER, M_SVC_BUSY, NMETRICS
};

static const char *names[NMETRICS] = {
	"smt.all.capacity", "smt.all.capacity_left", "smt.all.throughput_cpu",
	"smt.all.throughput_cpu_lower", "smt.all.throughput_cpu_upper", "smt.all.ncores",
	"smt.all.ncpus", "smt.busy_cpu", "smt.cgroup.throughput_cpu",
	"smt.cgroup.throughput_cpu_lower", "smt.cgroup.throughput_cpu_upper", "smt.cgroup.busy_cpu",
};

static pmID pmids[NMETRICS];
static pmDesc descs[NMETRICS];
static int cpu_inst[NCPUS];
static char *cpu_name[NCPUS];

static void die(const char *what, int sts)
{
	fprintf(stderr, "mkmonth: %s: %s\n", what, sts < 0 ? pmErrStr(sts) : "failed");
	exit(1);
}

static void die_pmi(const char *what, int sts)
{
	fprintf(stderr, "mkmonth: %s: %s\n", what, pmiErrStr(sts));
	exit(1);
}

/* The metadata and the CPUs' instances from the agent. */
static void look_up(const char *host)
{
	int ctx, sts, *insts;
	char **inames;

	if ((ctx = pmNewContext(PM_CONTEXT_HOST, host)) < 0)
		die(host, ctx);
	if ((sts = pmLookupName(NMETRICS, names, pmids)) != NMETRICS)
		die("pmLookupName", sts < 0 ? sts : -1);
	for (int m = 0; m < NMETRICS; m++)
		if ((sts = pmLookupDesc(pmids[m], &descs[m])) < 0)
			die(names[m], sts);
	if (descs[M_BUSY].indom == PM_INDOM_NULL || descs[M_SVC_BUSY].indom == PM_INDOM_NULL)
		die("smt.busy_cpu or smt.cgroup.busy_cpu has no instance domain", -1);
	if ((sts = pmGetInDom(descs[M_BUSY].indom, &insts, &inames)) != NCPUS) {
		fprintf(stderr, "mkmonth: %s: %d CPUs, not %d (the agent on the epyc-2s fixture?)\n", host,
			sts, NCPUS);
		exit(1);
	}
	for (int i = 0; i < NCPUS; i++) {
		cpu_inst[i] = insts[i];
		cpu_name[i] = strdup(inames[i]);
	}
	free(insts);
	free(inames);
	pmDestroyContext(ctx);
}

/* The record: every metric's value set, and where each value is. */
static pmResult *res;

static int nvalues(int m)
{
	return m == M_BUSY ? NCPUS : m >= M_SVC_THROUGHPUT ? NSVCS : 1;
}

static void make_result(void)
{
	res = calloc(1, sizeof *res + NMETRICS * sizeof res->vset[0]);
	if (res == NULL)
		die("out of memory", -1);
	res->numpmid = NMETRICS;
	for (int m = 0; m < NMETRICS; m++) {
		int n = nvalues(m);
		pmValueSet *vs = calloc(1, sizeof *vs + (size_t)n * sizeof vs->vlist[0]);

		if (vs == NULL)
			die("out of memory", -1);
		vs->pmid = pmids[m];
		vs->numval = n;
		switch (descs[m].type) {
		case PM_TYPE_32:
		case PM_TYPE_U32:
			vs->valfmt = PM_VAL_INSITU;
			break;
		case PM_TYPE_FLOAT:
		case PM_TYPE_64:
		case PM_TYPE_U64:
		case PM_TYPE_DOUBLE:
			vs->valfmt = PM_VAL_DPTR;
			for (int j = 0; j < n; j++) {
				pmValueBlock *vb = calloc(1, PM_VAL_HDR_SIZE + 8);

				if (vb == NULL)
					die("out of memory", -1);
				vb->vtype = descs[m].type;
				vb->vlen = PM_VAL_HDR_SIZE + (descs[m].type == PM_TYPE_FLOAT ? 4 : 8);
				vs->vlist[j].value.pval = vb;
			}
			break;
		default:
			fprintf(stderr, "mkmonth: %s: type %d not handled\n", names[m], descs[m].type);
			exit(1);
		}
		for (int j = 0; j < n; j++)
			vs->vlist[j].inst = m == M_BUSY ? cpu_inst[j] : m >= M_SVC_THROUGHPUT ? j + 1 : (int)PM_IN_NULL;
		res->vset[m] = vs;
	}
}

/* Value j of metric m, in the metric's own type. */
static void put(int m, int j, double v)
{
	pmValue *pv = &res->vset[m]->vlist[j];

	switch (descs[m].type) {
	case PM_TYPE_32: pv->value.lval = (int32_t)v; break;
	case PM_TYPE_U32: pv->value.lval = (int)(uint32_t)v; break;
	case PM_TYPE_FLOAT: { float f = (float)v; memcpy(pv->value.pval->vbuf, &f, 4); break; }
	case PM_TYPE_64: { int64_t x = (int64_t)v; memcpy(pv->value.pval->vbuf, &x, 8); break; }
	case PM_TYPE_U64: { uint64_t x = (uint64_t)v; memcpy(pv->value.pval->vbuf, &x, 8); break; }
	default: memcpy(pv->value.pval->vbuf, &v, 8); break;
	}
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void)	/* [0, 1), xorshift64* */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

/* 0 outside 7:00-20:00, a sine's hump within, peaking at 13:30. */
static double hump(double hour)
{
	hour = fmod(hour + 48, 24);
	return hour < 7 || hour > 20 ? 0 : sin(M_PI * (hour - 7) / 13);
}

static double load(double t)	/* the host's mean busy fraction at t */
{
	double hour = fmod(t, 86400) / 3600;
	int weekday = ((int)(t / 86400) + 4) % 7;	/* 1970-01-01 a Thursday: 0 Sunday */
	double l = 0.12 + 0.6 * hump(hour) + 0.1 * hump(hour - 11);	/* and an evening tail */

	return weekday == 0 || weekday == 6 ? 0.5 * l + 0.05 : l;
}

static double svc_shape(int j, double t)
{
	double hour = fmod(t, 86400) / 3600;

	switch (j % 4) {
	case 0: case 3: return 0.1 + load(t);		/* follows the users */
	case 1: return 0.05 + hump(hour + 12);		/* the night's batch */
	default: return 0.3;				/* flat */
	}
}

struct state {
	double cap, left, thr, lower, upper, busy[NCPUS];
	double svc[NSVCS][4];	/* throughput, lower, upper, busy */
	double weight[NSVCS];
};

static void start_state(struct state *s)
{
	double up = 5 * 86400.0 * 1000;	/* the agent started five days before */
	double wsum = 0;

	memset(s, 0, sizeof *s);
	s->cap = up * NCORES;
	s->thr = 0.3 * s->cap;
	s->lower = 0.97 * s->thr;
	s->upper = 1.03 * s->thr;
	s->left = s->cap - s->thr;
	for (int i = 0; i < NCPUS; i++)
		s->busy[i] = 0.35 * up;
	for (int j = 0; j < NSVCS; j++)
		wsum += s->weight[j] = 1 / pow(j + 1, 0.9);
	for (int j = 0; j < NSVCS; j++) {
		s->svc[j][0] = 0.85 * s->thr * s->weight[j] / wsum;
		s->svc[j][1] = 0.97 * s->svc[j][0];
		s->svc[j][2] = 1.03 * s->svc[j][0];
		s->svc[j][3] = 1.2 * s->svc[j][0];
	}
}

/* What a reader should find: the growth over the intervals within a day's
 * archive (the one from the last record of a day to the first of the next
 * spans two archives, a break), hours of a core. */
static struct { double cap, thr, left, svc, svc0, busy; } truth;

/* One 10 s step of every counter; counted where the step is within an
 * archive. */
static void step(struct state *s, double t, int counted)
{
	double l = load(t), dthr = 0, dbusy = 0, dcap = NCORES * STEP * 1000.0, raw[NSVCS], rsum = 0, scale;

	for (int c = 0; c < NCORES; c++) {
		double b[2];

		for (int k = 0; k < 2; k++) {
			b[k] = l * (0.7 + 0.6 * uniform());
			b[k] = b[k] > 1 ? 1 : b[k];
			s->busy[2 * c + k] += b[k] * STEP * 1000;
			dbusy += b[k] * STEP * 1000;
		}
		dthr += (0.625 * (b[0] + b[1]) - 0.25 * b[0] * b[1]) * STEP * 1000;
	}
	s->cap += dcap;
	s->thr += dthr;
	s->left += dcap - dthr;
	s->lower += 0.97 * dthr;
	s->upper += fmin(1.03 * dthr, dcap);
	for (int j = 0; j < NSVCS; j++)
		rsum += raw[j] = s->weight[j] * svc_shape(j, t) * (0.9 + 0.2 * uniform());
	scale = 0.85 * dthr / rsum;
	for (int j = 0; j < NSVCS; j++) {
		double g = raw[j] * scale;

		s->svc[j][0] += g;
		s->svc[j][1] += 0.97 * g;
		s->svc[j][2] += 1.03 * g;
		s->svc[j][3] += g * dbusy / dthr;
		if (counted)
			truth.svc += g / 3.6e6;
	}
	if (counted) {
		truth.cap += dcap / 3.6e6;
		truth.thr += dthr / 3.6e6;
		truth.left += (dcap - dthr) / 3.6e6;
		truth.busy += dbusy / 3.6e6;
		truth.svc0 += raw[0] * scale / 3.6e6;
	}
}

static void record(const struct state *s, double t)
{
#if defined(PMAPI_VERSION_3) && PMAPI_VERSION == PMAPI_VERSION_3
	res->timestamp.tv_sec = (time_t)t;
	res->timestamp.tv_nsec = 0;
#else
	res->timestamp.tv_sec = (time_t)t;
	res->timestamp.tv_usec = 0;
#endif
	put(M_CAPACITY, 0, s->cap);
	put(M_LEFT, 0, s->left);
	put(M_THROUGHPUT, 0, s->thr);
	put(M_LOWER, 0, s->lower);
	put(M_UPPER, 0, s->upper);
	put(M_NCORES, 0, NCORES);
	put(M_NCPUS, 0, NCPUS);
	for (int i = 0; i < NCPUS; i++)
		put(M_BUSY, i, s->busy[i]);
	for (int j = 0; j < NSVCS; j++)
		for (int k = 0; k < 4; k++)
			put(M_SVC_THROUGHPUT + k, j, s->svc[j][k]);
}

int main(int argc, char **argv)
{
	struct state *s = malloc(sizeof *s);
	int days = argc > 3 ? atoi(argv[3]) : 30, sts;

	if (argc < 3 || days < 1 || s == NULL) {
		fprintf(stderr, "usage: mkmonth HOST DIR [DAYS]\n");
		return 2;
	}
	look_up(argv[1]);
	make_result();
	start_state(s);
	mkdir(argv[2], 0755);
	for (int d = 0; d < days; d++) {
		time_t day = START + (time_t)d * 86400;
		char path[4096], stamp[32];

		strftime(stamp, sizeof stamp, "%Y%m%d", gmtime(&day));
		snprintf(path, sizeof path, "%s/%s.00.00", argv[2], stamp);
		if ((sts = pmiStart(path, 0)) < 0)
			die_pmi(path, sts);
		if ((sts = pmiSetHostname("bench256")) < 0 || (sts = pmiSetTimezone("UTC")) < 0)
			die_pmi("pmiSetHostname", sts);
		for (int m = 0; m < NMETRICS; m++)
			if ((sts = pmiAddMetric(names[m], pmids[m], descs[m].type, descs[m].indom, descs[m].sem,
						descs[m].units)) < 0)
				die_pmi(names[m], sts);
		for (int i = 0; i < NCPUS; i++)
			if ((sts = pmiAddInstance(descs[M_BUSY].indom, cpu_name[i], cpu_inst[i])) < 0)
				die_pmi(cpu_name[i], sts);
		for (int j = 0; j < NSVCS; j++) {
			char name[64];

			snprintf(name, sizeof name, "/system.slice/svc%03d.service", j);
			if ((sts = pmiAddInstance(descs[M_SVC_BUSY].indom, name, j + 1)) < 0)
				die_pmi(name, sts);
		}
		for (int r = 0; r < 86400 / STEP; r++) {
			double t = (double)day + r * STEP;

			/* every step counts, midnight's too: the archives change
			 * there, but the counters run on, and pcp-smtcpu crosses
			 * a break that short */
			if (r > 0 || d > 0)
				step(s, t, 1);
			record(s, t);
			if ((sts = pmiPutResult(res)) < 0)
				die_pmi("pmiPutResult", sts);
		}
		if ((sts = pmiEnd()) < 0)
			die_pmi("pmiEnd", sts);
	}
	printf("capacity_h %.4f\nthroughput_h %.4f\nidle_h %.4f\nservices_h %.4f\nsvc000_h %.4f\nbusy_h %.4f\n",
	       truth.cap, truth.thr, truth.left, truth.svc, truth.svc0, truth.busy);
	return 0;
}
