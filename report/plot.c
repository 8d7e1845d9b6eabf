/*
 * Drawing the reports.  A canvas is a cairo surface of the file's kind; the
 * frame maps time and cores to it.  The few largest services get their own
 * colour and the rest share one, so that the picture reads without the table.
 */
#include "plot.h"
#include "report_out.h"

#include <stdio.h>

#ifdef SMTCPU_NO_PLOT
/* A build without cairo's headers (the ppc64el cross build). */
static int no_plot(const char *file)
{
	fprintf(stderr, "pcp-smtcpu: --plot %s: this pcp-smtcpu was built without cairo (libcairo2-dev)\n", file);
	return -1;
}

int plot_chargeback(const char *file, const struct sample_reader *r, const struct charge_table *t)
{
	(void)r;
	(void)t;
	return no_plot(file);
}

int plot_capacity(const char *file, const struct sample_reader *r, const struct capacity_report *c)
{
	(void)r;
	(void)c;
	return no_plot(file);
}
#else
#include <cairo.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define WIDTH 1000
#define HEIGHT 560
#define LEFT 70
#define RIGHT 260
#define TOP 50
#define BOTTOM 60
#define MAX_SERVICES 7

static const double palette[MAX_SERVICES + 1][3] = {
	{ 0.12, 0.47, 0.71 }, { 1.00, 0.50, 0.05 }, { 0.17, 0.63, 0.17 }, { 0.84, 0.15, 0.16 },
	{ 0.58, 0.40, 0.74 }, { 0.55, 0.34, 0.29 }, { 0.89, 0.47, 0.76 }, { 0.62, 0.62, 0.62 },
};

struct frame {
	cairo_surface_t *surface;
	cairo_t *cr;
	double x0, x1, y0, y1;		/* data ranges */
	bool png;
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static int open_frame(struct frame *f, const char *file)
{
	memset(f, 0, sizeof *f);
	if (ends_with(file, ".png")) {
		f->png = true;
		f->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
	} else if (ends_with(file, ".svg"))
		f->surface = cairo_svg_surface_create(file, WIDTH, HEIGHT);
	else {
		fprintf(stderr, "pcp-smtcpu: --plot %s: the file's name must end in .png or .svg\n", file);
		return -1;
	}
	if (cairo_surface_status(f->surface) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "pcp-smtcpu: --plot %s: %s\n", file,
			cairo_status_to_string(cairo_surface_status(f->surface)));
		cairo_surface_destroy(f->surface);
		return -1;
	}
	f->cr = cairo_create(f->surface);
	cairo_set_source_rgb(f->cr, 1, 1, 1);
	cairo_paint(f->cr);
	cairo_select_font_face(f->cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(f->cr, 12);
	return 0;
}

static int close_frame(struct frame *f, const char *file)
{
	cairo_status_t sts;

	cairo_destroy(f->cr);
	cairo_surface_flush(f->surface);
	sts = f->png ? cairo_surface_write_to_png(f->surface, file) : cairo_surface_status(f->surface);
	cairo_surface_finish(f->surface);
	if (sts == CAIRO_STATUS_SUCCESS)
		sts = cairo_surface_status(f->surface);
	cairo_surface_destroy(f->surface);
	if (sts != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "pcp-smtcpu: --plot %s: %s\n", file, cairo_status_to_string(sts));
		return -1;
	}
	return 0;
}

static double px(const struct frame *f, double x)
{
	return LEFT + (x - f->x0) / (f->x1 - f->x0) * (WIDTH - LEFT - RIGHT);
}

static double py(const struct frame *f, double y)
{
	return HEIGHT - BOTTOM - (y - f->y0) / (f->y1 - f->y0) * (HEIGHT - TOP - BOTTOM);
}

