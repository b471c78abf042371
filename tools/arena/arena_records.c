/* arena_records: a run's game records, one file or a folder (arena_records.h). */
#define _GNU_SOURCE /* open_memstream */
#include "arena_records.h"
#include "lines.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "text.h"

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

/* The first line of a one-file run's records: this prefix and a digest of the run (the results
 * file's header line), short enough for any record reader. */
static const char RUN_LINE[] = "# picket-arena run ";

static void run_digest(const cJSON *run, char *out, size_t cap)
{
    char *text = cJSON_PrintUnformatted(run);
    uint64_t h = arena_results_fnv1a(ARENA_FNV1A_START, text ? text : "", text ? strlen(text) : 0);
    free(text);
    snprintf(out, cap, "%016" PRIx64, h);
}

/* The whole records of a one-file run to keep on -resume: byte ranges of the file. */
typedef struct kept {
    FILE *in;
    long (*range)[2];
    int n;
} kept_t;

static int copy_kept(FILE *out, void *data)
{
    const kept_t *k = data;
    char buf[65536];
    for (int i = 0; i < k->n; i++) {
        if (fseek(k->in, k->range[i][0], SEEK_SET) < 0)
            return -1;
        for (long left = k->range[i][1] - k->range[i][0]; left > 0;) {
            size_t want = left < (long)sizeof buf ? (size_t)left : sizeof buf, got = fread(buf, 1, want, k->in);
            if (got == 0 || fwrite(buf, 1, got, out) != got)
                return -1;
            left -= (long)got;
        }
    }
    return 0;
}

/* Resuming one file: it must open with this run's line. A record ends after its "result" line
 * and a blank line; a record the file ends inside (the run stopped while it was written, as on
 * a full disk), or one whose set the results do not count (killed between the record and the
 * results line), is taken out: its set is played again. Only a torn end: the file is cut; a
 * record not counted: the file is written again (lines_save) without it. 0, or -1 with a reason. */
static int resume_one_file(const char *p, const cJSON *run, arena_records_counted_t counted, void *data, char *err, size_t errlen)
{
    char why[400] = "its first line is not a picket-arena run line";
    FILE *f = fopen(p, "r");
    char *line = f ? malloc(RESULTS_MAX_LINE) : NULL;
    kept_t k = { f, NULL, 0 };
    int cap = 0, dropped = 0, rc = 0;
    if (!line) {
        if (f)
            fclose(f);
        return text_fail(err, errlen, "-records: cannot resume '%.200s': %s", p, f ? "out of memory" : strerror(errno));
    }
    char digest[32];
    run_digest(run, digest, sizeof digest);
    int len = lines_read(f, line, RESULTS_MAX_LINE), ok = len > 0 && !strncmp(line, RUN_LINE, sizeof RUN_LINE - 1);
    if (ok && strcmp(line + sizeof RUN_LINE - 1, digest) != 0) {
        ok = 0;
        snprintf(why, sizeof why, "its run line differs (another configuration, seed or engines)");
    }
    long start = 0, good = ftell(f);
    int after_result = 0, keep = 1;
    while (ok && rc == 0 && (len = lines_read(f, line, RESULTS_MAX_LINE)) != LINES_EOF) {
        arena_set_key_t key;
        if (len > 0 && sscanf(line, "# set pairing %d round %d leg %d", &key.pairing, &key.round, &key.leg) == 3)
            keep = counted(data, key);
        if (len == 0 && after_result) {
            /* a whole record, [good, here); the run line is range 0 */
            if (k.n + 1 >= cap) {
                long(*more)[2] = realloc(k.range, sizeof *k.range * (size_t)(cap = 2 * cap + 16));
                if (!more) {
                    rc = text_fail(err, errlen, "-records: out of memory resuming '%.200s'", p);
                    break;
                }
                k.range = more;
            }
            if (k.n == 0)
                k.range[k.n][0] = start, k.range[k.n++][1] = good;
            if (keep)
                k.range[k.n][0] = good, k.range[k.n++][1] = ftell(f);
            else
                dropped++;
            good = ftell(f);
            keep = 1;
        }
        after_result = len > 0 && !strncmp(line, "result ", 7);
    }
    long end = ok && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : 0;
    if (rc < 0)
        ;
    else if (!ok)
        rc = text_fail(err, errlen, "-records: '%.200s' holds another run's records: %s", p, why);
    else if (dropped) {
        char whysave[600];
        if (lines_save(p, copy_kept, &k, whysave, sizeof whysave) < 0)
            rc = text_fail(err, errlen, "-records: cannot take the records of sets not counted out of '%.200s': %s", p, whysave);
        else
            fprintf(stderr, "picket-arena: -resume: took %d record%s of sets with no results line%s out of '%.200s' (played again)\n",
                    dropped, dropped == 1 ? "" : "s", end > good ? ", and a torn one," : "", p);
    } else if (end > good) {
        if (truncate(p, good) < 0)
            rc = text_fail(err, errlen, "-records: cannot cut the torn record at the end of '%.200s': %s", p, strerror(errno));
        else
            fprintf(stderr, "picket-arena: -resume: cut a torn record at the end of '%.200s' (its set is played again)\n", p);
    }
    free(k.range);
    free(line);
    fclose(f);
    return rc;
}

