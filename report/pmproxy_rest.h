/*
 * pmproxy's REST API (PMWEBAPI(3)): a GET, its answer parsed as JSON.
 * One connection, kept open between requests; every answer is bounded.
 */
#ifndef SMTCPU_PMPROXY_REST_H
#define SMTCPU_PMPROXY_REST_H

#include <jansson.h>
#include <stddef.h>

struct rest;

/* url: http://HOST:PORT (or https), as pmproxy serves it.  NULL with err
 * set where it is not such a URL or out of memory. */
struct rest *rest_open(const char *url, char *err, size_t errlen);

/* GET url/path?name=value&... (params: names and values by turns, NULL
 * last; the values are escaped here).  The answer's JSON (pmproxy_json's
 * repairs made), to json_decref; NULL with err set: pmproxy unreachable,
 * an HTTP status other than 200 (with pmproxy's message), an answer too
 * large or not JSON. */
json_t *rest_get(struct rest *r, const char *path, const char *const *params, char *err, size_t errlen);

/* The same GET, its answer as pmproxy wrote it: *body (*len bytes,
 * NUL-terminated) valid until the next request.  0, or -1 with err set. */
int rest_get_body(struct rest *r, const char *path, const char *const *params, const char **body, size_t *len,
		  char *err, size_t errlen);

/* An answer to path, made JSON and parsed as rest_get does. */
json_t *rest_parse(struct rest *r, const char *path, const char *body, size_t len, char *err, size_t errlen);

/* The URL as given, printable. */
const char *rest_url(const struct rest *r);

void rest_close(struct rest *r);

#endif
