#include "arena_schedule.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "rng.h"

static int arena_schedule_legs(const arena_schedule_t *sc) { return sc->duplicate ? sc->players : 1; }

static int arena_schedule_leg_index(const arena_schedule_t *sc, arena_set_key_t k)
{
    return (k.pairing * sc->rounds + k.round) * arena_schedule_legs(sc) + k.leg;
}

uint64_t arena_schedule_deal_seed(const arena_schedule_t *sc, int round)
{
    return sc->deals ? sc->deals[round] : rng_derive(sc->seed, (uint64_t)round);
}

/* Which engine sits at each seat: the table rotated by the leg (or, single sets, the round).
 * Two seats: leg 0 as the table reads, leg 1 swapped. */
static int rotation(const arena_schedule_t *sc, arena_set_key_t k) { return sc->duplicate ? k.leg : k.round % sc->players; }

void arena_schedule_seats(const arena_schedule_t *sc, arena_set_key_t k, int *engine)
{
    int rot = rotation(sc, k);
    for (int s = 0; s < sc->players; s++)
        engine[s] = sc->table[k.pairing][(s + rot) % sc->players];
}

/* A seat's share of the others it finished ahead of, a tie counting half (game_returns). */
static double seat_return(const arena_set_result_t *r, int seat)
{
    double beaten = 0;
    for (int j = 0; j < r->players; j++)
        if (j != seat)
            beaten += r->rank[seat] < r->rank[j] ? 1.0 : r->rank[seat] == r->rank[j] ? 0.5 : 0.0;
    return r->players > 1 ? beaten / (r->players - 1) : 1.0;
}

/* Two seats: a pair's outcome from the table's first engine's side, 0..2 in half points a leg
 * (0, 2 or 4 when sets cannot be drawn): lost both, split, won both. */
static void tally_pair(arena_schedule_t *sc, const arena_set_line_t *s, int first_half_points)
{
    int idx = arena_schedule_leg_index(sc, s->key);
    sc->leg_rank[idx * sc->players] = (int8_t)first_half_points;
    if (!sc->duplicate) {
        sc->pair_counts[s->key.pairing].n[first_half_points == 2 ? 2 : first_half_points == 0 ? 0 : 1]++;
        return;
    }
    int other = arena_schedule_leg_index(sc, (arena_set_key_t){ s->key.pairing, s->key.round, 1 - s->key.leg });
    if (sc->leg_rank[other * sc->players] < 0)
        return;
    int total = sc->leg_rank[idx * sc->players] + sc->leg_rank[other * sc->players];
    sc->pair_counts[s->key.pairing].n[total < 2 ? 0 : total == 2 ? 1 : 2]++;
}

/* More than two seats: once every leg of a rotation group is in, each pair of its engines
 * scores the mean over the legs of finishing ahead (1), level (1/2) or behind (0). */
static void tally_group(arena_schedule_t *sc, const arena_set_line_t *s)
{
    int n = sc->players, idx = arena_schedule_leg_index(sc, s->key), rot = rotation(sc, s->key);
    for (int seat = 0; seat < n; seat++)
        sc->leg_rank[idx * n + (seat + rot) % n] = (int8_t)s->result.rank[seat];
    int first = arena_schedule_leg_index(sc, (arena_set_key_t){ s->key.pairing, s->key.round, 0 });
    for (int l = 0; l < arena_schedule_legs(sc); l++)
        if (sc->leg_rank[(first + l) * n] < 0)
            return;
    const int *t = sc->table[s->key.pairing];
    for (int p = 0; p < n; p++)
        for (int q = 0; q < n; q++) {
            if (p == q)
                continue;
            double g = 0;
            for (int l = 0; l < arena_schedule_legs(sc); l++) {
                int rp = sc->leg_rank[(first + l) * n + p], rq = sc->leg_rank[(first + l) * n + q];
                g += rp < rq ? 1.0 : rp == rq ? 0.5 : 0.0;
            }
            g /= arena_schedule_legs(sc);
            sc->pw_sum[t[p]][t[q]] += g;
            sc->pw_sq[t[p]][t[q]] += g * g;
            sc->pw_n[t[p]][t[q]]++;
        }
}

