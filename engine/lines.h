/* lines: the one way the programs read a text file: a line at a time, each line bounded, so that
 * no input (one endless line, /dev/zero, a pipe that never ends a line) is read without end or
 * held whole in memory; a last line the file ends inside (no newline: a write cut short) is told
 * apart from a complete one; and a file that must be a regular file is checked before it is
 * read. It never allocates and never reads past the byte that decides a line's fate.
 */
#ifndef PICKET_LINES_H
#define PICKET_LINES_H

#include <stddef.h>
#include <stdio.h>

enum {
    LINES_EOF = -1,  /* nothing left (or a read error: see ferror) */
    LINES_LONG = -2, /* the line is longer than the buffer; the rest of it is left unread */
    LINES_NUL = -3,  /* the line holds a NUL byte; the rest of it is left unread */
    LINES_TORN = -4  /* the file ends inside this line, with no newline: its text is in buf */
};

/* One line of at most cap-1 bytes into buf, without its newline (and without a '\r' before it):
 * its length, or one of the codes above. */
int lines_read(FILE *f, char *buf, size_t cap);

/* 1 if path is a regular file, 0 if nothing is there, -1 with "PATH: reason" in err if it cannot
 * be looked at or is something else (a folder, a device, a pipe). */
int lines_is_regular(const char *path, char *err, size_t errlen);

/* 1 if the open file is a regular file (not a device, pipe or folder), else 0. */
int lines_regular(FILE *f);

/* path opened for reading if it is a regular file; NULL with "PATH: reason" in err otherwise
 * ("not a regular file", "no such file", ...). */
FILE *lines_open(const char *path, char *err, size_t errlen);

/* A whole regular file of at most max bytes, NUL-terminated, to free(); NULL with "PATH: reason"
 * in err if it is not a regular file, is larger, holds a NUL byte or cannot be read. */
char *lines_slurp(const char *path, size_t max, char *err, size_t errlen);

/* For atexit, through a program's own one-line handler: standard output flushed, and if it could
 * not be written (a full disk, > /dev/full) "PROG: cannot write the output: reason" on stderr and
 * exit status 1, whatever main returned. */
void lines_check_stdout(const char *prog);

/* Save a file whole, or not at all: write(f, data) fills a new temporary file beside path, which
 * is synced and renamed over path only if every write succeeded; a failure leaves path as it
 * was. A path that exists and is not a regular file (a device, a folder, a pipe) is never
 * replaced. 0, or -1 with "PATH: reason" in err. */
int lines_save(const char *path, int (*write)(FILE *f, void *data), void *data, char *err, size_t errlen);

#endif