static void text(cairo_t *cr, double x, double y, const char *s)
{
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

/* A round step near range / 6. */
static double tick_step(double range)
{
	double raw = range / 6, p = pow(10, floor(log10(raw)));

	return raw / p < 2 ? p : raw / p < 5 ? 2 * p : 5 * p;
}

/* Axes, the y ticks in cores, the x ticks by xlabel. */
static void axes(struct frame *f, const char *title, const char *ylabel,
		 void (*xlabel)(double x, char *buf, size_t len), double xstep)
{
	cairo_t *cr = f->cr;
	double step = tick_step(f->y1 - f->y0);
	char buf[64];

	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 15);
	text(cr, LEFT, 28, title);
	cairo_set_font_size(cr, 11);
	cairo_set_line_width(cr, 1);
	for (double y = f->y0; y <= f->y1 + 1e-9; y += step) {
		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
		cairo_move_to(cr, LEFT, py(f, y));
		cairo_line_to(cr, WIDTH - RIGHT, py(f, y));
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof buf, "%g", y);
		text(cr, LEFT - 8 - 7.0 * strlen(buf), py(f, y) + 4, buf);
	}
	for (double x = f->x0; x <= f->x1 + 1e-9; x += xstep) {
		xlabel(x, buf, sizeof buf);
		cairo_set_source_rgb(cr, 0, 0, 0);
		text(cr, px(f, x) - 3.2 * strlen(buf), HEIGHT - BOTTOM + 18, buf);
		cairo_move_to(cr, px(f, x), HEIGHT - BOTTOM);
		cairo_line_to(cr, px(f, x), HEIGHT - BOTTOM + 5);
		cairo_stroke(cr);
	}
	cairo_rectangle(cr, LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM);
	cairo_stroke(cr);
	cairo_save(cr);
	cairo_move_to(cr, 18, (HEIGHT - BOTTOM + TOP) / 2.0 + 60);
	cairo_rotate(cr, -M_PI / 2);
	cairo_show_text(cr, ylabel);
	cairo_restore(cr);
}

static void legend(cairo_t *cr, int i, const double *rgb, bool line, const char *label)
{
	double x = WIDTH - RIGHT + 16, y = TOP + 10 + 22 * i;

	if (rgb == NULL) {	/* hatched: the bounds */
		cairo_set_source_rgba(cr, 0, 0, 0, 0.25);
		cairo_rectangle(cr, x, y - 9, 18, 12);
		cairo_fill(cr);
	} else if (line) {
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cairo_set_line_width(cr, 2.5);
		cairo_move_to(cr, x, y - 3);
		cairo_line_to(cr, x + 18, y - 3);
		cairo_stroke(cr);
	} else {
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cairo_rectangle(cr, x, y - 9, 18, 12);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0, 0, 0);
	text(cr, x + 26, y + 1, label);
}

static double chart_start, chart_hours;

/* HH:MM, with seconds on a window shorter than an hour; the date on one of days. */
static void clock_label(double x, char *buf, size_t len)
{
	char t[32];

	out_time(t, sizeof t, chart_start + x * 3600);
	if (chart_hours > 48)
		snprintf(buf, len, "%.5s", t + 5);
	else
		snprintf(buf, len, "%.*s", chart_hours < 1 ? 8 : 5, t + 11);
}

/* Bucket b's value of series s, 0 where not covered. */
static double at(const double *s, int b)
{
	return isnan(s[b]) ? 0 : s[b];
}

