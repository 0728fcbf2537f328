/* Holds every packet of NFQUEUE queue 0 for a fixed delay (default 32 ms), then accepts it:
 * a delay line for kernels without the netem qdisc. Packets leave in arrival order.
 * Usage: nfq_delay [delay_ms] [queue]. Runs until SIGTERM/SIGINT. */
#include <arpa/inet.h>
#include <errno.h>
#include <libnetfilter_queue/libnetfilter_queue.h>
#include <linux/netfilter.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_HELD 65536

struct held_packet
{
    uint32_t id;
    uint64_t release_ns;
};

static struct held_packet held[MAX_HELD];
static size_t head, count;
static uint64_t delay_ns;
static volatile sig_atomic_t stopping;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int on_packet(struct nfq_q_handle* queue, struct nfgenmsg* message, struct nfq_data* data,
                     void* context)
{
    struct nfqnl_msg_packet_hdr* header = nfq_get_msg_packet_hdr(data);
    uint32_t id = header ? ntohl(header->packet_id) : 0;
    if (count == MAX_HELD)
    {
        return nfq_set_verdict(queue, id, NF_ACCEPT, 0, NULL); /* Full: pass undelayed. */
    }
    held[(head + count) % MAX_HELD] = (struct held_packet){id, now_ns() + delay_ns};
    ++count;
    return 0;
}

static void on_signal(int signal_number)
{
    stopping = 1;
}

int main(int argc, char** argv)
{
    delay_ns = (uint64_t)(argc > 1 ? atof(argv[1]) : 32.0) * 1000000u;
    const uint16_t queue_number = (uint16_t)(argc > 2 ? atoi(argv[2]) : 0);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    struct nfq_handle* handle = nfq_open();
    if (!handle)
    {
        perror("nfq_open");
        return 1;
    }
    struct nfq_q_handle* queue = nfq_create_queue(handle, queue_number, on_packet, NULL);
    if (!queue || nfq_set_mode(queue, NFQNL_COPY_META, 0) < 0)
    {
        perror("nfq_create_queue");
        return 1;
    }
    nfq_set_queue_maxlen(queue, MAX_HELD);
    const int fd = nfq_fd(handle);
    char buffer[65536];
    while (!stopping)
    {
        int timeout_ms = 100;
        if (count > 0)
        {
            const uint64_t now = now_ns();
            const uint64_t release = held[head].release_ns;
            timeout_ms = release > now ? (int)((release - now) / 1000000u) : 0;
        }
        struct pollfd entry = {fd, POLLIN, 0};
        if (poll(&entry, 1, timeout_ms) > 0)
        {
            const int received = recv(fd, buffer, sizeof(buffer), MSG_DONTWAIT);
            if (received > 0)
            {
                nfq_handle_packet(handle, buffer, received);
            }
        }
        /* Release every packet whose time has come (sub-millisecond remainders spin briefly). */
        for (uint64_t now = now_ns(); count > 0 && held[head].release_ns <= now;)
        {
            nfq_set_verdict(queue, held[head].id, NF_ACCEPT, 0, NULL);
            head = (head + 1) % MAX_HELD;
            --count;
        }
    }
    while (count > 0)
    {
        nfq_set_verdict(queue, held[head].id, NF_ACCEPT, 0, NULL);
        head = (head + 1) % MAX_HELD;
        --count;
    }
    nfq_destroy_queue(queue);
    nfq_close(handle);
    return 0;
}
