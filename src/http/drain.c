/*
 * The drain on SIGTERM. Kubernetes and proxies need, in order: a lame duck (readiness
 * 503 while still serving, so balancers move traffic away), then no new connections, every
 * answer with Connection: close, idle keep-alive connections closed between requests, and an
 * exit once no connection holds a request, by a hard deadline.
 *
 * Closing an idle keep-alive connection is the one racy step of HTTP/1.1: the client may be
 * sending its next request at that moment (RFC 9112 section 9.6 makes clients retry such a
 * request, but not every client does). MHD 0.9.75 does not say which connections are between
 * requests, so conns.c tracks it: a connection is busy from its request line (URI callback) to
 * its completion, and is closed only after it has been idle for IDLE_US with no byte waiting in
 * the kernel and none received in that time (TCP_INFO), and then with shutdown(SHUT_RD), which
 * still lets MHD read and answer a request already queued. A busy client never waits IDLE_US
 * between an answer and its next request, and a connection with a request in it is never shut:
 * busy ones end by themselves after their answer (Connection: close).
 */
#include "drain.h"

#include <linux/filter.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "server_internal.h"

/* How long a connection must have been quiet before the drain closes it. */
#define IDLE_US 50000u
/* How often the drain looks. */
#define STEP_NS 5000000L

/* How long the accept queue must stay empty before the listener closes: a handshake begun
 * before the SYN filter went on completes within a round trip. */
#define QUEUE_QUIET_US    50000u
#define QUEUE_WAIT_MAX_US 1000000u

/*
 * Closing a listening socket resets every connection still in its accept queue: the client's
 * connect() had succeeded, its request is written, and it gets a reset. So before MHD lets go
 * of the socket, a classic BPF filter drops new SYNs (TCP header flags at offset 13: SYN set,
 * ACK clear), while the ACKs of handshakes already under way pass; MHD keeps accepting until
 * the queue (TCP_INFO's tcpi_unacked on a listener) has stayed empty for QUEUE_QUIET_US. A
 * client whose SYN was dropped retries it after a second and then meets the closed port
 * (ECONNREFUSED): refused at connect, never cut.
 */
static void empty_accept_queue(int fd) {
    static struct sock_filter drop_syn[] = {
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),          BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0x12),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x02, 0, 1), BPF_STMT(BPF_RET | BPF_K, 0),
        BPF_STMT(BPF_RET | BPF_K, 0xffffffffu),
    };
    struct sock_fprog prog = {sizeof drop_syn / sizeof drop_syn[0], drop_syn};
    if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog) != 0) {
        return;
    }
    uint64_t start = cbd_now_us(), quiet_since = start;
    for (;;) {
        uint64_t now = cbd_now_us();
        struct tcp_info info;
        socklen_t len = sizeof info;
        if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) {
            return;
        }
        if (info.tcpi_unacked != 0) {
            quiet_since = now;
        }
        if (now - quiet_since >= QUEUE_QUIET_US || now - start >= QUEUE_WAIT_MAX_US) {
            return;
        }
        struct timespec pause = {0, 2000000L};
        nanosleep(&pause, NULL);
    }
}

/*
 * The worker pool's jobs run on through the drain, their answers awaited, until JOBS_MARGIN_US
 * before its deadline (a quarter of it when shorter): those still running then stop at their
 * next progress check and are refused with a 503 that says to retry, so that their answers go
 * out and their connections close before the deadline rather than be cut at the exit.
 */
#define JOBS_MARGIN_US 250000u

static uint64_t jobs_margin_us(uint32_t deadline_s) {
    uint64_t quarter = (uint64_t)deadline_s * 1000000u / 4u;
    return quarter < JOBS_MARGIN_US ? quarter : JOBS_MARGIN_US;
}

void cbd_server_begin_drain(cbd_server *s) {
    atomic_store(&s->draining, true);
}

bool cbd_server_drain(cbd_server *s) {
    uint64_t start = cbd_now_us();
    uint64_t deadline = start + (uint64_t)s->server.drain_deadline * 1000000u;
    uint64_t cancel_at = deadline - jobs_margin_us(s->server.drain_deadline);
    cbd_server_begin_drain(s);
    if (start >= cancel_at) {
        atomic_store(&s->jobs_cancelled, true); /* a deadline of 0: before the listener's wait */
    }
    const union MHD_DaemonInfo *li = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_LISTEN_FD);
    if (li) {
        empty_accept_queue(li->listen_fd);
    }
    /* MHD removes the socket from every thread's epoll set and hands it back: closing it now
     * makes new connections fail at once (ECONNREFUSED) rather than wait in the backlog. */
    MHD_socket listen_fd = MHD_quiesce_daemon(s->daemon);
    if (listen_fd != MHD_INVALID_SOCKET) {
        close(listen_fd);
    }
    cbd_conns_state st = {0};
    for (;;) {
        uint64_t now = cbd_now_us();
        if (now >= cancel_at) {
            atomic_store(&s->jobs_cancelled, true);
        }
        cbd_conns_drain_step(s->conns, now, IDLE_US, &st);
        if (st.open == 0 || now >= deadline) {
            break;
        }
        struct timespec pause = {0, STEP_NS};
        nanosleep(&pause, NULL);
    }
    s->drain.idle_closed = st.shut_total;
    s->drain.unanswered = st.busy;
    s->drain.open_left = st.open;
    s->drain.took_ms = (cbd_now_us() - start) / 1000u;
    return st.busy == 0;
}

void cbd_server_drain_stats(const cbd_server *s, cbd_drain_stats *out) {
    *out = s->drain;
}