/* Two seats, settled points: a unit (a pair's two legs, or one set) counts for both engines. */
static void tally_settled(arena_schedule_t *sc, const arena_set_line_t *s)
{
    const arena_set_result_t *r = &s->result;
    const int *t = sc->table[s->key.pairing];
    int first_seat = s->engine[0] == t[0] ? 0 : 1;
    int pts = r->settled[first_seat];
    for (int seat = 0; seat < 2; seat++) {
        sc->settled_sum[s->engine[seat]] += r->settled[seat];
        sc->settled_sets[s->engine[seat]]++;
    }
    if (sc->duplicate) {
        int idx = arena_schedule_leg_index(sc, s->key);
        int other = arena_schedule_leg_index(sc, (arena_set_key_t){ s->key.pairing, s->key.round, 1 - s->key.leg });
        sc->leg_settled[idx] = pts;
        if (sc->leg_settled[other] == INT_MIN)
            return;
        pts += sc->leg_settled[other];
    }
    for (int side = 0; side < 2; side++) {
        int a = t[side], b = t[1 - side];
        double v = side == 0 ? pts : -pts;
        sc->st_sum[a][b] += v;
        sc->st_sq[a][b] += v * v;
        sc->st_n[a][b]++;
    }
}

long arena_schedule_settled(const arena_schedule_t *sc, int r, int c, double *mean, double *lo, double *hi)
{
    double sum = 0, sq = 0;
    long n = 0;
    for (int o = 0; o < sc->n_engines; o++)
        if (c < 0 ? o != r : o == c) {
            sum += sc->st_sum[r][o];
            sq += sc->st_sq[r][o];
            n += sc->st_n[r][o];
        }
    if (n == 0)
        return 0;
    *mean = sum / (double)n;
    double var = n > 1 ? (sq - sum * sum / (double)n) / (double)(n - 1) : 0.0;
    double half = 1.96 * sqrt(var > 0 ? var : 0.0) / sqrt((double)n);
    *lo = *mean - half;
    *hi = *mean + half;
    return n;
}

/* Count one finished set (lock held). */
void arena_schedule_tally(arena_schedule_t *sc, const arena_set_line_t *s)
{
    const arena_set_result_t *r = &s->result;
    sc->faults[r->reason]++;
    if (r->has_settled && sc->players == 2)
        tally_settled(sc, s);
    int first_half_points = 0;
    for (int seat = 0; seat < r->players; seat++) {
        int e = s->engine[seat];
        double ret = seat_return(r, seat);
        sc->sets[e]++;
        sc->points[e] += r->scores[seat];
        sc->rank_sum[e] += r->rank[seat];
        sc->score_sum[e] += ret;
        if (ret == 1.0)
            sc->wins[e]++;
        else if (ret == 0.0)
            sc->losses[e]++;
        else
            sc->ties[e]++;
        if (e == sc->table[s->key.pairing][0])
            first_half_points = (int)(2 * ret + 0.5);
    }
    if (sc->players == 2)
        tally_pair(sc, s, first_half_points);
    else
        tally_group(sc, s);
}

/* Counts of every unit an engine played (against -1) or played against one other, from its side. */
arena_score_counts_t arena_schedule_engine_counts(const arena_schedule_t *sc, int e, int against)
{
    arena_score_counts_t c = { { 0, 0, 0 } };
    for (int p = 0; p < sc->n_tables; p++) {
        const int *t = sc->table[p];
        for (int i = 0; i < 3; i++) {
            if (t[0] == e && (against < 0 || t[1] == against))
                c.n[i] += sc->pair_counts[p].n[i];
            else if (t[1] == e && (against < 0 || t[0] == against))
                c.n[i] += sc->pair_counts[p].n[2 - i];
        }
    }
    return c;
}

/* The score of a row engine against a column engine over rotation groups, with its 95% interval
 * (arena_stats_mean_interval: honest at the edges). Returns the number of groups. */
long arena_schedule_pairwise(const arena_schedule_t *sc, int r, int c, double *mean, double *lo, double *hi)
{
    long n = sc->pw_n[r][c];
    *mean = n > 0 ? sc->pw_sum[r][c] / (double)n : 0;
    arena_stats_mean_interval(sc->pw_sum[r][c], sc->pw_sq[r][c], n, lo, hi);
    return n;
}

/* Every set of `players` engines a table: round-robin, all of them; gauntlet, those with the
 * first engine. Two seats give the pairings (first, other) in order, as before. */
