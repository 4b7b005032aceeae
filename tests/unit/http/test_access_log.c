/*
 * The access log line: every expected line below is written out by hand, field by field, so the
 * tests pin the exact bytes (keys, order, escaping, timestamp) rather than echo the formatter.
 * Clock-free tests use cbd_access_log_format_at; the epochs were checked with `date -u -d @N`.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <jansson.h>

#include "http/ops/access_log.h"

/* 1700000000 s is 2023-11-14T22:13:20Z; .123456789 s gives .123 (milliseconds are cut, not
 * rounded). */
static const struct timespec NOV_2023 = {.tv_sec = 1700000000, .tv_nsec = 123456789};

static cbd_access_log_entry typical(void) {
    return (cbd_access_log_entry){.method = "POST",
                                  .path = "/analyze-attack",
                                  .status = 200,
                                  .duration_us = 1234,
                                  .bytes_in = 56,
                                  .bytes_out = 789,
                                  .request_id = "0123456789abcdef",
                                  .ended = "ok"};
}

static const char TYPICAL_LINE[] =
    "{\"ts\":\"2023-11-14T22:13:20.123Z\",\"method\":\"POST\",\"path\":\"/analyze-attack\","
    "\"status\":200,\"duration_us\":1234,\"bytes_in\":56,\"bytes_out\":789,"
    "\"request_id\":\"0123456789abcdef\",\"ended\":\"ok\"}";

static void expect_line(const cbd_access_log_entry *e, const struct timespec *now,
                        const char *want) {
    char buf[1024];
    size_t n = cbd_access_log_format_at(e, now, buf, sizeof buf);
    cr_expect_str_eq(buf, want);
    cr_expect_eq(n, strlen(want));
}

/* Just the "ts" value of a line formatted at now. */
static void expect_ts(time_t sec, long nsec, const char *want) {
    cbd_access_log_entry e = typical();
    struct timespec now = {.tv_sec = sec, .tv_nsec = nsec};
    char buf[1024];
    cbd_access_log_format_at(&e, &now, buf, sizeof buf);
    cr_expect(strncmp(buf, "{\"ts\":\"", 7) == 0, "line: %s", buf);
    cr_expect(strncmp(buf + 7, want, strlen(want)) == 0 && buf[7 + strlen(want)] == '"',
              "want ts %s in line %s", want, buf);
}

