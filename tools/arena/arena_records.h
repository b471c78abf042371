/* arena_records: picket-arena's -records PATH, every set as a game record (docs/records.md).
 *
 * PATH ending in .txt is one file for the run: each set's record is written to memory while it
 * is played and appended whole when it ends, so the sets of concurrent workers never mix.
 * Any other PATH is a folder with one file a set and run.json (the run's description, as the
 * results file's header holds it), so a resumed run can tell the folder is its own. A path is
 * checked before anything is written; a set cut short by the operator leaves no record. Whether
 * a set counts is the caller's to say (keep): this module never judges a result. */
#ifndef PICKET_ARENA_RECORDS_H
#define PICKET_ARENA_RECORDS_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "arena_results.h"

typedef struct arena_records {
    const char *path;   /* -records PATH (NULL: no records) */
    int one_file;       /* PATH ends in .txt */
    FILE *f;            /* one_file: the run's file, open to append */
} arena_records_t;

/* Where one set's record goes while it is played. */
typedef struct arena_records_set {
    FILE *f;            /* NULL: no record, or it could not be opened (its close fails) */
    char *buf;          /* one_file: the record in memory */
    size_t size;
    char path[4200];    /* the file it goes to ("" without records) */
} arena_records_set_t;

/* Records to path (NULL: none): one file or a folder, by its name. */
void arena_records_init(arena_records_t *r, const char *path);

/* Whether the results count the set of key k (on -resume: a set recorded but not counted is
 * played again, so its old record must go). */
typedef int (*arena_records_counted_t)(void *data, arena_set_key_t k);

/* Before anything is written: the path can take this run's records (without resume, it holds
 * none; with it, a folder's run.json means run). Resuming one file, the records it keeps are the
 * whole ones of sets counted says the results hold: a record the file ends inside, or one of a
 * set without its results line (a kill between the two writes), is taken out, since its set is
 * played again. *create is set when the file or folder's run.json must still be made. 0, or -1
 * with a reason. */
int arena_records_check(const arena_records_t *r, int resume, const cJSON *run, arena_records_counted_t counted, void *data, int *create,
                        char *err, size_t errlen);
/* Open the run's file (a new one opens with a line naming the run, by a digest of run), or make
 * the folder and its run.json (header: the results header line) when create says so. 0, or -1
 * with a reason. */
int arena_records_open(arena_records_t *r, int create, const char *header, const cJSON *run, char *err, size_t errlen);
/* Close the run's file: 0, or -1 when it could not be written. */
int arena_records_close(arena_records_t *r);

/* A set begins: where its record goes (s->f NULL without records). */
void arena_records_set_open(const arena_records_t *r, arena_set_key_t k, arena_records_set_t *s);
/* A set has ended: its record kept (keep) or thrown away. 0, or -1 when a record to keep
 * could not be written (errno says why). Called by one worker at a time. */
int arena_records_set_close(arena_records_t *r, arena_records_set_t *s, int keep);

#endif
