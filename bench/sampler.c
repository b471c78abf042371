/* bench/sampler: the exact hidden-card sampler (engine/picket/picket_sampler.h) on a fixed set of
 * views. For each preset, four views from sets the heuristic bot plays for both seats from a
 * fixed seed, each the first decision point of its kind:
 *   loose  dealt     the first decision of a hand (elder to exchange, or to name a Blank count);
 *          exchange  younger to exchange, elder having discarded and drawn;
 *   tight  declared  the first lead, after all three declarations were declared and answered;
 *          voids     mid-play (a trick done), the viewer's opponent known void in a suit.
 * Each is seen from the seat that knows least there: the one whose view allows more worlds (for
 * voids, among the seats whose opponent is known void; ties: the seat to move). For each view:
 * the exact counts, the time to prepare and count (picket_sampler_new, both counts, free: the median
 * of many runs), worlds drawn per second as full states (picket_sampler_draw with a picket_state_t),
 * and a checksum over a fixed number of worlds drawn from the seed, every field of every state
 * and placement included (same seed, same checksum). Those worlds are also checked against the
 * view they came from. Then a sweep: every decision point of the first sets of each preset, from
 * both seats, counted and checked, the slowest to count timed again (the worst view seen).
 * Targets, one core: >= 1,000,000 worlds/s on the loose views, >= 100,000 on the tight ones, and
 * counting a tight view, or the sweep's slowest, in under 1 ms. */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t on the stack */
#include <xxhash.h>

#include "bot.h"
#include "picket.h"
#include "picket_sampler.h"
#include "bench_args.h"


enum { VIEW_DEALT, VIEW_EXCHANGE, VIEW_DECLARED, VIEW_VOIDS, VIEW_KINDS };
static const char *const VIEW_NAMES[VIEW_KINDS] = { "dealt", "exchange", "declared", "voids" };
static int view_is_tight(int kind) { return kind >= VIEW_DECLARED; }

enum {
    MAX_SETS = 200,         /* sets played looking for the four views of a preset */
    CHECK_WORLDS = 1000,    /* worlds a view drawn for the checksum and the consistency check */
    MAX_COUNT_RUNS = 200000
};
static const double TARGET_LOOSE = 1e6, TARGET_TIGHT = 1e5, TARGET_COUNT_S = 1e-3;

typedef struct view_case {
    int found;
    picket_view_t view;
    int hand;               /* which hand of which set it comes from */
    uint64_t set;
    uint64_t worlds, holdings;
    double count_s;         /* median time to prepare and count */
    double rate;            /* worlds drawn per second */
    uint64_t checksum;
    int inconsistent;       /* drawn worlds that do not give the view back */
    char first_diff[64];
} view_case_t;

/* The median time to prepare and count a view, over at least min_runs runs and then more while
 * `budget` seconds have not passed (at most MAX_COUNT_RUNS); its worlds and holdings. -1 with
 * the reason in err if the sampler refuses it. */
static double count_time(const picket_view_t *v, int min_runs, double budget, uint64_t *worlds, uint64_t *holdings,
                         char *err, size_t errlen)
{
    static double t[MAX_COUNT_RUNS];
    int runs = 0;
    double start = measure_now();
    while (runs < MAX_COUNT_RUNS && (runs < min_runs || measure_now() - start < budget)) {
        double t0 = measure_now();
        picket_sampler_t *s = picket_sampler_new(v, PK_SAMPLER_EXACT, err, errlen);
        if (!s)
            return -1;
        *worlds = picket_sampler_worlds(s);
        *holdings = picket_sampler_holdings(s);
        picket_sampler_free(s);
        t[runs++] = measure_now() - t0;
    }
    qsort(t, (size_t)runs, sizeof t[0], bench_cmp_double);
    return t[runs / 2];
}