static char *repeat(char c, size_t n) {
    char *s = malloc(n + 1);
    cr_assert_not_null(s);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

/* Parses a formatted line with jansson: the independent check that it is valid JSON. */
static json_t *parse_line(const char *line) {
    json_error_t err;
    json_t *root = json_loads(line, 0, &err);
    cr_assert_not_null(root, "not JSON (%s at %d): %s", err.text, err.position, line);
    cr_assert(json_is_object(root));
    return root;
}

static const char *field_str(json_t *root, const char *key) {
    json_t *v = json_object_get(root, key);
    cr_assert(json_is_string(v), "\"%s\" is not a string", key);
    return json_string_value(v);
}

Test(access_log, typical_line_exact) {
    cbd_access_log_entry e = typical();
    expect_line(&e, &NOV_2023, TYPICAL_LINE);
}

Test(access_log, escapes_quote_backslash_control_and_high_bytes) {
    cbd_access_log_entry e = typical();
    /* As in every answer (json_write.h): '"' and '\' get a backslash, a tab is \t, 0x01 is
     * \u0001; valid UTF-8 (here 'é', C3 A9) and DEL are written as they are. */
    e.path = "/a\"b\\c\x01"
             "d\xC3\xA9\x7f/";
    e.method = "GE\tT";
    e.request_id = "id\"1";
    expect_line(&e, &NOV_2023,
                "{\"ts\":\"2023-11-14T22:13:20.123Z\",\"method\":\"GE\\tT\","
                "\"path\":\"/a\\\"b\\\\c\\u0001d\xC3\xA9\x7f/\","
                "\"status\":200,\"duration_us\":1234,\"bytes_in\":56,\"bytes_out\":789,"
                "\"request_id\":\"id\\\"1\",\"ended\":\"ok\"}");
}

/* Valid UTF-8 is logged as UTF-8, whole characters only; a byte that is not UTF-8 (a lone
 * continuation byte, a truncated sequence, an overlong form) becomes \u00XX. */
Test(access_log, utf8_is_logged_as_utf8_and_invalid_bytes_as_escapes) {
    cbd_access_log_entry e = typical();
    e.path = "/caf\xC3\xA9/\xE2\x82\xAC/\xF0\x9F\x8E\xB2/\x80/\xC3/\xC0\xAF";
    char buf[1024];
    cbd_access_log_format_at(&e, &NOV_2023, buf, sizeof buf);
    cr_expect(strstr(buf, "\"path\":\"/caf\xC3\xA9/\xE2\x82\xAC/\xF0\x9F\x8E\xB2/\\u0080/"
                          "\\u00C3/\\u00C0\\u00AF\",") != NULL,
              "%s", buf);
    json_t *root = parse_line(buf);
    cr_expect_str_eq(
        field_str(root, "path"),
        "/caf\xC3\xA9/\xE2\x82\xAC/\xF0\x9F\x8E\xB2/\xC2\x80/\xC3\x83/\xC3\x80\xC2\xAF");
    json_decref(root);
}

Test(access_log, escaped_line_parses_back_to_the_bytes) {
    cbd_access_log_entry e = typical();
    e.path = "/q\"\\\x01\x1f";
    char buf[1024];
    cbd_access_log_format_at(&e, &NOV_2023, buf, sizeof buf);
    json_t *root = parse_line(buf);
    cr_expect_str_eq(field_str(root, "path"), "/q\"\\\x01\x1f");
    json_decref(root);
}

Test(access_log, numbers_zero_and_uint64_max) {
    cbd_access_log_entry e = typical();
    e.status = 0;
    e.duration_us = 0;
    e.bytes_in = 10;
    e.bytes_out = UINT64_MAX;
    e.ended = "client_abort";
    expect_line(&e, &NOV_2023,
                "{\"ts\":\"2023-11-14T22:13:20.123Z\",\"method\":\"POST\","
                "\"path\":\"/analyze-attack\",\"status\":0,\"duration_us\":0,\"bytes_in\":10,"
                "\"bytes_out\":18446744073709551615,\"request_id\":\"0123456789abcdef\","
                "\"ended\":\"client_abort\"}");
}

Test(access_log, milliseconds_are_zero_padded_and_truncated) {
    expect_ts(1700000000, 0, "2023-11-14T22:13:20.000Z");
    expect_ts(1700000000, 7000000, "2023-11-14T22:13:20.007Z");
    expect_ts(1700000000, 45999999, "2023-11-14T22:13:20.045Z");
    expect_ts(1700000000, 999999999, "2023-11-14T22:13:20.999Z");
}

/* The per-thread cache of the second's text must follow every change of second, backwards too. */
Test(access_log, second_text_follows_the_clock) {
    expect_ts(1700000000, 500000000, "2023-11-14T22:13:20.500Z");
    expect_ts(1700000001, 1000000, "2023-11-14T22:13:21.001Z");
    expect_ts(1700003600, 0, "2023-11-14T23:13:20.000Z");
    expect_ts(1700000000, 2000000, "2023-11-14T22:13:20.002Z");
    expect_ts(951782400, 0, "2000-02-29T00:00:00.000Z");
    expect_ts(0, 0, "1970-01-01T00:00:00.000Z");
    expect_ts(4102444799, 999000000, "2099-12-31T23:59:59.999Z");
}

static int is_digits(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return 0;
        }
    }
    return 1;
}

Test(access_log, real_clock_timestamp_shape_and_value) {
    cbd_access_log_entry e = typical();
    char buf[1024];
    time_t before = time(NULL);
    cbd_access_log_format(&e, buf, sizeof buf);
    time_t after = time(NULL);
    json_t *root = parse_line(buf);
    const char *ts = field_str(root, "ts");
    /* YYYY-MM-DDTHH:MM:SS.mmmZ */
    cr_assert_eq(strlen(ts), 24, "ts: %s", ts);
    cr_expect(is_digits(ts, 4) && ts[4] == '-' && is_digits(ts + 5, 2) && ts[7] == '-' &&
                  is_digits(ts + 8, 2) && ts[10] == 'T' && is_digits(ts + 11, 2) && ts[13] == ':' &&
                  is_digits(ts + 14, 2) && ts[16] == ':' && is_digits(ts + 17, 2) &&
                  ts[19] == '.' && is_digits(ts + 20, 3) && ts[23] == 'Z',
              "ts: %s", ts);
    struct tm tm = {0};
    const char *rest = strptime(ts, "%Y-%m-%dT%H:%M:%S", &tm);
    cr_assert_not_null(rest, "ts: %s", ts);
    cr_expect_str_eq(rest, ts + 19);
    time_t t = timegm(&tm);
    /* time() may read a coarser clock than CLOCK_REALTIME: allow it one second either way. */
    cr_expect(t >= before - 1 && t <= after + 1, "ts %s vs time() %lld..%lld", ts,
              (long long)before, (long long)after);
    json_decref(root);
}

