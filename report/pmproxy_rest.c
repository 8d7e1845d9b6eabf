/*
 * pmproxy's REST API over libcurl, answers through jansson
 * (pmproxy_rest.h).  What pmproxy says in an error goes to the user, so it
 * is made printable first, as every name from it is.
 */
#ifndef SMTCPU_NO_SERIES

#include "pmproxy_rest.h"
#include "pmproxy_json.h"
#include "printable.h"

#include <curl/curl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest answer taken: a page of values is a few megabytes
 * (series_samples.c sizes its pages), so this is only a bound. */
#define ANSWER_MAX ((size_t)64 << 20)
/* The longest request: a path and its parameters. */
#define REQUEST_MAX 8192
#define CONNECT_SECONDS 10L
#define ANSWER_SECONDS 300L

struct rest {
	CURL *curl;
	char url[1024];		/* without a trailing '/' */
	char shown[1024];	/* printable */
	char *body;
	size_t len, cap;
	bool too_large;
};

static size_t take(char *data, size_t size, size_t n, void *arg)
{
	struct rest *r = arg;
	size_t bytes = size * n;

	if (bytes > ANSWER_MAX - r->len) {
		r->too_large = true;
		return 0;	/* libcurl stops, CURLE_WRITE_ERROR */
	}
	if (r->len + bytes + 1 > r->cap) {
		size_t cap = r->cap ? r->cap : 65536;
		char *grown;

		while (cap < r->len + bytes + 1)
			cap *= 2;
		if ((grown = realloc(r->body, cap)) == NULL)
			return 0;
		r->body = grown;
		r->cap = cap;
	}
	memcpy(r->body + r->len, data, bytes);
	r->len += bytes;
	r->body[r->len] = '\0';
	return bytes;
}

struct rest *rest_open(const char *url, char *err, size_t errlen)
{
	struct rest *r;
	size_t len = strlen(url);