int arena_records_check(const arena_records_t *r, int resume, const cJSON *run, arena_records_counted_t counted, void *data, int *create,
                        char *err, size_t errlen)
{
    struct stat st;
    const char *p = r->path;
    *create = 0;
    if (stat(p, &st) < 0) {
        if (errno != ENOENT)
            return text_fail(err, errlen, "-records: cannot use '%.200s': %s", p, strerror(errno));
        *create = 1;
        return 0;
    }
    if (r->one_file) {
        if (!S_ISREG(st.st_mode))
            return text_fail(err, errlen, "-records: '%.200s' is not a regular file", p);
        if (st.st_size > 0 && !resume)
            return text_fail(err, errlen, "-records: '%.200s' already holds records: add -resume to continue that run, or choose another file",
                               p);
        *create = st.st_size == 0;
        return st.st_size > 0 ? resume_one_file(p, run, counted, data, err, errlen) : 0;
    }
    if (!S_ISDIR(st.st_mode))
        return text_fail(err, errlen, "-records: '%.200s' is a file, not a folder (a path ending in .txt writes one file)", p);
    if (folder_is_empty(p)) {
        *create = 1; /* run.json still to write */
        return 0;
    }
    if (!resume)
        return text_fail(err, errlen,
                           "-records: the folder '%.200s' already holds records: add -resume to continue that run, or choose another folder", p);
    /* Resuming: the folder must be this run's. */
    char path[4200];
    snprintf(path, sizeof path, "%s/run.json", p);
    char why[400] = "it has no run.json";
    FILE *f = lines_open(path, why, sizeof why);
    char *line = f ? malloc(RESULTS_MAX_LINE) : NULL;
    int ok = line && lines_read(f, line, RESULTS_MAX_LINE) >= 0;
    if (ok)
        ok = arena_results_compare_header(line, run, why, sizeof why) == 0;
    free(line);
    if (f)
        fclose(f);
    if (!ok)
        return text_fail(err, errlen, "-records: the folder '%.200s' holds another run's records: %s", p, why);
    return 0;
}

int arena_records_open(arena_records_t *r, int create, const char *header, const cJSON *run, char *err, size_t errlen)
{
    const char *p = r->path;
    if (r->one_file) {
        if (!(r->f = fopen(p, "a")))
            return text_fail(err, errlen, "-records: cannot write '%.200s': %s", p, strerror(errno));
        char digest[32];
        run_digest(run, digest, sizeof digest);
        if (create && (fprintf(r->f, "%s%s\n", RUN_LINE, digest) < 0 || fflush(r->f) != 0))
            return text_fail(err, errlen, "-records: cannot write '%.200s': %s", p, strerror(errno));
        return 0;
    }
    if (!create)
        return 0;
    if (mkdir(p, 0777) < 0 && errno != EEXIST)
        return text_fail(err, errlen, "-records: cannot create the folder '%.200s': %s", p, strerror(errno));
    char path[4200];
    snprintf(path, sizeof path, "%s/run.json", p);
    FILE *f = fopen(path, "w");
    if (!f || arena_results_write_text(f, header) < 0 || fclose(f) != 0)
        return text_fail(err, errlen, "-records: cannot write '%.200s': %s", path, strerror(errno));
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
    /* Durably written: flushed and synced before the set's results line says it is done. */
    if (s->f && !r->one_file && keep && (fflush(s->f) != 0 || fsync(fileno(s->f)) != 0))
        bad = 1;
    if (s->f && fclose(s->f) != 0)
        bad = 1;
    if (r->one_file) {
        if (keep && !bad && s->size > 0)
            bad = fwrite(s->buf, 1, s->size, r->f) != s->size || fputc('\n', r->f) == EOF || fflush(r->f) != 0 ||
                  fsync(fileno(r->f)) != 0;
        free(s->buf);
    } else if (!keep) {
        unlink(s->path);
    }
    return keep && bad ? -1 : 0;
}
