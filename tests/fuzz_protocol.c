/* libFuzzer target for everything that reads protocol input: the bounded line reader, the
 * session's command parsing, event and move notation, and the one-line position. Each input is
 * a byte stream sent to a fresh engine session through a real pipe, as stdin would be.
 * Build and run with tools/fuzz.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"
#include "session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    /* A pipe holds 64 KiB; larger inputs are cut there (run with -max_len=60000). */
    if (size > 60000)
        size = 60000;
    int fds[2];
    if (pipe(fds) < 0)
        abort();
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fds[1], data + done, size - done);
        if (w <= 0)
            abort();
        done += (size_t)w;
    }
    close(fds[1]);
    session_t *s = session_create(sink, fds[0], "fuzz", "fuzz");
    if (!s)
        abort();
    session_run(s);
    session_free(s);
    close(fds[0]);

    /* The notation parsers directly, on the input as one NUL-terminated string. */
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    const game_t *g = game_find("picket");
    game_event_t ev;
    game_move_t m;
    char err[GAME_ERR_LEN];
    for (int seat = 0; seat < 2; seat++)
        if (g->event_parse(text, seat, &ev, err, sizeof err) == 0) {
            char back[1024];
            g->event_format(&ev, back, sizeof back);
        }
    if (g->move_parse(text, &m, err, sizeof err) == 0) {
        char back[1024];
        g->move_format(&m, back, sizeof back);
    }
    free(text);
    return 0;
}
