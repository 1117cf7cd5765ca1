/* netwire.c - a slow, lossy Ethernet cable between two network namespaces,
 * for the namespace cluster of scripts/netns-cluster (tests/test_netns.c).
 *
 * Why a program of its own: the usual tool, `tc qdisc ... netem delay 20ms
 * loss 2%`, needs the kernel's sch_netem, and the kernels this project's
 * CI runs on are built without it (CONFIG_NET_SCH_NETEM is not set). A TAP
 * device is enough instead: this program makes one TAP interface in each of
 * two namespaces (the host's `eth0`, the switch's port) and copies every
 * Ethernet frame from one to the other itself. Frames leaving the host
 * (host -> switch) are dropped with probability LOSS % and the others
 * delivered DELAY ms after they left; frames to the host pass at once.
 * That is what netem on the host's interface does (it shapes that
 * interface's egress only). Order is kept: with one constant delay a FIFO
 * delivers in order, as netem without jitter does.
 *
 *   netwire HOST_NS HOST_IF SWITCH_NS SWITCH_IF DELAY_MS LOSS_PERCENT SEED
 *
 * It creates both interfaces (the caller sets addresses, the bridge and
 * `up`), prints "ready" on stdout when they exist, and runs until SIGTERM
 * or SIGINT; on exit the kernel removes the TAP interfaces with their last
 * file descriptor. It only ever writes a frame read from one interface to
 * the other: it sends nothing of its own, to no address.
 *
 * Invariants: a queued frame is written at or after its due time, in the
 * order it was read; the queue is bounded (QUEUE_FRAMES), and a frame that
 * finds it full is dropped, as a full qdisc drops. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* setns */
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define FRAME_MAX 2048   /* an MTU of 1500 and the Ethernet header, with room */
#define QUEUE_FRAMES 4096 /* about 8 MiB: far more than a TCP window in flight */

typedef struct {
    uint64_t due_ns;
    uint16_t len;
    unsigned char data[FRAME_MAX];
} Frame;

static Frame queue[QUEUE_FRAMES];
static size_t q_head, q_count;
static volatile sig_atomic_t quit;

static void on_signal(int sig)
{
    (void)sig;
    quit = 1;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* splitmix64: the drop decision's random numbers, reproducible by SEED. */
static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A TAP interface named ifname in the namespace /var/run/netns/ns: the
 * process enters the namespace, and the device is made where the process
 * is. Its descriptor stays valid wherever the process goes next. */
static int tap_in(const char *ns, const char *ifname)
{
    char path[512];
    snprintf(path, sizeof path, "/var/run/netns/%s", ns);
    int nsfd = open(path, O_RDONLY | O_CLOEXEC);
    if (nsfd < 0 || setns(nsfd, CLONE_NEWNET) != 0) {
        fprintf(stderr, "netwire: namespace %s: %s\n", ns, strerror(errno));
        exit(2);
    }
    close(nsfd);
    int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        fprintf(stderr, "netwire: /dev/net/tun: %s\n", strerror(errno));
        exit(2);
    }
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
    snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", ifname);
    if (ioctl(fd, TUNSETIFF, &ifr) != 0) {
        fprintf(stderr, "netwire: TAP %s in %s: %s\n", ifname, ns, strerror(errno));
        exit(2);
    }
    return fd;
}

static long number(const char *s, const char *what, long lo, long hi)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi) {
        fprintf(stderr, "netwire: %s '%s': a whole number from %ld to %ld\n", what, s, lo, hi);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr, "usage: netwire HOST_NS HOST_IF SWITCH_NS SWITCH_IF DELAY_MS LOSS_PERCENT SEED\n");
        return 2;
    }
    uint64_t delay_ns = (uint64_t)number(argv[5], "delay", 0, 10000) * 1000000u;
    long loss = number(argv[6], "loss", 0, 100);
    uint64_t rng = (uint64_t)number(argv[7], "seed", 0, 1L << 30);
    int host = tap_in(argv[1], argv[2]);
    int sw = tap_in(argv[3], argv[4]);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    printf("ready\n");
    fflush(stdout);
    unsigned char buf[FRAME_MAX];
    while (!quit) {
        uint64_t now = now_ns();
        /* Deliver what is due; a full switch side (EAGAIN) waits a turn. */
        while (q_count > 0 && queue[q_head].due_ns <= now) {
            Frame *f = &queue[q_head];
            if (write(sw, f->data, f->len) < 0 && errno == EAGAIN) break;
            q_head = (q_head + 1) % QUEUE_FRAMES;
            q_count--;
        }
        int timeout = -1;
        if (q_count > 0) {
            uint64_t due = queue[q_head].due_ns;
            timeout = due > now ? (int)((due - now + 999999) / 1000000) : 1;
        }
        struct pollfd p[2] = {{.fd = host, .events = POLLIN}, {.fd = sw, .events = POLLIN}};
        if (poll(p, 2, timeout) < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "netwire: poll: %s\n", strerror(errno));
            return 1;
        }
        if (p[1].revents & POLLIN) { /* to the host: at once */
            ssize_t n;
            while ((n = read(sw, buf, sizeof buf)) > 0)
                if (write(host, buf, (size_t)n) < 0 && errno != EAGAIN) break;
        }
        if (p[0].revents & POLLIN) { /* from the host: lost or delayed */
            ssize_t n;
            while ((n = read(host, buf, sizeof buf)) > 0) {
                if ((long)(rng_next(&rng) % 100) < loss || q_count == QUEUE_FRAMES) continue;
                Frame *f = &queue[(q_head + q_count) % QUEUE_FRAMES];
                f->due_ns = now_ns() + delay_ns;
                f->len = (uint16_t)n;
                memcpy(f->data, buf, (size_t)n);
                q_count++;
            }
        }
    }
    return 0;
}