int plot_chargeback(const char *file, const struct sample_reader *r, const struct charge_table *t)
{
	double base[TIMELINE_BUCKETS] = { 0 }, rest[TIMELINE_BUCKETS] = { 0 }, top = 0, hours;
	const struct charge_row *shown[MAX_SERVICES + 2];
	int nshown = 0, nrest = 0;
	struct frame f;
	char buf[160], a[32], b[32];

	if (open_frame(&f, file) < 0)
		return -1;
	for (int i = 0; i < t->nrows; i++) {
		const struct charge_row *row = &t->rows[i];

		if (row->kind == ROW_IDLE)
			continue;
		if (row->kind == ROW_SERVICE && nshown >= MAX_SERVICES - 1) {
			for (int k = 0; k < TIMELINE_BUCKETS; k++)
				rest[k] += at(row->timeline, k);
			nrest++;
			continue;
		}
		shown[nshown++] = row;
	}
	hours = t->bucket_width * TIMELINE_BUCKETS / 3600;
	chart_start = t->bucket_start;
	chart_hours = hours;
	f.x0 = 0;
	f.x1 = hours;
	for (int k = 0; k < TIMELINE_BUCKETS; k++)
		top = fmax(top, fmax(at(t->timeline_capacity, k), at(t->timeline_upper, k)));
	f.y0 = 0;
	f.y1 = top > 0 ? top * 1.1 : 1;
	out_time(a, sizeof a, r->start);
	out_time(b, sizeof b, r->end);
	snprintf(buf, sizeof buf, "%s: SMT-calibrated cores by service, %s to %s", r->host, a, b + 11);
	axes(&f, buf, "cores (SMT-calibrated)", clock_label, tick_step(hours));

	/* the stack, services first, then the rest of the services, then other */
	for (int s = 0; s <= nshown; s++) {
		const double *rgb;
		const double *series;

		if (s == nshown) {
			if (nrest == 0)
				continue;
			series = rest;
			rgb = palette[MAX_SERVICES];
		} else {
			series = shown[s]->timeline;
			rgb = shown[s]->kind == ROW_OTHER ? palette[MAX_SERVICES] : palette[s % MAX_SERVICES];
		}
		cairo_set_source_rgb(f.cr, rgb[0], rgb[1], rgb[2]);
		cairo_move_to(f.cr, px(&f, 0), py(&f, base[0]));
		for (int k = 0; k < TIMELINE_BUCKETS; k++) {
			double x0 = k * t->bucket_width / 3600, x1 = (k + 1) * t->bucket_width / 3600;
			double y = base[k] + at(series, k);

			cairo_line_to(f.cr, px(&f, x0), py(&f, y));
			cairo_line_to(f.cr, px(&f, x1), py(&f, y));
		}
		for (int k = TIMELINE_BUCKETS - 1; k >= 0; k--) {
			cairo_line_to(f.cr, px(&f, (k + 1) * t->bucket_width / 3600), py(&f, base[k]));
			cairo_line_to(f.cr, px(&f, k * t->bucket_width / 3600), py(&f, base[k]));
		}
		cairo_close_path(f.cr);
		cairo_fill(f.cr);
		for (int k = 0; k < TIMELINE_BUCKETS; k++)
			base[k] += at(series, k);
		if (s == nshown)
			snprintf(buf, sizeof buf, "%d more services", nrest);
		else
			snprintf(buf, sizeof buf, "%.22s %.3g core-h", shown[s]->name, shown[s]->core_h);
		legend(f.cr, s, rgb, false, buf);
	}
	/* the system's bounds, shaded where they differ; then the capacity line */
	for (int k = 0; k < TIMELINE_BUCKETS; k++) {
		double lo = t->timeline_lower[k], hi = t->timeline_upper[k];

		if (isnan(lo) || isnan(hi) || hi - lo <= 0)
			continue;
		cairo_set_source_rgba(f.cr, 0, 0, 0, 0.25);
		cairo_rectangle(f.cr, px(&f, k * t->bucket_width / 3600), py(&f, hi),
				px(&f, (k + 1) * t->bucket_width / 3600) - px(&f, k * t->bucket_width / 3600),
				py(&f, lo) - py(&f, hi));
		cairo_fill(f.cr);
	}
	legend(f.cr, nshown + 1, NULL, false, "bounds of the total, where wider");
	cairo_set_source_rgb(f.cr, 0, 0, 0);
	cairo_set_line_width(f.cr, 2.5);
	for (int k = 0, pen = 0; k < TIMELINE_BUCKETS; k++) {
		double y = t->timeline_capacity[k];

		if (isnan(y)) {
			pen = 0;
			continue;
		}
		if (!pen)
			cairo_move_to(f.cr, px(&f, k * t->bucket_width / 3600), py(&f, y));
		cairo_line_to(f.cr, px(&f, (k + 1) * t->bucket_width / 3600), py(&f, y));
		pen = 1;
	}
	cairo_stroke(f.cr);
	snprintf(buf, sizeof buf, "capacity (%g core%s)", t->cores, t->cores == 1 ? "" : "s");
	legend(f.cr, nshown + 2, (const double[]){ 0, 0, 0 }, true, buf);
	snprintf(buf, sizeof buf, "idle %.3g core-h (white)", t->rows[t->nrows - 1].core_h);
	legend(f.cr, nshown + 3, (const double[]){ 1, 1, 1 }, false, buf);
	snprintf(buf, sizeof buf, "a gap is a blank: no samples");
	legend(f.cr, nshown + 4, (const double[]){ 1, 1, 1 }, false, buf);
	return close_frame(&f, file);
}

static const struct capacity_report *chart_days;

static void day_label(double x, char *buf, size_t len)
{
	char d[16];

	capacity_date(chart_days, x, d, sizeof d);
	snprintf(buf, len, "%.5s", d + 5);
}

