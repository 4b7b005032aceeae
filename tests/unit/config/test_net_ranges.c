/*
 * trusted_proxies: the address and CIDR parser, the matcher, the X-Forwarded-For
 * walk, and the setting as the file and the environment give it. Expected bytes are written
 * out by hand from RFC 4291 (IPv4-mapped ::ffff:0:0/96) and RFC 4632 prefixes.
 */
#include <arpa/inet.h>
#include <string.h>

#include <criterion/criterion.h>

#include "config/config.h"
#include "http/guards/net_ranges.h"

static cbd_net_range range(const char *text) {
    cbd_net_range r;
    cr_assert(cbd_net_range_parse(text, strlen(text), &r), "%s parses", text);
    return r;
}

static bool has(const char *range_text, const char *addr_text) {
    cbd_net_range r = range(range_text);
    uint8_t a[16];
    cr_assert(cbd_net_addr_parse(addr_text, strlen(addr_text), a), "%s parses", addr_text);
    return cbd_net_range_contains(&r, a);
}

Test(net_ranges, ipv4_is_kept_mapped_with_the_prefix_moved_by_96) {
    cbd_net_range r = range("10.0.0.0/8");
    static const uint8_t want[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 0};
    cr_expect_arr_eq(r.addr, want, 16);
    cr_expect_eq(r.prefix, 104);
    cr_expect_eq(range("192.0.2.7").prefix, 128, "a single address is /32, so 96 + 32");
    cr_expect_eq(range("fd00::/8").prefix, 8);
    cr_expect_eq(range("::1").prefix, 128);
}

Test(net_ranges, contains_at_the_edges_of_each_prefix) {
    cr_expect(has("10.0.0.0/8", "10.0.0.0"));
    cr_expect(has("10.0.0.0/8", "10.255.255.255"));
    cr_expect(!has("10.0.0.0/8", "11.0.0.0"));
    cr_expect(!has("10.0.0.0/8", "9.255.255.255"));
    /* /20: 172.16.0.0 to 172.16.15.255 (the third byte's top four bits are fixed). */
    cr_expect(has("172.16.0.0/20", "172.16.15.255"));
    cr_expect(!has("172.16.0.0/20", "172.16.16.0"));
    cr_expect(has("127.0.0.1", "127.0.0.1"));
    cr_expect(!has("127.0.0.1", "127.0.0.2"));
    cr_expect(has("0.0.0.0/0", "203.0.113.9"));
    cr_expect(!has("0.0.0.0/0", "2001:db8::1"), "IPv4 /0 is ::ffff:0:0/96, not every address");
    cr_expect(has("::/0", "2001:db8::1"));
    cr_expect(has("fd00::/8", "fdff:ffff::1"));
    cr_expect(!has("fd00::/8", "fe00::"));
    /* /57: the 8th byte's top bit is fixed. */
    cr_expect(has("2001:db8:0:80::/57", "2001:db8:0:ff::1"));
    cr_expect(!has("2001:db8:0:80::/57", "2001:db8:0:7f::1"));
    /* A peer seen on a dual-stack socket as mapped IPv6 matches the IPv4 range. */
    cr_expect(has("10.0.0.0/8", "::ffff:10.1.2.3"));
}

Test(net_ranges, malformed_ranges_are_refused) {
    static const char *const bad[] = {
        "",          "10.0.0.0/",  "10.0.0.0/33", "10.0.0.0/08", "10.1.2.3/8",
        "::1/129",   "fd00::1/8",  "10.0.0",      "10.0.0.0/a",  "[::1]",
        "10.0.0.0 ", "1.2.3.4:80", "10.0.0.0/-1", "example.org",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cbd_net_range r;
        cr_expect(!cbd_net_range_parse(bad[i], strlen(bad[i]), &r), "\"%s\" refused", bad[i]);
    }
    /* A NUL inside the given length is not cut short. */
    cbd_net_range r;
    cr_expect(!cbd_net_range_parse("10.0.0.1\0x", 10, &r));
}

Test(net_ranges, addresses_are_formatted_per_family) {
    uint8_t a[16];
    char out[CBD_NET_ADDR_TEXT];
    cr_assert(cbd_net_addr_parse("::ffff:192.0.2.1", 16, a));
    cbdp_net_addr_format(a, out);
    cr_expect_str_eq(out, "192.0.2.1");
    cr_assert(cbd_net_addr_parse("2001:0db8:0000::0001", 20, a));
    cbdp_net_addr_format(a, out);
    cr_expect_str_eq(out, "2001:db8::1");
}