/* The kind of view this decision point is, or -1; *seat: the seat to view it from. */
static int classify(const picket_state_t *st, int first_of_hand, int *seat, int *failed)
{
    const picket_pub_t *p = &st->pub;
    int who = picket_to_move(st), kind = -1;
    int answered = p->answer[0] >= 0 && p->answer[1] >= 0 && p->answer[2] >= 0;
    if (first_of_hand)
        kind = VIEW_DEALT;
    else if (p->phase == PK_PH_YOUNGER_EXCHANGE)
        kind = VIEW_EXCHANGE;
    else if (p->phase == PK_PH_PLAY && answered && !(p->played[0] | p->played[1]))
        kind = VIEW_DECLARED;
    else if (p->phase == PK_PH_PLAY && p->trick_no >= 1 && (p->voids[0] | p->voids[1]))
        kind = VIEW_VOIDS;
    if (kind < 0)
        return -1;
    /* The seat that knows least: more worlds; the seat to move on a tie. */
    uint64_t best = 0;
    *seat = -1;
    for (int k = 0; k < 2; k++) {
        int s = k == 0 ? who : 1 - who;
        if (kind == VIEW_VOIDS && !p->voids[1 - s])
            continue;
        picket_view_t v;
        picket_view_from_state(st, s, &v);
        uint64_t w, holdings;
        char err[160];
        if (count_time(&v, 1, 0, &w, &holdings, err, sizeof err) < 0) {
            fprintf(stderr, "sampler: the sampler refused a view: %s\n", err);
            *failed = 1;
            return -1;
        }
        if (*seat < 0 || w > best)
            *seat = s, best = w;
    }
    return kind;
}

/* The whole sweep of a preset: every decision point of its first sets, both seats. */
enum { SLOWEST = 8, RETIME_RUNS = 31 };
typedef struct sweep {
    int views, worlds_checked, inconsistent;
    double total_s;
    char first_diff[96];
    /* The slowest views by one timing each, timed again (median of RETIME_RUNS) at the end:
     * a single timing is at the mercy of the scheduler. */
    int nslow;
    picket_view_t slow[SLOWEST];
    double slow_s[SLOWEST];
    uint64_t slow_set[SLOWEST], slow_worlds[SLOWEST];
    double max_s;           /* the slowest median */
    char max_at[96];
} sweep_t;

/* A drawn world against the view it came from: NULL, or the first field that differs. */
static const char *world_diff(const picket_view_t *v, const picket_state_t *st, const picket_world_t *w)
{
    int opp = 1 - v->seat;
    picket_view_t back;
    picket_view_from_state(st, v->seat, &back);
    const char *diff = picket_view_diff(&back, v);
    if (!diff && w->opp_dealt != st->dealt[opp])
        diff = "opp_dealt";
    if (!diff && w->opp_discard != st->discard[opp])
        diff = "opp_discard";
    if (!diff && w->opp_holding != (st->hand[opp] | st->pub.played[opp]))
        diff = "opp_holding";
    return diff;
}

/* One view of the sweep: counted once (timed), a few worlds drawn and checked. */
static int sweep_view(sweep_t *sw, const picket_view_t *v, uint64_t set, rng_t *rng)
{
    char err[160];
    static picket_state_t st;
    picket_world_t w;
    double t0 = measure_now();
    picket_sampler_t *s = picket_sampler_new(v, PK_SAMPLER_EXACT, err, sizeof err);
    if (!s) {
        fprintf(stderr, "sampler: the sampler refused a view (set %" PRIu64 ", hand %d, %s, seat %d): %s\n", set,
                v->pub.hand_no, PK_PHASE_NAMES[v->pub.phase], v->seat, err);
        return -1;
    }
    uint64_t worlds = picket_sampler_worlds(s);
    (void)picket_sampler_holdings(s);
    double t = measure_now() - t0;
    sw->views++;
    sw->total_s += t;
    int slot = sw->nslow < SLOWEST ? sw->nslow++ : -1;
    if (slot < 0) {
        slot = 0;
        for (int i = 1; i < SLOWEST; i++)
            if (sw->slow_s[i] < sw->slow_s[slot])
                slot = i;
        if (sw->slow_s[slot] >= t)
            slot = -1;
    }
    if (slot >= 0) {
        sw->slow[slot] = *v;
        sw->slow_s[slot] = t;
        sw->slow_set[slot] = set;
        sw->slow_worlds[slot] = worlds;
    }
    for (int i = 0; i < 4 && worlds > 0; i++) {
        if (picket_sampler_draw(s, rng, &w, &st) < 0) {
            fprintf(stderr, "sampler: a draw failed on a view of %" PRIu64 " worlds (set %" PRIu64 ", hand %d, %s, "
                            "seat %d)\n", worlds, set, v->pub.hand_no, PK_PHASE_NAMES[v->pub.phase], v->seat);
            picket_sampler_free(s);
            return -1;
        }
        sw->worlds_checked++;
        const char *diff = world_diff(v, &st, &w);
        if (diff && !sw->inconsistent++)
            snprintf(sw->first_diff, sizeof sw->first_diff, "%s at set %" PRIu64 " hand %d, %s, seat %d", diff, set,
                     v->pub.hand_no, PK_PHASE_NAMES[v->pub.phase], v->seat);
    }
    picket_sampler_free(s);
    return 0;
}