/* The path field is cut while fewer than 8 bytes of its 512 remain: it keeps characters while
 * its escaped length is at most 504, so 600 plain bytes keep 505. */
Test(access_log, long_path_is_cut_and_line_stays_json) {
    char *path = repeat('a', 600);
    cbd_access_log_entry e = typical();
    e.path = path;
    char buf[1024];
    size_t n = cbd_access_log_format_at(&e, &NOV_2023, buf, sizeof buf);
    cr_expect_eq(n, strlen(TYPICAL_LINE) - strlen("/analyze-attack") + 505);
    json_t *root = parse_line(buf);
    char *want = repeat('a', 505);
    cr_expect_str_eq(field_str(root, "path"), want);
    cr_expect_str_eq(field_str(root, "ts"), "2023-11-14T22:13:20.123Z");
    cr_expect_str_eq(field_str(root, "method"), "POST");
    cr_expect_eq(json_integer_value(json_object_get(root, "status")), 200);
    cr_expect_eq(json_integer_value(json_object_get(root, "duration_us")), 1234);
    cr_expect_eq(json_integer_value(json_object_get(root, "bytes_in")), 56);
    cr_expect_eq(json_integer_value(json_object_get(root, "bytes_out")), 789);
    cr_expect_str_eq(field_str(root, "request_id"), "0123456789abcdef");
    cr_expect_str_eq(field_str(root, "ended"), "ok");
    cr_expect_eq(json_object_size(root), 9);
    json_decref(root);
    free(want);
    free(path);
}

/* A cut never splits an escape: 6-byte escapes at 0, 6, ..., 504 give 85 of them; 2-byte
 * escapes at 0, 2, ..., 504 give 253. */
Test(access_log, long_escaped_path_is_cut_between_escapes) {
    struct {
        char byte;
        size_t kept;
    } cases[] = {{'\x01', 85}, {'"', 253}, {'\\', 253}, {'\xff', 85}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = repeat(cases[i].byte, 700);
        cbd_access_log_entry e = typical();
        e.path = path;
        char buf[1024];
        cbd_access_log_format_at(&e, &NOV_2023, buf, sizeof buf);
        if (cases[i].byte == '\xff') {
            /* 0xFF is no UTF-8: it is logged as \u00FF, which decodes to U+00FF, not the raw
             * byte, so count the escapes in the text. */
            const char *p = strstr(buf, "\"path\":\"") + 8;
            size_t count = 0;
            for (; strncmp(p, "\\u00FF", 6) == 0; p += 6) {
                count++;
            }
            cr_expect_eq(count, cases[i].kept);
            cr_expect_eq(*p, '"');
            json_decref(parse_line(buf));
        } else {
            json_t *root = parse_line(buf);
            char *want = repeat(cases[i].byte, cases[i].kept);
            cr_expect_str_eq(field_str(root, "path"), want, "byte 0x%02x",
                             (unsigned char)cases[i].byte);
            free(want);
            json_decref(root);
        }
        free(path);
    }
}

/* Method keeps 57 of its 64 and request id 153 of its 160, by the same rule as the path. */
Test(access_log, long_method_and_request_id_are_cut) {
    char *method = repeat('M', 100);
    char *id = repeat('f', 300);
    cbd_access_log_entry e = typical();
    e.method = method;
    e.request_id = id;
    char buf[1024];
    cbd_access_log_format_at(&e, &NOV_2023, buf, sizeof buf);
    json_t *root = parse_line(buf);
    char *want_method = repeat('M', 57);
    char *want_id = repeat('f', 153);
    cr_expect_str_eq(field_str(root, "method"), want_method);
    cr_expect_str_eq(field_str(root, "request_id"), want_id);
    json_decref(root);
    free(want_id);
    free(want_method);
    free(id);
    free(method);
}

