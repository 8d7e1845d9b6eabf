/*
 * How accurately DRAM bandwidth comes out of 8 channel events on 4 Data
 * Fabric counters, by scheme, against known per-channel traffic.
 *
 * Ground truth: per-channel bytes in 0.5 ms bins for 60 s, three traces:
 *   steady  every channel busy at its own rate (interleaving is never
 *           perfectly even: ±30% between channels), ±5% noise per bin
 *   bursts  a light background and 10 ms bursts, about 20 a second, each on
 *           a random set of channels
 *   phases  traffic moving between channel sets (0-3 heavy, 4-7 heavy,
 *           even) every 2 to 7 s
 * Schemes, each estimating the socket's bytes per 1 s sampling interval:
 *   smtcpu  the library's plan (mux_plan: 2 groups of 4) rotated by the
 *           kernel every perf_event_mux_interval_ms (4 ms, random phase):
 *           each group counts while it is on the counters, and the
 *           library's mux_estimate turns (count, enabled, running) into
 *           the estimate
 *   likwid  LIKWID's zen2 MEM group: channels 0-1 only, times 4
 *   ear     EAR: channels 0-3 or 4-7, alternating every 5 s, times 2
 *   ch0-3   channels 0-3 only, times 2
 * Printed: the mean and worst relative error of the socket's bytes per
 * interval, and for smtcpu the mean error per channel too; twice, with the
 * 4 xGMI link events off ("xgmi off") and on, when on Zen2/Zen3 they make
 * a third group of 4 that takes its turn on the counters (the library's
 * plan for them: mux_plan(4 links, 1 event, 4 counters)), so each DRAM
 * group counts a third of the time instead of half.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux.h"

#define CH 8
#define BIN_MS 0.5
#define SECONDS 60
#define BINS_PER_S 2000
#define NBINS (SECONDS * BINS_PER_S)
#define ROTATE_BINS 8		/* 4 ms */

static double truth[NBINS][CH];	/* bytes per bin */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static double per_bin(double gbs)
{
	return gbs * 1e9 * BIN_MS / 1000;
}

static void make_steady(void)
{
	for (int b = 0; b < NBINS; b++)
		for (int c = 0; c < CH; c++)
			truth[b][c] = per_bin(10 * (1 + 0.3 * sin(c))) * (0.95 + 0.1 * uniform());
}

static void make_bursts(void)
{
	for (int b = 0; b < NBINS; b++)
		for (int c = 0; c < CH; c++)
			truth[b][c] = per_bin(2) * (0.9 + 0.2 * uniform());
	for (int b = 0; b < NBINS; b++) {
		if (uniform() >= 20.0 / BINS_PER_S)
			continue;
		unsigned mask = 1 + (unsigned)(uniform() * 255);
		for (int k = b; k < b + 20 && k < NBINS; k++)	/* 10 ms */
			for (int c = 0; c < CH; c++)
				if (mask >> c & 1)
					truth[k][c] += per_bin(20);
	}
}

static void make_phases(void)
{
	int b = 0, phase = 0;

	while (b < NBINS) {
		int len = (int)((2 + 5 * uniform()) * BINS_PER_S);
		for (int k = b; k < b + len && k < NBINS; k++)
			for (int c = 0; c < CH; c++) {
				double gbs = phase == 2 ? 8 : (c < 4) == (phase == 0) ? 15 : 1;
				truth[k][c] = per_bin(gbs) * (0.95 + 0.1 * uniform());
			}
		b += len;
		phase = (phase + 1) % 3;
	}
}

struct errors {
	double sum, worst;
	int n;
};

static void note(struct errors *e, double est, double want)
{
	double err = fabs(est - want) / want;

	e->sum += err;
	e->worst = err > e->worst ? err : e->worst;
	e->n++;
}

struct result {
	struct errors smtcpu, smtcpu_channel, likwid, ear, ch03;
};

static void run(struct result *r, int links)
{
	int group_of[CH], link_group[4], ngroups = mux_plan(CH, 1, 4, group_of);
	int rotating = ngroups + (links ? mux_plan(4, 1, 4, link_group) : 0);
	int phase = (int)(uniform() * ROTATE_BINS * rotating);
	struct ctr_reading last[CH], now[CH];
	double count[CH] = { 0 };
	uint64_t enabled = 0, running[CH] = { 0 };

	memset(r, 0, sizeof *r);
	memset(last, 0, sizeof last);
	for (int s = 0; s < SECONDS; s++) {
		double want = 0, chan[CH] = { 0 }, likwid = 0, ear = 0, ch03 = 0, est = 0;

		for (int b = s * BINS_PER_S; b < (s + 1) * BINS_PER_S; b++) {
			int on = (b + phase) / ROTATE_BINS % rotating;	/* the group on the counters */

			for (int c = 0; c < CH; c++) {
				want += truth[b][c];
				chan[c] += truth[b][c];
				if (group_of[c] == on) {
					count[c] += truth[b][c];
					running[c] += 500000;	/* ns */
				}
			}
			enabled += 500000;
		}
		for (int c = 0; c < CH; c++) {
			double e, duty;

			now[c].enabled = enabled;
			now[c].running = running[c];
			now[c].value[0] = (uint64_t)(count[c] / 64) & ((UINT64_C(1) << 48) - 1);
			if (mux_estimate(&last[c], &now[c], 1, &e, &duty) == MUX_COUNTED) {
				note(&r->smtcpu_channel, e * 64, chan[c]);
				est += e * 64;
			}
			last[c] = now[c];
			likwid += c < 2 ? 4 * chan[c] : 0;
			ear += (c < 4) == (s / 5 % 2 == 0) ? 2 * chan[c] : 0;
			ch03 += c < 4 ? 2 * chan[c] : 0;
		}
		note(&r->smtcpu, est, want);
		note(&r->likwid, likwid, want);
		note(&r->ear, ear, want);
		note(&r->ch03, ch03, want);
	}
}

static void print(const char *name, const struct result *r)
{
	const struct errors *e[] = { &r->smtcpu, &r->likwid, &r->ear, &r->ch03 };

	printf("%-8s", name);
	for (int i = 0; i < 4; i++)
		printf("  %6.2f%% %6.1f%%", 100 * e[i]->sum / e[i]->n, 100 * e[i]->worst);
	printf("  %9.2f%%\n", 100 * r->smtcpu_channel.sum / r->smtcpu_channel.n);
}

static void table(int links)
{
	struct result r;

	printf("\nDRAM bandwidth per 1 s interval, 8 channels on 4 DF counters, %s, %d s of "
	       "traffic:\nmean and worst relative error of the socket's bytes\n\n", links ?
	       "xGMI links on (4 more events: 3 groups rotate)" : "xGMI links off (2 groups rotate)",
	       SECONDS);
	printf("%-8s  %-15s  %-15s  %-15s  %-15s  %s\n", "trace", "smtcpu", "likwid(0-1x4)",
	       "ear(4+4/5s)", "ch0-3x2", "smtcpu/channel");
	printf("%-8s", "");
	for (int i = 0; i < 4; i++)
		printf("  %7s %7s", "mean", "worst");
	printf("  %10s\n", "mean");
	make_steady();
	run(&r, links);
	print("steady", &r);
	make_bursts();
	run(&r, links);
	print("bursts", &r);
	make_phases();
	run(&r, links);
	print("phases", &r);
}

int main(void)
{
	table(0);
	table(1);
	return 0;
}