static const char *forwarded(const char *xff, const char *trusted) {
    static char out[CBD_NET_ADDR_TEXT];
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbd_config_set_server_key(&cfg, "trusted_proxies", trusted, "test", &p));
    strcpy(out, "(none)");
    (void)cbd_net_forwarded_client(xff, cfg.server.trusted_proxies, cfg.server.n_trusted_proxies,
                                   out);
    return out;
}

Test(net_ranges, forwarded_for_is_read_from_the_right_skipping_trusted_hops) {
    cr_expect_str_eq(forwarded("203.0.113.9", "127.0.0.1"), "203.0.113.9");
    /* The client may write anything on the left: the rightmost untrusted entry wins. */
    cr_expect_str_eq(forwarded("6.6.6.6, 203.0.113.9", "127.0.0.1"), "203.0.113.9");
    /* A proxy in front of the trusted one, itself trusted: skipped. */
    cr_expect_str_eq(forwarded("6.6.6.6,203.0.113.9 , 10.0.0.5", "127.0.0.1,10.0.0.0/8"),
                     "203.0.113.9");
    /* All trusted: the leftmost. */
    cr_expect_str_eq(forwarded("10.0.0.7, 10.0.0.5", "10.0.0.0/8"), "10.0.0.7");
    /* Garbage ends the walk: the entry right of it (a trusted hop) is what can be vouched for. */
    cr_expect_str_eq(forwarded("203.0.113.9, bogus, 10.0.0.5", "10.0.0.0/8"), "10.0.0.5");
    cr_expect_str_eq(forwarded("bogus", "10.0.0.0/8"), "(none)");
    cr_expect_str_eq(forwarded("", "10.0.0.0/8"), "(none)");
    cr_expect_str_eq(forwarded("2001:db8::7, fd00::1", "fd00::/8"), "2001:db8::7");
}

Test(net_ranges, the_setting_from_the_environment_file_and_errors) {
    cbd_settings cfg;
    cbd_settings_defaults(&cfg);
    cr_expect_eq(cfg.server.n_trusted_proxies, 0, "nobody is trusted by default");
    cr_expect_eq(cfg.server.drain_delay, 0, "no lame duck by default");
    char *env[] = {"COMBATD_TRUSTED_PROXIES=127.0.0.1, fd00::/8", "COMBATD_DRAIN_DELAY=5", NULL};
    cbd_problem p;
    cbd_problem_init(&p);
    cr_assert(cbd_config_apply_env(&cfg, env, &p));
    cr_expect_eq(cfg.server.n_trusted_proxies, 2);
    cr_expect_eq(cfg.server.trusted_proxies[1].prefix, 8);
    cr_expect_eq(cfg.server.drain_delay, 5);

    static const char file[] = "{\"server\": {\"trusted_proxies\": [\"10.0.0.0/8\", \"::1\"]}}";
    cbd_settings_defaults(&cfg);
    cbd_problem_init(&p);
    cr_assert(cbd_config_load_text(&cfg, file, strlen(file), &p));
    cr_expect_eq(cfg.server.n_trusted_proxies, 2);
    cr_expect_eq(cfg.server.trusted_proxies[0].prefix, 104);
    static const char as_string[] = "{\"server\": {\"trusted_proxies\": \"10.0.0.0/8,::1\"}}";
    cbd_problem_init(&p);
    cr_assert(cbd_config_load_text(&cfg, as_string, strlen(as_string), &p));
    cr_expect_eq(cfg.server.n_trusted_proxies, 2);

    static const char bad[] =
        "{\"server\": {\"trusted_proxies\": [\"10.0.0.0/8\", \"10.1.2.3/8\"]}}";
    cbd_problem_init(&p);
    cr_expect(!cbd_config_load_text(&cfg, bad, strlen(bad), &p));
    char text[1024];
    cbd_problem_to_text(&p, text, sizeof text);
    cr_expect(strstr(text, "/server/trusted_proxies/1") != NULL, "%s", text);
    char *bad_env[] = {"COMBATD_TRUSTED_PROXIES=10.0.0.0/40", NULL};
    cbd_problem_init(&p);
    cr_expect(!cbd_config_apply_env(&cfg, bad_env, &p));
    cbd_problem_to_text(&p, text, sizeof text);
    cr_expect(strstr(text, "COMBATD_TRUSTED_PROXIES") != NULL, "%s", text);
}
