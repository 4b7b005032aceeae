/*
 * combatd: reads the configuration (defaults < file < COMBATD_* environment < flags), starts
 * the HTTP service and drains it on SIGTERM or SIGINT.
 */
#include <getopt.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config/config.h"
#include "http/ops/healthcheck.h"
#include "http/server.h"
#include "http/ops/sysres.h"

extern char **environ;

#define DEFAULT_CONFIG_PATH "config/combatd.json"

static void usage(FILE *out) {
    fprintf(out,
            "Usage: combatd [OPTIONS]\n"
            "Resolves and previews War.app and Duper battles over HTTP JSON.\n"
            "\n"
            "  -c, --config FILE   config file (default " DEFAULT_CONFIG_PATH " when present,\n"
            "                      or $COMBATD_CONFIG)\n"
            "  -p, --port N        port to listen on; 0 picks a free one (default 8080)\n"
            "  -b, --bind ADDR     address to listen on (default 0.0.0.0)\n"
            "  -t, --threads N     HTTP threads (MHD's pool); 0 = one per CPU this process may\n"
            "                      use (affinity, cgroup quota; default 0)\n"
            "      --check-config  load and validate the configuration, then exit\n"
            "      --healthcheck   exit 0 if the service this configuration describes answers\n"
            "                      GET /livez, else 1 (same flags, environment and file)\n"
            "  -h, --help          show this help\n"
            "  -V, --version       show the version\n"
            "\n"
            "Every server setting can also be set as COMBATD_<NAME> (e.g. COMBATD_PORT,\n"
            "COMBATD_BODY_LIMIT, COMBATD_CORS_ORIGINS). Flags win over the environment, which\n"
            "wins over the file. See docs/configuration.md and config/combatd.json.\n");
}

typedef struct {
    const char *config_path;
    bool config_required; /* named explicitly, so a missing file is an error */
    const char *port, *bind, *threads;
    bool check_config, healthcheck;
} options;

