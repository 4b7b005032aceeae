#include "http_client.h"
#include "raw_http.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <curl/curl.h>

cbd_server *test_server_start(cbd_settings *cfg) {
    cfg->server.port = 0;
    snprintf(cfg->server.bind, sizeof cfg->server.bind, "127.0.0.1");
    cfg->server.access_log = false;
    if (cfg->server.threads == 0) {
        cfg->server.threads = 2;
    }
    char err[256];
    cbd_server *s = cbd_server_start(&cfg->server, &cfg->api, err, sizeof err);
    cr_assert_not_null(s, "server failed to start: %s", err);
    return s;
}

cbd_server *test_server_start_default(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    return test_server_start(&cfg);
}

cbd_server *test_server;
uint16_t test_port;

void test_suite_start_with(cbd_settings *cfg) {
    /* libcurl's global state is set up before any thread of the test can race to do it. */
    curl_global_init(CURL_GLOBAL_DEFAULT);
    test_server = test_server_start(cfg);
    test_port = cbd_server_port(test_server);
}

void test_suite_start(void) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    test_suite_start_with(&cfg);
}

void test_suite_stop(void) {
    cbd_server_stop(test_server);
    test_server = NULL;
    test_port = 0;
    curl_global_cleanup();
}

typedef struct {
    char *data;
    size_t len;
} grow_buf;

static size_t collect(char *ptr, size_t size, size_t nmemb, void *userdata) {
    grow_buf *b = userdata;
    size_t n = size * nmemb;
    char *grown = realloc(b->data, b->len + n + 1);
    if (!grown) {
        return 0;
    }
    memcpy(grown + b->len, ptr, n);
    b->len += n;
    grown[b->len] = '\0';
    b->data = grown;
    return n;
}

int test_request(uint16_t port, const char *method, const char *path, const char *content_type,
                 const char *body, size_t body_len, const char *const *extra_headers,
                 test_response *out) {
    memset(out, 0, sizeof *out);
    CURL *curl = curl_easy_init();
    if (!curl) {
        return -1;
    }
    char url[512];
    snprintf(url, sizeof url, "http://127.0.0.1:%u%s", port, path);
    grow_buf body_buf = {NULL, 0}, head_buf = {NULL, 0};
    struct curl_slist *headers = NULL;
    char ct[256];
    if (content_type) {
        snprintf(ct, sizeof ct, "Content-Type: %s", content_type);
    } else {
        snprintf(ct, sizeof ct, "Content-Type:");
    }
    headers = curl_slist_append(headers, ct);
    headers = curl_slist_append(headers, "Expect:");
    for (size_t i = 0; extra_headers && extra_headers[i]; i++) {
        headers = curl_slist_append(headers, extra_headers[i]);
    }
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "HEAD") == 0) {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    }
    if (body) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body_buf);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &head_buf);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    CURLcode rc = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    out->body = body_buf.data ? body_buf.data : strdup("");
    out->body_len = body_buf.len;
    out->headers = head_buf.data ? head_buf.data : strdup("");
    out->json = json_loadb(out->body, out->body_len, 0, NULL);
    return rc == CURLE_OK ? 0 : -1;
}

int test_post_json(uint16_t port, const char *path, const char *body, test_response *out) {
    return test_request(port, "POST", path, "application/json", body, strlen(body), NULL, out);
}

const char *test_header(const test_response *r, const char *name, char *buf, size_t size) {
    size_t name_len = strlen(name);
    for (const char *line = r->headers; line && *line;) {
        const char *end = strstr(line, "\r\n");
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > name_len && strncasecmp(line, name, name_len) == 0 && line[name_len] == ':') {
            const char *v = line + name_len + 1;
            while (*v == ' ') {
                v++;
            }
            size_t vlen = len - (size_t)(v - line);
            snprintf(buf, size, "%.*s", (int)vlen, v);
            return buf;
        }
        line = end ? end + 2 : NULL;
    }
    return NULL;
}

void test_response_free(test_response *r) {
    free(r->body);
    free(r->headers);
    json_decref(r->json);
    memset(r, 0, sizeof *r);
}

int test_connect(uint16_t port) {
    int fd = raw_connect(port);
    if (fd >= 0) {
        struct timeval tv = {5, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    return fd;
}

/* True once `buf` holds a status line, headers and as many body bytes as Content-Length. */
static bool response_complete(const char *buf) {
    const char *end = strstr(buf, "\r\n\r\n");
    if (!end) {
        return false;
    }
    const char *cl = strcasestr(buf, "\r\nContent-Length:");
    if (!cl || cl > end) {
        return false;
    }
    size_t want = strtoul(cl + 17, NULL, 10);
    return strlen(end + 4) >= want;
}

long test_raw(uint16_t port, const char *request, size_t len, char *out, size_t out_size) {
    int fd = test_connect(port);
    if (fd < 0) {
        return -1;
    }
    if (send(fd, request, len, MSG_NOSIGNAL) != (ssize_t)len) {
        close(fd);
        return -1;
    }
    size_t got = 0;
    out[0] = '\0';
    while (got + 1 < out_size) {
        ssize_t n = recv(fd, out + got, out_size - 1 - got, 0);
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
        out[got] = '\0';
        if (response_complete(out)) {
            break;
        }
    }
    close(fd);
    return (long)got;
}

int test_metrics_with(uint16_t port, const char *const *needles, double timeout,
                      test_response *out) {
    double end = raw_now() + timeout;
    for (;;) {
        if (test_request(port, "GET", "/metrics", NULL, NULL, 0, NULL, out) != 0) {
            return -1;
        }
        bool all = out->body != NULL;
        for (size_t i = 0; all && needles[i]; i++) {
            all = strstr(out->body, needles[i]) != NULL;
        }
        if (all || raw_now() >= end) {
            return 0;
        }
        test_response_free(out);
        raw_sleep(0.02);
    }
}
