/* arena_report: what picket-arena shows of a run's standings: the progress line on stderr while
 * it plays, and on stdout the final tables (standings with Elo or mean ranks, the crosstable,
 * the pairs or the pairwise table, the faults), the time it took and the SPRT's verdict. The
 * same tables serve a run, a shard and a merge of shards. It only reads the run's tallies
 * (arena_run.h); it never changes them and never writes a file. */
#ifndef PICKET_ARENA_REPORT_H
#define PICKET_ARENA_REPORT_H

#include "arena_run.h"

/* One progress line on stderr: sets done, the first engine's score and Elo (or mean rank),
 * the ETA, the SPRT's LLR. On a terminal it rewrites one line (final ends it). Nothing with
 * -quiet. */
void arena_report_progress(const arena_run_t *a, int final);
/* The standings, tables and faults of the sets done, on stdout. */
void arena_report_standings(const arena_run_t *a);
/* The SPRT's verdict from the final counts, on stdout (nothing without -sprt): sets that were
 * in flight when it decided count too. */
void arena_report_sprt(const arena_run_t *a);
/* The final report of a run: standings, the time and CPU it took, the SPRT. */
void arena_report_final(const arena_run_t *a);

#endif
