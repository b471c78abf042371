#include "lines.h"

#include "text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lines_read(FILE *f, char *buf, size_t cap)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (c == 0 || n + 1 >= cap) {
            buf[n] = '\0';
            return c == 0 ? LINES_NUL : LINES_LONG;
        }
        buf[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return LINES_EOF;
    if (n > 0 && buf[n - 1] == '\r')
        n--;
    buf[n] = '\0';
    return c == EOF && !ferror(f) ? LINES_TORN : (int)n;
}

int lines_is_regular(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0) {
        if (errno == ENOENT)
            return 0;
        return text_fail(err, errlen, "%s: %s", path, strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        return text_fail(err, errlen, "%s: not a regular file", path);
    return 1;
}

int lines_regular(FILE *f)
{
    struct stat st;
    return fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
}

FILE *lines_open(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return NULL;
    }
    /* Checked on the open file: what is read is what was checked. */
    if (!lines_regular(f)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        fclose(f);
        return NULL;
    }
    return f;
}

char *lines_slurp(const char *path, size_t max, char *err, size_t errlen)
{
    FILE *f = lines_open(path, err, errlen);
    if (!f)
        return NULL;
    char *text = malloc(max + 1);
    if (!text) {
        snprintf(err, errlen, "%s: out of memory", path);
        fclose(f);
        return NULL;
    }
    size_t n = fread(text, 1, max + 1, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || n > max || memchr(text, '\0', n)) {
        if (n > max)
            snprintf(err, errlen, "%s: larger than %zu bytes", path, max);
        else
            snprintf(err, errlen, "%s: %s", path, bad ? "cannot be read" : "holds a NUL byte");
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

int lines_save(const char *path, int (*write)(FILE *f, void *data), void *data, char *err, size_t errlen)
{
    if (lines_is_regular(path, err, errlen) < 0)
        return -1;
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return text_fail(err, errlen, "%s: out of memory", path);
    snprintf(tmp, n + 16, "%s.tmp-XXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    int bad = !f || write(f, data) < 0 || fflush(f) != 0 || fsync(fileno(f)) != 0;
    int e = errno;
    if (f && fclose(f) != 0 && !bad) {
        bad = 1;
        e = errno;
    } else if (!f && fd >= 0) {
        close(fd);
    }
    if (!bad && rename(tmp, path) < 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        snprintf(err, errlen, "%s: %s", path, e ? strerror(e) : "cannot be written");
        if (fd >= 0)
            unlink(tmp);
    }
    free(tmp);
    return bad ? -1 : 0;
}

void lines_check_stdout(const char *prog)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return;
    fprintf(stderr, "%s: cannot write the output: %s\n", prog, errno ? strerror(errno) : "write error");
    _exit(1);
}