/* Returns -1 to continue, else the exit code. */
static int parse_args(int argc, char **argv, options *o) {
    enum { OPT_CHECK = 256, OPT_HEALTH };
    static const struct option longopts[] = {
        {"config", required_argument, NULL, 'c'},
        {"port", required_argument, NULL, 'p'},
        {"bind", required_argument, NULL, 'b'},
        {"threads", required_argument, NULL, 't'},
        {"check-config", no_argument, NULL, OPT_CHECK},
        {"healthcheck", no_argument, NULL, OPT_HEALTH},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int c;
    while ((c = getopt_long(argc, argv, "c:p:b:t:hV", longopts, NULL)) != -1) {
        switch (c) {
            case 'c':
                o->config_path = optarg;
                o->config_required = true;
                break;
            case 'p':
                o->port = optarg;
                break;
            case 'b':
                o->bind = optarg;
                break;
            case 't':
                o->threads = optarg;
                break;
            case OPT_CHECK:
                o->check_config = true;
                break;
            case OPT_HEALTH:
                o->healthcheck = true;
                break;
            case 'h':
                usage(stdout);
                return 0;
            case 'V':
                printf("combatd %s (libmicrohttpd, jansson %s)\n", COMBATD_VERSION,
                       JANSSON_VERSION);
                return 0;
            default:
                usage(stderr);
                return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "combatd: unexpected argument \"%s\"\n", argv[optind]);
        usage(stderr);
        return 2;
    }
    return -1;
}

static bool load_config(const options *o, cbd_settings *cfg) {
    cbd_problem p;
    cbd_problem_init(&p);
    cbd_settings_defaults(cfg);
    const char *path = o->config_path;
    bool required = o->config_required;
    if (!path && getenv("COMBATD_CONFIG")) {
        path = getenv("COMBATD_CONFIG");
        required = true;
    }
    if (!path) {
        path = DEFAULT_CONFIG_PATH;
    }
    bool ok = true;
    if (required || access(path, F_OK) == 0) {
        ok = cbd_config_load_file(cfg, path, &p);
    }
    if (ok) {
        ok = cbd_config_apply_env(cfg, environ, &p);
    }
    const struct {
        const char *key, *value, *flag;
    } flags[] = {{"port", o->port, "--port"},
                 {"bind", o->bind, "--bind"},
                 {"threads", o->threads, "--threads"}};
    for (size_t i = 0; ok && i < sizeof flags / sizeof flags[0]; i++) {
        if (flags[i].value) {
            ok = cbd_config_set_server_key(cfg, flags[i].key, flags[i].value, flags[i].flag, &p);
        }
    }
    if (!ok) {
        char text[2048];
        cbd_problem_to_text(&p, text, sizeof text);
        fprintf(stderr, "combatd: bad configuration (%s):%s\n", path, text);
    }
    return ok;
}

/* threads 0 is the CPUs this process may use; the open-file limit is raised and the
 * connection limit made to fit it. Each decision is a JSON log line. */
static void fit_resources(cbd_settings *cfg) {
    cbd_server_config *s = &cfg->server;
    if (s->threads == 0) {
        const char *source = "affinity";
        s->threads = cbd_sys_cpu_count(&source);
        fprintf(stderr, "{\"event\":\"threads\",\"threads\":%u,\"from\":\"%s\"}\n", s->threads,
                source);
    }
    uint64_t nofile = cbd_sys_raise_nofile();
    uint32_t fit = cbd_sys_fit_connections(nofile, s->connection_limit, s->threads);
    if (nofile > 0 && fit < s->connection_limit) {
        fprintf(stderr,
                "{\"event\":\"connection_limit_capped\",\"configured\":%u,\"open_files\":%llu,"
                "\"reserved\":%llu,\"connection_limit\":%u}\n",
                s->connection_limit, (unsigned long long)nofile,
                (unsigned long long)cbd_sys_fd_reserve(s->threads), fit);
        s->connection_limit = fit;
    }
}

/* SIGTERM: a lame duck of drain_delay seconds (a second signal ends it), then the drain. */
static void drain_on_signal(cbd_server *server, const cbd_settings *cfg, sigset_t *stop_signals) {
    int sig = 0;
    sigwait(stop_signals, &sig);
    cbd_server_begin_drain(server);
    fprintf(stderr,
            "{\"event\":\"draining\",\"signal\":%d,\"drain_delay_s\":%u,\"deadline_s\":%u}\n", sig,
            cfg->server.drain_delay, cfg->server.drain_deadline);
    if (cfg->server.drain_delay > 0) {
        struct timespec lame_duck = {(time_t)cfg->server.drain_delay, 0};
        int again = sigtimedwait(stop_signals, NULL, &lame_duck);
        fprintf(stderr, "{\"event\":\"lame_duck_over\",\"cut_short\":%s}\n",
                again > 0 ? "true" : "false");
    }
    bool drained = cbd_server_drain(server);
    cbd_drain_stats st;
    cbd_server_drain_stats(server, &st);
    fprintf(stderr,
            "{\"event\":\"stopped\",\"drained\":%s,\"unanswered\":%zu,\"idle_closed\":%zu,"
            "\"open_left\":%zu,\"drain_ms\":%llu}\n",
            drained ? "true" : "false", st.unanswered, st.idle_closed, st.open_left,
            (unsigned long long)st.took_ms);
}

int main(int argc, char **argv) {
    options o = {0};
    /* --healthcheck exits 0 or 1 only, whatever else is wrong (Docker reserves 2). */
    bool health = false;
    for (int i = 1; i < argc; i++) {
        health |= strcmp(argv[i], "--healthcheck") == 0;
    }
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) {
        return health && rc != 0 ? 1 : rc;
    }
    cbd_settings cfg;
    if (!load_config(&o, &cfg)) {
        return health ? 1 : 2;
    }
    if (o.healthcheck) {
        return cbd_healthcheck(cfg.server.bind, (uint16_t)cfg.server.port);
    }
    if (o.check_config) {
        printf("combatd: configuration is valid\n");
        return 0;
    }
    /* jansson's hash seed is set once, before any thread can create an object. */
    json_object_seed(0);

    /* Block the signals before the daemon's threads start, so they inherit the mask and only
     * the sigwait below sees SIGTERM and SIGINT. SIGPIPE is ignored: a client that hangs up
     * must not end the process. SIGHUP is ignored too: there is nothing to reload, and a
     * closed terminal or a manager's reload signal must not end the service without a drain
     * (stop it with SIGTERM). */
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    signal(SIGHUP, SIG_IGN);

    fit_resources(&cfg);
    char err[256];
    cbd_server *server = cbd_server_start(&cfg.server, &cfg.api, err, sizeof err);
    if (!server) {
        fprintf(stderr, "combatd: %s\n", err);
        return 1;
    }
    fprintf(stderr,
            "{\"event\":\"listening\",\"bind\":\"%s\",\"port\":%u,\"threads\":%u,"
            "\"connection_limit\":%u,\"version\":\"%s\"}\n",
            cfg.server.bind, cbd_server_port(server), cfg.server.threads,
            cfg.server.connection_limit, COMBATD_VERSION);
    drain_on_signal(server, &cfg, &stop_signals);
    cbd_server_stop(server);
    return 0;
}
