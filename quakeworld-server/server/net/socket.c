/* The server's UDP socket (see net/socket.h). */
#include "net/socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server.h"

int sv_net_open(const char *ip, int port, char *err, size_t errlen)
{
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    if (fd < 0) {
        snprintf(err, errlen, "socket: %s", strerror(errno));
        return -1;
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (ip && inet_pton(AF_INET, ip, &a.sin_addr) != 1) {
        snprintf(err, errlen, "-ip %s is not an IPv4 address (example: -ip 127.0.0.1)", ip);
        close(fd);
        return -1;
    }
    if (!ip)
        a.sin_addr.s_addr = htonl(INADDR_ANY);
    int size = 1 << 20;
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    /* each datagram then says how many the kernel dropped, its buffer full (net/receive.h) */
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        int e = errno;
        if (e == EADDRNOTAVAIL)
            snprintf(err, errlen, "cannot bind UDP %s:%d: -ip %s is not an address of this "
                     "machine (give one that `ip -brief address` lists, 127.0.0.1 for local "
                     "tests, or leave -ip out to listen on all)", ip ? ip : "0.0.0.0", port,
                     ip ? ip : "0.0.0.0");
        else if (e == EADDRINUSE)
            snprintf(err, errlen, "cannot bind UDP %s:%d: the port is in use (is another "
                     "server using -port %d? choose another -port)", ip ? ip : "0.0.0.0", port,
                     port);
        else if (e == EACCES)
            snprintf(err, errlen, "cannot bind UDP %s:%d: %s (ports below 1024 need root: "
                     "choose -port 1024 or above)", ip ? ip : "0.0.0.0", port, strerror(e));
        else
            snprintf(err, errlen, "cannot bind UDP %s:%d: %s", ip ? ip : "0.0.0.0", port,
                     strerror(e));
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

void sv_net_send(const struct sockaddr_in *to, const void *data, size_t len)
{
    ssize_t r;
    do
        r = sendto(sv.sock, data, len, 0, (const struct sockaddr *)to, sizeof *to);
    while (r < 0 && errno == EINTR);
}

void sv_net_send_oob(const struct sockaddr_in *to, const void *data, size_t len)
{
    uint8_t buf[QW_MAX_PACKET + 4];
    if (len > QW_MAX_PACKET)
        len = QW_MAX_PACKET;
    memcpy(buf, QW_CONNECTIONLESS_PREFIX, 4);
    memcpy(buf + 4, data, len);
    sv_net_send(to, buf, len + 4);
}

bool sv_addr_equal(const struct sockaddr_in *a, const struct sockaddr_in *b)
{
    return a->sin_addr.s_addr == b->sin_addr.s_addr && a->sin_port == b->sin_port;
}

const char *sv_addr_str(const struct sockaddr_in *a, char *buf, size_t size)
{
    char ip[INET_ADDRSTRLEN];
    inet_ntop(AF_INET, &a->sin_addr, ip, sizeof ip);
    snprintf(buf, size, "%s:%d", ip, ntohs(a->sin_port));
    return buf;
}
