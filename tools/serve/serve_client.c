/* serve_client: the smallest HTTP/1.1 client (serve_client.h). */
#define _GNU_SOURCE
#include "serve_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int serve_client_request(int port, const char *method, const char *path, const char *body, char **out)
{
    *out = NULL;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (fd < 0)
        return 0;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return 0;
    }
    size_t blen = body ? strlen(body) : 0;
    char head[1200];
    int n = snprintf(head, sizeof head,
                     "%s %.900s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
                     "Content-Length: %zu\r\n\r\n",
                     method, path, blen);
    if (write_all(fd, head, (size_t)n) < 0 || (blen && write_all(fd, body, blen) < 0)) {
        close(fd);
        return 0;
    }
    size_t cap = 1 << 14, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = b;
        }
        ssize_t r = read(fd, buf + len, cap - len - 1);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    close(fd);
    if (!buf)
        return 0;
    buf[len] = '\0';
    int status = 0;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1)
        status = 0;
    char *b = strstr(buf, "\r\n\r\n");
    *out = strdup(b ? b + 4 : "");
    free(buf);
    return *out ? status : 0;
}
