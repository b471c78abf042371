/* arena_records: a run's game records, one file or a folder (arena_records.h). */
#define _GNU_SOURCE /* open_memstream */
#include "arena_records.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena_error.h"

void arena_records_init(arena_records_t *r, const char *path)
{
    *r = (arena_records_t){ .path = path };
    if (path) {
        size_t n = strlen(path);
        r->one_file = n > 4 && !strcmp(path + n - 4, ".txt");
    }
}

static int folder_is_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(d)))
        empty = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
    closedir(d);
    return empty;
}

int arena_records_check(const arena_records_t *r, int resume, const cJSON *run, int *create, char *err, size_t errlen)
{
    struct stat st;
    const char *p = r->path;
    *create = 0;
    if (stat(p, &st) < 0) {
        if (errno != ENOENT)
            return arena_error(err, errlen, "-records: cannot use '%.200s': %s", p, strerror(errno));
        *create = 1;
        return 0;
    }
    if (r->one_file) {
        if (!S_ISREG(st.st_mode))
            return arena_error(err, errlen, "-records: '%.200s' is not a regular file", p);
        if (st.st_size > 0 && !resume)
            return arena_error(err, errlen, "-records: '%.200s' already holds records: add -resume to continue that run, or choose another file",
                               p);
        return 0;
    }
    if (!S_ISDIR(st.st_mode))
        return arena_error(err, errlen, "-records: '%.200s' is a file, not a folder (a path ending in .txt writes one file)", p);
    if (folder_is_empty(p)) {
        *create = 1; /* run.json still to write */
        return 0;
    }
    if (!resume)
        return arena_error(err, errlen,
                           "-records: the folder '%.200s' already holds records: add -resume to continue that run, or choose another folder", p);
    /* Resuming: the folder must be this run's. */
    char path[4200];
    snprintf(path, sizeof path, "%s/run.json", p);
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;
    char why[400] = "it has no run.json";
    int ok = f && getline(&line, &cap, f) > 0;
    if (ok) {
        line[strcspn(line, "\n")] = '\0';
        ok = arena_results_compare_header(line, run, why, sizeof why) == 0;
    }
    free(line);
    if (f)
        fclose(f);
    if (!ok)
        return arena_error(err, errlen, "-records: the folder '%.200s' holds another run's records: %s", p, why);
    return 0;
}

int arena_records_open(arena_records_t *r, int create, const char *header, char *err, size_t errlen)
{
    const char *p = r->path;
    if (r->one_file) {
        if (!(r->f = fopen(p, "a")))
            return arena_error(err, errlen, "-records: cannot write '%.200s': %s", p, strerror(errno));
        return 0;
    }
    if (!create)
        return 0;
    if (mkdir(p, 0777) < 0 && errno != EEXIST)
        return arena_error(err, errlen, "-records: cannot create the folder '%.200s': %s", p, strerror(errno));
    char path[4200];
    snprintf(path, sizeof path, "%s/run.json", p);
    FILE *f = fopen(path, "w");
    if (!f || arena_results_write_text(f, header) < 0 || fclose(f) != 0)
        return arena_error(err, errlen, "-records: cannot write '%.200s': %s", path, strerror(errno));
    return 0;
}

int arena_records_close(arena_records_t *r)
{
    FILE *f = r->f;
    r->f = NULL;
    return f && fclose(f) != 0 ? -1 : 0;
}

void arena_records_set_open(const arena_records_t *r, arena_set_key_t k, arena_records_set_t *s)
{
    memset(s, 0, sizeof *s);
    if (!r->path)
        return;
    if (r->one_file) {
        s->f = open_memstream(&s->buf, &s->size);
        snprintf(s->path, sizeof s->path, "%s", r->path);
    } else {
        snprintf(s->path, sizeof s->path, "%s/round-%06d-pairing-%03d-leg-%d.txt", r->path, k.round, k.pairing, k.leg);
        s->f = fopen(s->path, "w");
    }
}

int arena_records_set_close(arena_records_t *r, arena_records_set_t *s, int keep)
{
    if (!r->path)
        return 0;
    int bad = !s->f;
    if (s->f && fclose(s->f) != 0)
        bad = 1;
    if (r->one_file) {
        if (keep && !bad && s->size > 0)
            bad = fwrite(s->buf, 1, s->size, r->f) != s->size || fputc('\n', r->f) == EOF || fflush(r->f) != 0;
        free(s->buf);
    } else if (!keep) {
        unlink(s->path);
    }
    return keep && bad ? -1 : 0;
}