/* The slowest views of the sweep, timed again: the slowest median and where. */
static void sweep_retime(sweep_t *sw)
{
    for (int i = 0; i < sw->nslow; i++) {
        char err[160];
        uint64_t worlds, holdings;
        double t = count_time(&sw->slow[i], RETIME_RUNS, 0, &worlds, &holdings, err, sizeof err);
        if (t > sw->max_s) {
            const picket_view_t *v = &sw->slow[i];
            sw->max_s = t;
            snprintf(sw->max_at, sizeof sw->max_at, "set %" PRIu64 " hand %d, %s, seat %d, %" PRIu64 " worlds",
                     sw->slow_set[i], v->pub.hand_no, PK_PHASE_NAMES[v->pub.phase], v->seat, sw->slow_worlds[i]);
        }
    }
}

/* Play sets with the heuristic bot for both seats until every kind of view is found and, with a
 * sweep, `sweep_sets` sets are done. */
static int play_sets(const picket_rules_t *r, uint64_t seed, view_case_t cases[VIEW_KINDS], int sweep_sets,
                     sweep_t *sw)
{
    char err[160];
    bot_t *bot = bot_create("heuristic", &PICKET_GAME, seed, err, sizeof err);
    if (!bot) {
        fprintf(stderr, "sampler: %s\n", err);
        return -1;
    }
    int left = VIEW_KINDS, failed = 0;
    static picket_state_t st;
    rng_t rng;
    rng_seed(&rng, seed);
    for (uint64_t set = 0; set < MAX_SETS && (left > 0 || set < (uint64_t)sweep_sets) && !failed; set++) {
        picket_init(&st, r, rng_derive(seed, set));
        int first_of_hand = 0;
        for (;;) {
            int who = picket_to_move(&st);
            if (who == GAME_OVER)
                break;
            if (who == GAME_CHANCE) {
                picket_apply_chance(&st, NULL, NULL, 0);
                first_of_hand = 1;
                continue;
            }
            picket_view_t v;
            if (set < (uint64_t)sweep_sets)
                for (int s = 0; s < 2 && !failed; s++) {
                    picket_view_from_state(&st, s, &v);
                    failed = sweep_view(sw, &v, set, &rng) < 0;
                }
            int seat, kind = left ? classify(&st, first_of_hand, &seat, &failed) : -1;
            first_of_hand = 0;
            if (failed)
                break;
            if (kind >= 0 && !cases[kind].found) {
                view_case_t *c = &cases[kind];
                c->found = 1;
                c->set = set;
                c->hand = st.pub.hand_no;
                picket_view_from_state(&st, seat, &c->view);
                left--;
            }
            picket_view_from_state(&st, who, &v);
            game_move_t m;
            if (bot_choose(bot, &v, &m) < 0) {
                fprintf(stderr, "sampler: the heuristic bot found no move\n");
                failed = 1;
                break;
            }
            picket_apply(&st, &m, NULL, 0);
        }
    }
    bot_free(bot);
    if (failed)
        return -1;
    for (int k = 0; k < VIEW_KINDS; k++)
        if (!cases[k].found)
            fprintf(stderr, "sampler: no '%s' view in %d sets\n", VIEW_NAMES[k], MAX_SETS);
    return left ? -1 : 0;
}

/* Every field of a drawn state and its placement, into the running hash. Field by field, so
 * that padding never counts; the sizes below fail the build when a field is added, so that one
 * is hashed too. */