/* A buffer too small for the line gets its first size - 1 bytes and a NUL, and nothing past. */
Test(access_log, small_buffer_keeps_a_prefix_and_never_overflows) {
    cbd_access_log_entry e = typical();
    /* The typical line is 181 bytes long: size 181 cuts its closing brace. */
    const size_t sizes[] = {1, 2, 20, 60, 180, 181};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t size = sizes[i];
        char buf[256];
        memset(buf, '#', sizeof buf);
        size_t n = cbd_access_log_format_at(&e, &NOV_2023, buf, size);
        cr_expect_eq(n, size - 1, "size %zu", size);
        cr_expect_eq(buf[size - 1], '\0', "size %zu", size);
        cr_expect(memcmp(buf, TYPICAL_LINE, size - 1) == 0, "size %zu: %s", size, buf);
        cr_expect_eq(buf[size], '#', "size %zu: wrote past the end", size);
    }
    /* 182 bytes hold the whole line and its NUL. */
    char whole[182];
    cr_expect_eq(cbd_access_log_format_at(&e, &NOV_2023, whole, sizeof whole), 181);
    cr_expect_str_eq(whole, TYPICAL_LINE);
    char untouched = '#';
    cr_expect_eq(cbd_access_log_format_at(&e, &NOV_2023, &untouched, 0), 0);
    cr_expect_eq(untouched, '#');
}

/* The end of the buffer may fall inside an escape of the path: the line is still just its prefix
 * (as snprintf cut it), here ending in the middle of \u0001. */
Test(access_log, small_buffer_cut_inside_an_escape_field) {
    cbd_access_log_entry e = typical();
    e.path = "/\x01\x02";
    const char *want = "{\"ts\":\"2023-11-14T22:13:20.123Z\",\"method\":\"POST\",\"path\":\"/\\u00";
    size_t size = strlen(want) + 1;
    char buf[128];
    memset(buf, '#', sizeof buf);
    size_t n = cbd_access_log_format_at(&e, &NOV_2023, buf, size);
    cr_expect_eq(n, strlen(want));
    cr_expect_str_eq(buf, want);
    cr_expect_eq(buf[size], '#');
}

/* Each thread has its own cached second: two threads stamping different seconds at once, each
 * alternating between two of them, must each see only their own. */
typedef struct {
    time_t sec[2];
    const char *want[2];
    int mismatches;
} stamper;

static void *stamp_many(void *arg) {
    stamper *s = arg;
    cbd_access_log_entry e = typical();
    char buf[1024];
    for (int i = 0; i < 20000; i++) {
        struct timespec now = {.tv_sec = s->sec[i & 1], .tv_nsec = 0};
        cbd_access_log_format_at(&e, &now, buf, sizeof buf);
        const char *want = s->want[i & 1];
        if (strncmp(buf + 7, want, strlen(want)) != 0) {
            s->mismatches++;
        }
    }
    return NULL;
}

Test(access_log, threads_keep_their_own_second) {
    stamper a = {
        {1700000000, 1700003600}, {"2023-11-14T22:13:20.000Z", "2023-11-14T23:13:20.000Z"}, 0};
    stamper b = {
        {1700003600, 1700007200}, {"2023-11-14T23:13:20.000Z", "2023-11-15T00:13:20.000Z"}, 0};
    pthread_t ta, tb;
    cr_assert_eq(pthread_create(&ta, NULL, stamp_many, &a), 0);
    cr_assert_eq(pthread_create(&tb, NULL, stamp_many, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    cr_expect_eq(a.mismatches, 0);
    cr_expect_eq(b.mismatches, 0);
}

/* cbdp_access_log_write sends one line, newline-terminated, to stderr. */
Test(access_log, write_sends_one_line_to_stderr) {
    FILE *tmp = tmpfile();
    cr_assert_not_null(tmp);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    cr_assert(saved >= 0);
    cr_assert(dup2(fileno(tmp), STDERR_FILENO) >= 0);
    cbd_access_log_entry e = typical();
    cbdp_access_log_write(&e);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char got[1100] = {0};
    rewind(tmp);
    size_t n = fread(got, 1, sizeof got - 1, tmp);
    fclose(tmp);
    cr_assert(n > 0);
    cr_expect_eq(got[n - 1], '\n');
    cr_expect_eq(strchr(got, '\n'), got + n - 1, "more than one line: %s", got);
    got[n - 1] = '\0';
    json_t *root = parse_line(got);
    cr_expect_str_eq(field_str(root, "path"), "/analyze-attack");
    cr_expect_str_eq(field_str(root, "ended"), "ok");
    json_decref(root);
}