	if ((strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) || len >= sizeof r->url ||
	    strpbrk(url, " \t\r\n?#") != NULL) {
		char shown[256];

		printable_copy(shown, sizeof shown, url, len);
		snprintf(err, errlen, "--pmproxy %s: not a URL of pmproxy's (http://HOST:PORT)", shown);
		return NULL;
	}
	if ((r = calloc(1, sizeof *r)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	while (len > 0 && url[len - 1] == '/')
		len--;
	memcpy(r->url, url, len);
	printable_copy(r->shown, sizeof r->shown, r->url, len);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK || (r->curl = curl_easy_init()) == NULL) {
		snprintf(err, errlen, "libcurl would not start");
		free(r);
		return NULL;
	}
	curl_easy_setopt(r->curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(r->curl, CURLOPT_CONNECTTIMEOUT, CONNECT_SECONDS);
	curl_easy_setopt(r->curl, CURLOPT_TIMEOUT, ANSWER_SECONDS);
	curl_easy_setopt(r->curl, CURLOPT_FOLLOWLOCATION, 0L);
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(r->curl, CURLOPT_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(r->curl, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(r->curl, CURLOPT_USERAGENT, "pcp-smtcpu");
	curl_easy_setopt(r->curl, CURLOPT_WRITEFUNCTION, take);
	curl_easy_setopt(r->curl, CURLOPT_WRITEDATA, r);
	return r;
}

const char *rest_url(const struct rest *r)
{
	return r->shown;
}

/* url/path?params into buf: 0, or -1 too long or out of memory. */
static int request(struct rest *r, const char *path, const char *const *params, char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s%s", r->url, path);

	if (n < 0 || (size_t)n >= size)
		return -1;
	for (int i = 0; params && params[i]; i += 2) {
		char *value = curl_easy_escape(r->curl, params[i + 1], 0);
		size_t used = strlen(buf);

		if (value == NULL)
			return -1;
		n = snprintf(buf + used, size - used, "%c%s=%s", i ? '&' : '?', params[i], value);
		curl_free(value);
		if (n < 0 || (size_t)n >= size - used)
			return -1;
	}
	return 0;
}

/* pmproxy's own word in a failed answer ({"message":...}), on one line,
 * printable. */
static void message_of(const struct rest *r, char *buf, size_t size)
{
	size_t len;
	char *fixed = pmproxy_json_fixup(r->body ? r->body : "", r->len, &len), line[512];
	json_t *root = fixed ? json_loadb(fixed, len, 0, NULL) : NULL;
	json_t *message = json_is_object(root) ? json_object_get(root, "message") : NULL;
	const char *said = json_is_string(message) ? json_string_value(message) : r->body ? r->body : "";
	size_t n = 0;

	/* (its messages quote a query over lines, and end in a newline) */
	for (const char *p = said; *p && n + 1 < sizeof line && n < 300; p++)
		line[n++] = *p == '\n' || *p == '\r' ? ' ' : *p;
	while (n > 0 && line[n - 1] == ' ')
		n--;
	line[n] = '\0';
	pmproxy_name(buf, size, line);
	json_decref(root);
	free(fixed);
}

int rest_get_body(struct rest *r, const char *path, const char *const *params, const char **body, size_t *len,
		  char *err, size_t errlen)
{
	char url[REQUEST_MAX], says[512];
	long status = 0;
	CURLcode code;

	if (request(r, path, params, url, sizeof url) < 0) {
		snprintf(err, errlen, "pmproxy at %s: a request for %s longer than %d bytes", r->shown, path,
			 REQUEST_MAX);
		return -1;
	}
	r->len = 0;
	r->too_large = false;
	curl_easy_setopt(r->curl, CURLOPT_URL, url);
	curl_easy_setopt(r->curl, CURLOPT_HTTPGET, 1L);
	code = curl_easy_perform(r->curl);
	if (code != CURLE_OK) {
		if (r->too_large)
			snprintf(err, errlen, "pmproxy at %s: its answer to %s is larger than %zu MB", r->shown, path,
				 ANSWER_MAX >> 20);
		else
			snprintf(err, errlen, "pmproxy at %s: %s", r->shown, curl_easy_strerror(code));
		return -1;
	}
	curl_easy_getinfo(r->curl, CURLINFO_RESPONSE_CODE, &status);
	if (status != 200) {
		message_of(r, says, sizeof says);
		snprintf(err, errlen, "pmproxy at %s: %s: HTTP status %ld: %s", r->shown, path, status,
			 says[0] ? says : "(nothing said)");
		return -1;
	}
	*body = r->body ? r->body : "";
	*len = r->len;
	return 0;
}

json_t *rest_parse(struct rest *r, const char *path, const char *body, size_t len, char *err, size_t errlen)
{
	char says[512];
	json_error_t jerr;
	json_t *root;
	size_t fixed_len;
	char *fixed;

	if ((fixed = pmproxy_json_fixup(body, len, &fixed_len)) == NULL) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	root = json_loadb(fixed, fixed_len, 0, &jerr);
	free(fixed);
	if (root == NULL) {
		printable_copy(says, sizeof says, jerr.text, strlen(jerr.text));
		snprintf(err, errlen, "pmproxy at %s: its answer to %s is not JSON (%s, at byte %d)", r->shown, path,
			 says, jerr.position);
	}
	return root;
}

json_t *rest_get(struct rest *r, const char *path, const char *const *params, char *err, size_t errlen)
{
	const char *body;
	size_t len;

	if (rest_get_body(r, path, params, &body, &len, err, errlen) < 0)
		return NULL;
	return rest_parse(r, path, body, len, err, errlen);
}

void rest_close(struct rest *r)
{
	if (r == NULL)
		return;
	curl_easy_cleanup(r->curl);
	curl_global_cleanup();
	free(r->body);
	free(r);
}

#endif