_Static_assert(offsetof(picket_pub_t, history) == 222, "picket_pub_t changed: hash its new fields in hash_world");
_Static_assert(sizeof(picket_pub_t) == 256, "picket_pub_t changed: hash its new fields in hash_world");
_Static_assert(sizeof(picket_state_t) == 480, "picket_state_t changed: hash its new fields in hash_world");
_Static_assert(sizeof(picket_rules_t) == 16 * sizeof(int), "picket_rules_t changed: hash its new fields");
_Static_assert(sizeof(picket_know_t) == 3 * sizeof(cardset_t), "picket_know_t changed: hash its new fields");
_Static_assert(sizeof(picket_world_t) == 4 * sizeof(cardset_t), "picket_world_t changed: hash its new fields");

#define PUT(p, field) XXH64_update(p, &(field), sizeof(field))

static uint64_t hash_world(uint64_t h, const picket_state_t *st, const picket_world_t *w)
{
    XXH64_state_t state, *p = &state;
    XXH64_reset(p, h);
    const picket_pub_t *u = &st->pub;
    PUT(p, st->rules);
    PUT(p, st->deal_seed);
    PUT(p, st->pack);
    PUT(p, u->score); PUT(p, u->hand_pts); PUT(p, u->cat_pts); PUT(p, u->blank_shown); PUT(p, u->decl_shown);
    PUT(p, u->decl_cards);
    PUT(p, u->leftover_shown); PUT(p, u->played); PUT(p, u->hand_no); PUT(p, u->cut); PUT(p, u->dealer);
    PUT(p, u->phase); PUT(p, u->to_move); PUT(p, u->winner); PUT(p, u->blank); PUT(p, u->blank_count);
    PUT(p, u->discarded); PUT(p, u->drawn); PUT(p, u->stock_left); PUT(p, u->called_suit); PUT(p, u->leftover);
    PUT(p, u->appointed_suit); PUT(p, u->claim); PUT(p, u->answer); PUT(p, u->decl_winner); PUT(p, u->trick_no);
    PUT(p, u->leader); PUT(p, u->trick_card); PUT(p, u->tricks); PUT(p, u->voids); PUT(p, u->reckoned);
    PUT(p, u->piqued);
    PUT(p, u->nplayed);
    PUT(p, u->history);
    PUT(p, u->won_cats); PUT(p, u->chooser); PUT(p, u->rubicon); PUT(p, u->partie_pts);
    PUT(p, st->hand); PUT(p, st->dealt); PUT(p, st->discard); PUT(p, st->stock); PUT(p, st->holds_blank);
    PUT(p, st->set_aside); PUT(p, st->called); PUT(p, st->know);
    PUT(p, st->partie_hand); PUT(p, st->partie_before); PUT(p, st->partie_unit);
    PUT(p, w->opp_dealt); PUT(p, w->opp_discard); PUT(p, w->opp_holding); PUT(p, w->stock_unseen);
    return XXH64_digest(p);
}

/* Prepare-and-count time (median), the draw rate, and the checksum of CHECK_WORLDS worlds. */
static int measure(view_case_t *c, uint64_t seed, double budget)
{
    char err[160];
    c->count_s = count_time(&c->view, 5, budget, &c->worlds, &c->holdings, err, sizeof err);
    picket_sampler_t *s = c->count_s < 0 ? NULL : picket_sampler_new(&c->view, PK_SAMPLER_EXACT, err, sizeof err);
    if (!s) {
        fprintf(stderr, "sampler: the sampler refused a view: %s\n", err);
        return -1;
    }
    static picket_state_t st;
    picket_world_t w;
    rng_t rng;
    if (c->worlds > 0) {
        rng_seed(&rng, seed);
        uint64_t n = 0;
        double t0 = measure_now(), el;
        do {
            for (int i = 0; i < 64; i++)
                if (picket_sampler_draw(s, &rng, &w, &st) < 0)
                    goto draw_failed;
            n += 64;
            el = measure_now() - t0;
        } while (el < budget);
        c->rate = (double)n / el;
    }
    /* The checksum: a fixed number of worlds from the seed, each checked against the view. */
    rng_seed(&rng, seed);
    uint64_t h = 0;
    for (int i = 0; i < CHECK_WORLDS && c->worlds > 0; i++) {
        memset(&st, 0, sizeof st);
        if (picket_sampler_draw(s, &rng, &w, &st) < 0)
            goto draw_failed;
        h = hash_world(h, &st, &w);
        const char *diff = world_diff(&c->view, &st, &w);
        if (diff && !c->inconsistent++)
            snprintf(c->first_diff, sizeof c->first_diff, "%s", diff);
    }
    c->checksum = h;
    picket_sampler_free(s);
    return 0;
draw_failed:
    fprintf(stderr, "sampler: a draw failed on a view of %" PRIu64 " worlds\n", c->worlds);
    picket_sampler_free(s);
    return -1;
}