int plot_capacity(const char *file, const struct sample_reader *r, const struct capacity_report *c)
{
	const struct trend *t = &c->trend;
	double last = 0, top = 0, end;
	struct frame f;
	char buf[160];

	if (open_frame(&f, file) < 0)
		return -1;
	for (int i = 0; i < c->ndays; i++)
		if (c->days[i].have) {
			last = round((c->days[i].midnight - c->days[0].midnight) / 86400);
			top = fmax(top, fmax(c->days[i].used, c->days[i].cap));
		}
	end = t->verdict == TREND_REACHES && !isnan(t->latest) ? fmax(last, t->latest) + 1 : last + 1;
	if (t->verdict == TREND_REACHES && isnan(t->latest))
		end = fmax(last, t->cross) + 7;
	chart_days = c;
	f.x0 = 0;
	f.x1 = fmax(end, 1);
	f.y0 = 0;
	f.y1 = top > 0 ? top * 1.15 : 1;
	snprintf(buf, sizeof buf, "%s: each day's cores used against capacity", r->host);
	axes(&f, buf, "cores (SMT-calibrated)", day_label, fmax(1, round(tick_step(f.x1))));

	if (!isnan(t->slope)) {	/* the trend and its band */
		cairo_set_source_rgba(f.cr, 0.12, 0.47, 0.71, 0.18);
		for (double x = 0; x <= f.x1 + 1e-9; x += 0.25) {
			double y = t->intercept + t->slope * x + trend_band(t, x);

			cairo_line_to(f.cr, px(&f, x), py(&f, fmin(f.y1, fmax(0, y))));
		}
		for (double x = f.x1; x >= -1e-9; x -= 0.25) {
			double y = t->intercept + t->slope * x - trend_band(t, x);

			cairo_line_to(f.cr, px(&f, x), py(&f, fmin(f.y1, fmax(0, y))));
		}
		cairo_close_path(f.cr);
		cairo_fill(f.cr);
		cairo_set_source_rgb(f.cr, 0.12, 0.47, 0.71);
		cairo_set_line_width(f.cr, 1.5);
		cairo_move_to(f.cr, px(&f, 0), py(&f, fmax(0, t->intercept)));
		cairo_line_to(f.cr, px(&f, f.x1), py(&f, fmin(f.y1, fmax(0, t->intercept + t->slope * f.x1))));
		cairo_stroke(f.cr);
	}
	for (int i = 0; i < c->ndays; i++) {	/* the days */
		const struct day *d = &c->days[i];
		double x = round((d->midnight - c->days[0].midnight) / 86400);

		if (!d->have)
			continue;
		cairo_set_source_rgb(f.cr, 1.00, 0.50, 0.05);
		cairo_arc(f.cr, px(&f, x), py(&f, d->used), 4, 0, 2 * M_PI);
		cairo_fill(f.cr);
		if (!isnan(d->physc)) {
			cairo_set_source_rgb(f.cr, 0.58, 0.40, 0.74);
			cairo_rectangle(f.cr, px(&f, x) - 3, py(&f, d->physc) - 3, 6, 6);
			cairo_fill(f.cr);
		}
	}
	cairo_set_source_rgb(f.cr, 0, 0, 0);	/* the capacity */
	cairo_set_line_width(f.cr, 2.5);
	cairo_move_to(f.cr, px(&f, 0), py(&f, c->capacity_cores));
	cairo_line_to(f.cr, px(&f, f.x1), py(&f, c->capacity_cores));
	cairo_stroke(f.cr);
	if (c->lpar && !isnan(c->entitlement)) {
		cairo_set_source_rgb(f.cr, 0.84, 0.15, 0.16);
		cairo_move_to(f.cr, px(&f, 0), py(&f, c->entitlement));
		cairo_line_to(f.cr, px(&f, f.x1), py(&f, c->entitlement));
		cairo_stroke(f.cr);
	}
	legend(f.cr, 0, palette[1], false, "daily figure (cores used)");
	legend(f.cr, 1, palette[0], true, "trend (least squares)");
	legend(f.cr, 2, (const double[]){ 0.7, 0.82, 0.9 }, false, "the line's 95% band");
	snprintf(buf, sizeof buf, "capacity %.2f cores", c->capacity_cores);
	legend(f.cr, 3, (const double[]){ 0, 0, 0 }, true, buf);
	if (c->lpar) {
		legend(f.cr, 4, palette[4], false, "physc at the peak");
		snprintf(buf, sizeof buf, "entitlement %.2f", c->entitlement);
		legend(f.cr, 5, palette[3], true, buf);
	}
	if (t->verdict == TREND_REACHES) {
		char on[16];

		capacity_date(c, t->cross, on, sizeof on);
		snprintf(buf, sizeof buf, "reaches capacity %s", on);
		cairo_set_source_rgb(f.cr, 0.84, 0.15, 0.16);
		cairo_move_to(f.cr, px(&f, t->cross), py(&f, f.y0));
		cairo_line_to(f.cr, px(&f, t->cross), py(&f, f.y1));
		cairo_stroke(f.cr);
		legend(f.cr, c->lpar ? 6 : 4, palette[3], true, buf);
	}
	return close_frame(&f, file);
}
#endif