static int make_tables(arena_schedule_t *sc, char *err, size_t errlen)
{
    int n = sc->players, pick[GAME_MAX_PLAYERS];
    for (int i = 0; i < n; i++)
        pick[i] = i;
    for (;;) {
        if (sc->round_robin || pick[0] == 0) {
            if (sc->n_tables == SCHEDULE_MAX_TABLES)
                return text_fail(err, errlen, "more than %d tables of %d engines: fewer engines, or a gauntlet", SCHEDULE_MAX_TABLES, n);
            memcpy(sc->table[sc->n_tables++], pick, sizeof pick[0] * (size_t)n);
        }
        /* the next combination in lexicographic order */
        int i = n - 1;
        while (i >= 0 && pick[i] == sc->n_engines - n + i)
            i--;
        if (i < 0 || (!sc->round_robin && i == 0))
            return 0;
        pick[i]++;
        for (int j = i + 1; j < n; j++)
            pick[j] = pick[j - 1] + 1;
    }
}

int arena_schedule_build(arena_schedule_t *sc, char *err, size_t errlen)
{
    sc->n_tables = 0;
    if (make_tables(sc, err, errlen) < 0)
        return -1;
    if ((double)sc->rounds * sc->n_tables * arena_schedule_legs(sc) > 1e8)
        return text_fail(err, errlen, "that schedule holds more than 100000000 sets: fewer rounds, engines or seats");
    sc->n_jobs = sc->rounds * sc->n_tables * arena_schedule_legs(sc);
    if (!(sc->leg_rank = malloc((size_t)sc->n_jobs * (size_t)sc->players)) ||
        !(sc->leg_settled = malloc((size_t)sc->n_jobs * sizeof *sc->leg_settled))) {
        arena_schedule_free(sc);
        return text_fail(err, errlen, "out of memory for the schedule");
    }
    memset(sc->leg_rank, -1, (size_t)sc->n_jobs * (size_t)sc->players);
    for (int j = 0; j < sc->n_jobs; j++)
        sc->leg_settled[j] = INT_MIN;
    return 0;
}

void arena_schedule_free(arena_schedule_t *sc)
{
    free(sc->leg_rank);
    free(sc->leg_settled);
    sc->leg_rank = NULL;
    sc->leg_settled = NULL;
}

int arena_schedule_job_index(const arena_schedule_t *sc, arena_set_key_t k)
{
    return (k.round * sc->n_tables + k.pairing) * arena_schedule_legs(sc) + k.leg;
}

arena_set_key_t arena_schedule_job_key(const arena_schedule_t *sc, int job)
{
    int legs = arena_schedule_legs(sc);
    return (arena_set_key_t){ job / legs % sc->n_tables, job / legs / sc->n_tables, job % legs };
}

int arena_schedule_shard_of(const arena_schedule_t *sc, int job, int count) { return job / arena_schedule_legs(sc) % count; }

int arena_schedule_shard_jobs(const arena_schedule_t *sc, int index, int count)
{
    int groups = sc->n_jobs / arena_schedule_legs(sc);
    return (groups / count + (index < groups % count)) * arena_schedule_legs(sc);
}

int arena_schedule_shard_slot(const arena_schedule_t *sc, int job, int count)
{
    int legs = arena_schedule_legs(sc);
    return job / legs / count * legs + job % legs;
}

int arena_schedule_shard_job(const arena_schedule_t *sc, int index, int count, int slot)
{
    int legs = arena_schedule_legs(sc);
    return (slot / legs * count + index) * legs + slot % legs;
}

int arena_schedule_has(const arena_schedule_t *sc, arena_set_key_t k)
{
    return k.pairing >= 0 && k.pairing < sc->n_tables && k.round >= 0 && k.round < sc->rounds && k.leg >= 0 &&
           k.leg < arena_schedule_legs(sc);
}

uint64_t arena_schedule_engine_seed(const arena_schedule_t *sc, arena_set_key_t k, int seat)
{
    /* Keyed (SipHash), not derived: the run's seed also gives the deals, and an engine must not
     * be able to work back from its own seed to them. */
    return rng_keyed(sc->seed, (uint64_t)arena_schedule_leg_index(sc, k) * (uint64_t)sc->players + (uint64_t)seat);
}