/* "" is no preset here (picket_preset_find takes it for the first). */
static int preset_named(const char *name) { return name[0] && picket_preset_find(name); }

int main(int argc, char **argv)
{
    uint64_t seed = 20261121;
    int quick = 0;
    uint64_t sweep_sets = UINT64_MAX; /* not given */
    const char *only = NULL;
    const bench_opt_t opts[] = {
        { "--quick", BENCH_FLAG, &quick, 0, 0, NULL },
        { "--seed", BENCH_U64, &seed, 0, UINT64_MAX, NULL },
        { "--sweep", BENCH_U64, &sweep_sets, 0, MAX_SETS, NULL },
        { "--preset", BENCH_TEXT, &only, 0, 0, preset_named },
    };
    char usage[4096];
    snprintf(usage, sizeof usage,
             "usage: sampler [--quick] [--seed S] [--preset P] [--sweep N]\n\n"
             "The exact hidden-card sampler on four views of each preset, from sets the heuristic bot\n"
             "plays for both seats (the first decision point of each kind, from the seat that knows\n"
             "least): loose, just dealt and younger to exchange; tight, the first lead after all three\n"
             "declarations, and mid-play with the opponent known void. For each: the exact counts of\n"
             "worlds and of opponent holdings, the time to prepare and count (median), worlds drawn\n"
             "per second as full states, and whether each target is met (one core: %.0f worlds/s\n"
             "loose, %.0f tight, counting a tight view under %.0f ms); then a checksum of %d worlds\n"
             "a view drawn from the seed (same seed, same checksum), each checked against its view.\n"
             "A sweep then counts every decision point of the first N sets of each preset from both\n"
             "seats, drawing and checking 4 worlds at each: the mean count, and the slowest views\n"
             "timed again (median), against the same 1 ms.\n"
             "  --quick     time each view for 0.01 s instead of 0.3 s, sweep 2 sets (same views,\n"
             "              counts and checksum)\n"
             "  --seed S    the seed of the sets and of the draws (default 20261121)\n"
             "  --preset P  one preset only (default: all four)\n"
             "  --sweep N   sets swept a preset, 0 to %d (default 20; 2 with --quick)\n"
             "Exit status 1 if the sampler fails or a drawn world disagrees with its view.\n",
             TARGET_LOOSE, TARGET_TIGHT, TARGET_COUNT_S * 1e3, CHECK_WORLDS, MAX_SETS);
    int done = bench_args(argc, argv, "sampler", usage, opts, BENCH_NOPTS(opts));
    if (done >= 0)
        return done;
    double budget = quick ? 0.01 : 0.3;
    if (sweep_sets == UINT64_MAX)
        sweep_sets = quick ? 2 : 20;
    printf("bench/sampler: seed %" PRIu64 ", views from sets the heuristic bot plays (preset i: sets seeded from "
           "rng_derive(seed, i)); one core, %.2f s a view%s\n", seed, budget, quick ? " (quick)" : "");
    printf("%-16s %-9s %-4s %-6s %-16s %16s %12s %10s %10s  %s\n", "preset", "view", "seat", "hand", "phase", "worlds",
           "holdings", "count us", "worlds/s", "targets");
    uint64_t checksum = 0;
    int met = 0, missed = 0, inconsistent = 0, views = 0;
    sweep_t sweeps[PK_PRESET_COUNT];
    memset(sweeps, 0, sizeof sweeps);
    for (int pi = 0; pi < PK_PRESET_COUNT; pi++) {
        const picket_preset_t *pr = &PICKET_PRESETS[pi];
        if (only && strcmp(only, pr->name) != 0)
            continue;
        uint64_t pseed = rng_derive(seed, (uint64_t)pi);
        view_case_t cases[VIEW_KINDS];
        memset(cases, 0, sizeof cases);
        if (play_sets(&pr->rules, pseed, cases, (int)sweep_sets, &sweeps[pi]) < 0)
            return 1;
        sweep_retime(&sweeps[pi]);
        for (int k = 0; k < VIEW_KINDS; k++) {
            view_case_t *c = &cases[k];
            if (measure(c, rng_derive(pseed, 100 + (uint64_t)k), budget) < 0)
                return 1;
            views++;
            checksum = XXH64(&c->checksum, sizeof c->checksum, checksum);
            inconsistent += c->inconsistent;
            char hand[16], targets[128];
            snprintf(hand, sizeof hand, "%" PRIu64 ".%d", c->set, c->hand);
            double want = view_is_tight(k) ? TARGET_TIGHT : TARGET_LOOSE;
            int rate_ok = c->rate >= want;
            met += rate_ok, missed += !rate_ok;
            int n = snprintf(targets, sizeof targets, "draw >= %.0f/s: target %s", want, rate_ok ? "met" : "NOT met");
            if (view_is_tight(k)) {
                int count_ok = c->count_s < TARGET_COUNT_S;
                met += count_ok, missed += !count_ok;
                snprintf(targets + n, sizeof targets - (size_t)n, "; count < 1 ms: target %s",
                         count_ok ? "met" : "NOT met");
            }
            printf("%-16s %-9s %-4d %-6s %-16s %16" PRIu64 " %12" PRIu64 " %10.2f %10.0f  %s\n", pr->name,
                   VIEW_NAMES[k], c->view.seat, hand, PK_PHASE_NAMES[c->view.pub.phase], c->worlds, c->holdings,
                   1e6 * c->count_s, c->rate, targets);
            if (c->inconsistent)
                printf("  %d of %d worlds drawn do NOT give this view back (first difference: %s)\n", c->inconsistent,
                       CHECK_WORLDS, c->first_diff);
        }
    }
    printf("hand: set.hand of the sets played; count: picket_sampler_new with both counts, median; worlds/s: full "
           "states drawn\n");
    int swept = 0, sweep_bad = 0;
    if (sweep_sets > 0)
        printf("sweep: every decision point of the first %" PRIu64 " sets, both seats: counted (timed once) and 4 "
               "worlds drawn and checked; the %d slowest timed again, median of %d\n", sweep_sets, SLOWEST,
               RETIME_RUNS);
    for (int pi = 0; pi < PK_PRESET_COUNT && sweep_sets > 0; pi++) {
        const sweep_t *sw = &sweeps[pi];
        if (only && strcmp(only, PICKET_PRESETS[pi].name) != 0)
            continue;
        swept += sw->worlds_checked;
        sweep_bad += sw->inconsistent;
        int ok = sw->max_s < TARGET_COUNT_S;
        met += ok, missed += !ok;
        printf("  %-16s %5d views: count mean %6.2f us; slowest %7.2f us (%s): < 1 ms: target %s\n",
               PICKET_PRESETS[pi].name, sw->views, sw->views ? 1e6 * sw->total_s / sw->views : 0.0, 1e6 * sw->max_s,
               sw->max_at, ok ? "met" : "NOT met");
        if (sw->inconsistent)
            printf("  %d of %d worlds drawn do NOT give their view back (first: %s)\n", sw->inconsistent,
                   sw->worlds_checked, sw->first_diff);
    }
    printf("consistency: %d of %d worlds drawn give their view back\n",
           views * CHECK_WORLDS + swept - inconsistent - sweep_bad, views * CHECK_WORLDS + swept);
    printf("targets: %d met, %d NOT met\n", met, missed);
    printf("checksum %" PRIu64 " (%d worlds a view, drawn from seed %" PRIu64 ")\n", checksum, CHECK_WORLDS, seed);
    return inconsistent || sweep_bad ? 1 : 0;
}
