/* The arena's statistics (tools/arena/arena_stats.h, docs/arena.md "How the statistics are
 * computed"): they agree with the textbook formulas where those hold (the normal approximation
 * over many units, Wilson's interval for units won or lost, the binomial SPRT), and they stay
 * honest at the edges: no units, one unit, every unit won, lost or split, 99.7%.
 *
 * Known values were computed with these formulas; if a change of method moves one, print the new
 * value with printf("%.12f") and check it against the formula in the test's comment first. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena_stats.h"
#include "test_util.h"

#define Z 1.959963984540054 /* the two-sided 95% normal quantile */

static const arena_sprt_t SPRT_0_10 = { 0, 10, 0.05, 0.05 };

static arena_score_summary_t summary(long lost, long split, long won)
{
    arena_score_counts_t c = { { lost, split, won } };
    arena_score_summary_t s;
    arena_stats_summarize(&c, &s);
    return s;
}

static double llr(long lost, long split, long won, const arena_sprt_t *t)
{
    arena_score_counts_t c = { { lost, split, won } };
    return arena_stats_sprt_llr(&c, t);
}

static const char *elo_text(const arena_score_summary_t *s, char *buf)
{
    arena_stats_format_elo(s, buf, STATS_ELO_TEXT);
    return buf;
}

/* Wilson's score interval of k successes in n trials (Wilson 1927). */
static void wilson(double k, double n, double *lo, double *hi)
{
    double p = k / n, z2 = Z * Z, centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = Z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    *lo = centre - half;
    *hi = centre + half;
}

/* ---------------------------------------------------------------- Elo and score */

static void test_elo_and_score_are_inverse(void)
{
    CU_ASSERT_DOUBLE_EQUAL(arena_stats_elo(0.5), 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(arena_stats_elo(0.75), 190.848, 1e-3); /* 400 log10(3) */
    CU_ASSERT_DOUBLE_EQUAL(arena_stats_score(arena_stats_elo(0.64)), 0.64, 1e-9);
}

/* ---------------------------------------------------------------- the interval, ordinary cases */

/* Over many units with a spread, the score interval is the normal approximation m +- 1.96
 * sqrt(v/n) to within 1% of its half width (300/400/300: v = 0.15, half width 0.0240). */
static void test_interval_agrees_with_normal_approximation_over_many_units(void)
{
    static const long cases[][3] = { { 300, 400, 300 }, { 300, 400, 320 }, { 3000, 4000, 3200 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        arena_score_summary_t s = summary(cases[i][0], cases[i][1], cases[i][2]);
        double n = (double)s.units, m = s.score;
        double v = (0.25 * (double)cases[i][1] + (double)cases[i][2]) / n - m * m, half = Z * sqrt(v / n);
        CU_ASSERT(fabs(s.score_lo - (m - half)) < 0.01 * half);
        CU_ASSERT(fabs(s.score_hi - (m + half)) < 0.01 * half);
    }
}

/* Known value (the score interval with the restricted-MLE variance): 60 won, 20 split, 20 lost. */
static void test_interval_known_value_seventy_percent(void)
{
    arena_score_summary_t s = summary(20, 20, 60);
    CU_ASSERT_EQUAL(s.units, 100);
    CU_ASSERT_DOUBLE_EQUAL(s.score, 0.7, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.score_lo, 0.615984623182, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(s.score_hi, 0.771400872551, 1e-9);
}

/* Units only won or lost (single sets, which cannot be drawn): exactly Wilson's interval. */
static void test_interval_of_units_won_or_lost_is_wilson(void)
{
    static const long cases[][2] = { { 5, 3 }, { 100, 120 }, { 3, 997 }, { 0, 8 }, { 8, 0 }, { 0, 1 }, { 1, 0 } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        arena_score_summary_t s = summary(cases[i][0], 0, cases[i][1]);
        double lo, hi;
        wilson((double)cases[i][1], (double)(cases[i][0] + cases[i][1]), &lo, &hi);
        CU_ASSERT_DOUBLE_EQUAL(s.score_lo, fmax(0, lo), 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(s.score_hi, fmin(1, hi), 1e-9);
    }
}

/* ---------------------------------------------------------------- the interval at the edges */

/* No units: no information, the whole range; score 1/2, Elo 0 [-inf, +inf], LOS 1/2. */
static void test_no_units_give_the_whole_range(void)
{
    arena_score_summary_t s = summary(0, 0, 0);
    CU_ASSERT_EQUAL(s.units, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score, 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score_lo, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score_hi, 1.0, 0);
    CU_ASSERT(isinf(s.elo_lo) && s.elo_lo < 0);
    CU_ASSERT(isinf(s.elo_hi) && s.elo_hi > 0);
    CU_ASSERT_DOUBLE_EQUAL(s.los, 0.5, 0);
}

/* One pair won: Wilson's [1/(1 + z^2), 1]; one split: [0.103, 0.897], of nonzero width. */
static void test_one_unit_gives_a_wide_interval(void)
{
    arena_score_summary_t won = summary(0, 0, 1), split = summary(0, 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(won.score_lo, 1 / (1 + Z * Z), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(won.score_hi, 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(split.score_lo, 0.103274657189, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(split.score_hi, 1 - split.score_lo, 1e-12);
}

/* Eight pairs won: the score is 1 but its interval is Wilson's [8/(8 + z^2), 1], not [1, 1];
 * its Elo is +infinity with a finite lower end. */
static void test_eight_pairs_won_keep_a_lower_bound(void)
{
    arena_score_summary_t s = summary(0, 0, 8);
    CU_ASSERT_DOUBLE_EQUAL(s.score, 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score_lo, 8 / (8 + Z * Z), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.score_hi, 1.0, 0);
    CU_ASSERT(isinf(s.elo) && s.elo > 0);
    CU_ASSERT(isinf(s.elo_hi) && s.elo_hi > 0);
    CU_ASSERT_DOUBLE_EQUAL(s.elo_lo, 127.4375, 1e-4);
}

static void test_eight_pairs_lost_keep_an_upper_bound(void)
{
    arena_score_summary_t s = summary(8, 0, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score_lo, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score_hi, Z * Z / (8 + Z * Z), 1e-12);
    CU_ASSERT(isinf(s.elo) && s.elo < 0);
    CU_ASSERT_DOUBLE_EQUAL(s.elo_hi, -127.4375, 1e-4);
}

/* Every pair split: no observed spread, yet the interval is 1/2 +- (z^2/2)/(n + z^2), the
 * variance at a score s != 1/2 being that of the likeliest distribution with mean s. */
static void test_all_splits_give_an_interval_of_nonzero_width(void)
{
    arena_score_summary_t s = summary(0, 8, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score, 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(s.score_lo, 0.5 - 0.5 * Z * Z / (8 + Z * Z), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.score_hi, 0.5 + 0.5 * Z * Z / (8 + Z * Z), 1e-12);
}

/* 99.7%: the normal approximation's upper end passes 1 (+2400 once clamped); this one stays
 * below 1 and its Elo finite. */
static void test_ninety_nine_point_seven_percent_stays_below_one(void)
{
    arena_score_summary_t s = summary(1, 4, 995);
    CU_ASSERT_DOUBLE_EQUAL(s.score, 0.997, 1e-12);
    CU_ASSERT(s.score_hi < 1);
    CU_ASSERT_DOUBLE_EQUAL(s.score_hi, 0.998737228174, 1e-9);
    CU_ASSERT(isfinite(s.elo_hi) && s.elo_hi < 1200);
}

/* For every count up to 8 of each outcome: 0 <= lo <= mean <= hi <= 1, hi > lo, and the interval
 * of the same counts doubled is narrower. */
static void test_interval_is_ordered_inside_zero_one_and_shrinks(void)
{
    for (long a = 0; a <= 8; a++)
        for (long b = 0; b <= 8; b++)
            for (long c = 0; c <= 8; c++) {
                if (a + b + c == 0)
                    continue;
                arena_score_summary_t s = summary(a, b, c), twice = summary(2 * a, 2 * b, 2 * c);
                CU_ASSERT(s.score_lo >= 0 && s.score_lo <= s.score && s.score <= s.score_hi && s.score_hi <= 1);
                CU_ASSERT(s.score_hi - s.score_lo > 0);
                CU_ASSERT(twice.score_hi - twice.score_lo < s.score_hi - s.score_lo);
                CU_ASSERT(s.elo_lo <= s.elo && s.elo <= s.elo_hi);
            }
}

/* ---------------------------------------------------------------- LOS */

/* LOS = Phi((won - lost) / sqrt(won + lost)) (cutechess, fastchess); splits are not decisive. */
static void test_los_counts_decisive_units(void)
{
    CU_ASSERT_DOUBLE_EQUAL(summary(0, 0, 1).los, 0.841344746069, 1e-9); /* Phi(1), not 1 */
    CU_ASSERT_DOUBLE_EQUAL(summary(1, 0, 0).los, 1 - 0.841344746069, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(summary(0, 0, 8).los, 0.997661132509, 1e-9); /* Phi(sqrt 8) */
    CU_ASSERT_DOUBLE_EQUAL(summary(0, 8, 0).los, 0.5, 0);
    CU_ASSERT_DOUBLE_EQUAL(summary(300, 400, 320).los, 0.5 * erfc(-20 / sqrt(2.0 * 620)), 1e-12);
    CU_ASSERT(summary(20, 20, 60).los > 0.999);
}

/* ---------------------------------------------------------------- Elo as text */

static void test_elo_text_of_an_ordinary_score(void)
{
    char buf[STATS_ELO_TEXT];
    arena_score_summary_t s = summary(20, 20, 60), even = summary(30, 40, 30), lean = summary(5, 0, 3);
    CU_ASSERT_STRING_EQUAL(elo_text(&s, buf), "+147 [+82, +211]");
    CU_ASSERT_STRING_EQUAL(elo_text(&even, buf), "+0 [-53, +53]");
    CU_ASSERT_STRING_EQUAL(elo_text(&lean, buf), "-89 [-320, +142]");
}

/* A score a hair under 1/2 (Elo -0.17) prints "+0", never "-0". */
static void test_elo_text_never_prints_minus_zero(void)
{
    char buf[STATS_ELO_TEXT];
    arena_score_summary_t s = summary(1001, 0, 1000);
    CU_ASSERT(s.elo < 0);
    CU_ASSERT_STRING_EQUAL(elo_text(&s, buf), "+0 [-15, +15]");
    arena_score_summary_t all_split = summary(0, 8, 0);
    CU_ASSERT_STRING_EQUAL(elo_text(&all_split, buf), "+0 [-117, +117]");
}

/* 100% prints the lower end only, 0% the upper end only: never +2400 [+2400, +2400]. */
static void test_elo_text_at_zero_and_one_hundred_percent(void)
{
    char buf[STATS_ELO_TEXT];
    arena_score_summary_t won8 = summary(0, 0, 8), lost8 = summary(8, 0, 0), won1 = summary(0, 0, 1), lost1 = summary(1, 0, 0);
    CU_ASSERT_STRING_EQUAL(elo_text(&won8, buf), "> +127");
    CU_ASSERT_STRING_EQUAL(elo_text(&lost8, buf), "< -127");
    CU_ASSERT_STRING_EQUAL(elo_text(&won1, buf), "> -234");
    CU_ASSERT_STRING_EQUAL(elo_text(&lost1, buf), "< +234");
}

static void test_elo_text_at_ninety_nine_point_seven_percent(void)
{
    char buf[STATS_ELO_TEXT];
    arena_score_summary_t s = summary(3, 0, 997);
    CU_ASSERT_STRING_EQUAL(elo_text(&s, buf), "+1009 [+821, +1196]");
}

static void test_elo_text_of_no_units_is_a_dash(void)
{
    char buf[STATS_ELO_TEXT];
    arena_score_summary_t s = summary(0, 0, 0);
    CU_ASSERT_STRING_EQUAL(elo_text(&s, buf), "-");
}

/* Any doubles fit STATS_ELO_TEXT; an infinite end of an interval around a finite Elo is named. */
static void test_elo_text_fits_its_buffer(void)
{
    char buf[64];
    arena_score_summary_t huge = { 1, 0.5, 0, 1, -123456.7, -1e300, -5e5, 0.5 };
    arena_stats_format_elo(&huge, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "-123457 [-999999, -500000]");
    CU_ASSERT(strlen(buf) < STATS_ELO_TEXT);
    arena_score_summary_t open = { 1, 0.5, 0, 1, 100.4, 49.6, INFINITY, 0.5 };
    arena_stats_format_elo(&open, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "+100 [+50, +inf]");
    char small[6];
    arena_stats_format_elo(&open, small, sizeof small);
    CU_ASSERT_STRING_EQUAL(small, "+100 ");
}

/* ---------------------------------------------------------------- SPRT */

static void test_sprt_bounds(void)
{
    CU_ASSERT_DOUBLE_EQUAL(arena_stats_sprt_upper(&SPRT_0_10), log(19.0), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(arena_stats_sprt_lower(&SPRT_0_10), -log(19.0), 1e-12);
}

static void test_sprt_llr_is_zero_without_units(void) { CU_ASSERT_DOUBLE_EQUAL(llr(0, 0, 0, &SPRT_0_10), 0.0, 0); }

/* In ordinary cases the GSPRT agrees with fastchess's normal approximation
 * n (s1 - s0) (2m - s0 - s1) / (2v) to within 1%. */
static void test_sprt_llr_agrees_with_normal_approximation(void)
{
    static const long cases[][3] = { { 300, 400, 320 }, { 3000, 4000, 3200 }, { 300, 400, 300 }, { 100, 0, 120 } };
    double s0 = arena_stats_score(0), s1 = arena_stats_score(10);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double n = (double)(cases[i][0] + cases[i][1] + cases[i][2]);
        double m = (0.5 * (double)cases[i][1] + (double)cases[i][2]) / n;
        double v = (0.25 * (double)cases[i][1] + (double)cases[i][2]) / n - m * m;
        double normal = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v);
        double exact = llr(cases[i][0], cases[i][1], cases[i][2], &SPRT_0_10);
        CU_ASSERT(fabs(exact - normal) < 0.01 * fabs(normal));
    }
    CU_ASSERT(llr(20, 20, 60, &SPRT_0_10) > 0);
    CU_ASSERT(llr(30, 40, 30, &SPRT_0_10) < 0);
}

/* Pairs all won: LLR = n log(s1/s0) = 0.028368 n, which passes ln 19 at n = 104 (103.79). */
static void test_sprt_accepts_h1_after_104_pairs_all_won(void)
{
    double s0 = arena_stats_score(0), s1 = arena_stats_score(10);
    CU_ASSERT_DOUBLE_EQUAL(llr(0, 0, 8, &SPRT_0_10), 8 * log(s1 / s0), 1e-12);
    CU_ASSERT(llr(0, 0, 103, &SPRT_0_10) < arena_stats_sprt_upper(&SPRT_0_10));
    CU_ASSERT(llr(0, 0, 104, &SPRT_0_10) >= arena_stats_sprt_upper(&SPRT_0_10));
}

/* Pairs all lost (an engine that never starts): LLR = n log((1-s1)/(1-s0)) = -0.029196 n, which
 * passes -ln 19 at n = 101 (100.85). */
static void test_sprt_accepts_h0_after_101_pairs_all_lost(void)
{
    double s0 = arena_stats_score(0), s1 = arena_stats_score(10);
    CU_ASSERT_DOUBLE_EQUAL(llr(8, 0, 0, &SPRT_0_10), 8 * log((1 - s1) / (1 - s0)), 1e-12);
    CU_ASSERT(llr(100, 0, 0, &SPRT_0_10) > arena_stats_sprt_lower(&SPRT_0_10));
    CU_ASSERT(llr(101, 0, 0, &SPRT_0_10) <= arena_stats_sprt_lower(&SPRT_0_10));
}

/* Pairs all split are exactly even: LLR = n log(2 (1 - s1)), H0 after 101 as well. */
static void test_sprt_accepts_h0_after_101_pairs_all_split(void)
{
    CU_ASSERT_DOUBLE_EQUAL(llr(0, 8, 0, &SPRT_0_10), 8 * log(2 * (1 - arena_stats_score(10))), 1e-12);
    CU_ASSERT(llr(0, 100, 0, &SPRT_0_10) > arena_stats_sprt_lower(&SPRT_0_10));
    CU_ASSERT(llr(0, 101, 0, &SPRT_0_10) <= arena_stats_sprt_lower(&SPRT_0_10));
}

/* Single sets (no duplicate, no draws): Wald's binomial SPRT, won log(s1/s0) + lost
 * log((1-s1)/(1-s0)). */
static void test_sprt_of_single_sets_is_the_binomial_sprt(void)
{
    static const long cases[][2] = { { 5, 3 }, { 100, 120 }, { 480, 520 }, { 0, 3 } };
    arena_sprt_t wide = { -20, 40, 0.05, 0.1 };
    double s0 = arena_stats_score(wide.elo0), s1 = arena_stats_score(wide.elo1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double lost = (double)cases[i][0], won = (double)cases[i][1];
        double want = won * log(s1 / s0) + lost * log((1 - s1) / (1 - s0));
        CU_ASSERT_DOUBLE_EQUAL(llr(cases[i][0], 0, cases[i][1], &wide), want, 1e-9);
    }
}

/* ---------------------------------------------------------------- mean interval (N seats) */

static void test_mean_interval_without_values_is_the_whole_range(void)
{
    double lo, hi;
    arena_stats_mean_interval(0, 0, 0, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, 1.0, 0);
}

/* Values of only 0 and 1: Wilson's interval; all 1 or all 0 included. */
static void test_mean_interval_of_zeros_and_ones_is_wilson(void)
{
    double lo, hi, wlo, whi;
    arena_stats_mean_interval(300, 300, 1000, &lo, &hi);
    wilson(300, 1000, &wlo, &whi);
    CU_ASSERT_DOUBLE_EQUAL(lo, wlo, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hi, whi, 1e-9);
    arena_stats_mean_interval(8, 8, 8, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(lo, 8 / (8 + Z * Z), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hi, 1.0, 0);
    arena_stats_mean_interval(0, 0, 8, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(hi, Z * Z / (8 + Z * Z), 1e-12);
}

/* Values 0, 1/2, 1 in the proportions of pairs give the pairs' interval (the same method). */
static void test_mean_interval_of_pair_scores_is_the_pairs_interval(void)
{
    double lo, hi;
    arena_score_summary_t s = summary(300, 400, 300), split = summary(0, 8, 0);
    arena_stats_mean_interval(0.5 * 400 + 300, 0.25 * 400 + 300, 1000, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(lo, s.score_lo, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hi, s.score_hi, 1e-9);
    arena_stats_mean_interval(4, 2, 8, &lo, &hi); /* eight values of 1/2: no observed spread */
    CU_ASSERT_DOUBLE_EQUAL(lo, split.score_lo, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(hi, split.score_hi, 1e-9);
}

/* Any values: ordered, inside [0, 1], of nonzero width, even from one value or out-of-range sums. */
static void test_mean_interval_holds_at_the_edges(void)
{
    static const double cases[][3] = { /* sum, sum of squares, n */
        { 0.3, 0.09, 1 }, { 2.4, 0.72, 8 }, { 7.9, 7.8, 8 }, { 0.1, 0.01, 8 }, { 50, 30, 100 },
        { 5, 100, 10 }, { 5, 0, 10 }, { -3, 2, 10 }, { 12, 12, 10 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double lo, hi, m = fmin(1, fmax(0, cases[i][0] / cases[i][2]));
        arena_stats_mean_interval(cases[i][0], cases[i][1], (long)cases[i][2], &lo, &hi);
        CU_ASSERT(lo >= 0 && lo <= m && m <= hi && hi <= 1);
        CU_ASSERT(hi - lo > 0);
    }
}

/* Over many values with a spread: at a mean of 1/2 the ends are within 1% of the normal
 * approximation's; off 1/2 the interval leans away from the nearer end of [0, 1], as Wilson's
 * does, and its width stays within 1%. */
static void test_mean_interval_agrees_with_normal_approximation(void)
{
    double n = 2000, v = 0.05, lo, hi, half = Z * sqrt(v / n);
    arena_stats_mean_interval(n * 0.5, n * (v + 0.25), (long)n, &lo, &hi);
    CU_ASSERT(fabs(lo - (0.5 - half)) < 0.01 * half);
    CU_ASSERT(fabs(hi - (0.5 + half)) < 0.01 * half);
    arena_stats_mean_interval(n * 0.55, n * (v + 0.55 * 0.55), (long)n, &lo, &hi);
    CU_ASSERT(fabs((hi - lo) - 2 * half) < 0.01 * 2 * half);
    CU_ASSERT(0.55 - lo > hi - 0.55);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("stats", NULL, NULL);
    CU_add_test(s, "Elo and score are inverse", test_elo_and_score_are_inverse);
    CU_add_test(s, "interval: the normal approximation over many units", test_interval_agrees_with_normal_approximation_over_many_units);
    CU_add_test(s, "interval: known value at 70%", test_interval_known_value_seventy_percent);
    CU_add_test(s, "interval: units won or lost give Wilson's", test_interval_of_units_won_or_lost_is_wilson);
    CU_add_test(s, "interval: no units, the whole range", test_no_units_give_the_whole_range);
    CU_add_test(s, "interval: one unit, a wide interval", test_one_unit_gives_a_wide_interval);
    CU_add_test(s, "interval: eight pairs won keep a lower bound", test_eight_pairs_won_keep_a_lower_bound);
    CU_add_test(s, "interval: eight pairs lost keep an upper bound", test_eight_pairs_lost_keep_an_upper_bound);
    CU_add_test(s, "interval: all splits, nonzero width", test_all_splits_give_an_interval_of_nonzero_width);
    CU_add_test(s, "interval: 99.7% stays below 1", test_ninety_nine_point_seven_percent_stays_below_one);
    CU_add_test(s, "interval: ordered, inside [0, 1], shrinks", test_interval_is_ordered_inside_zero_one_and_shrinks);
    CU_add_test(s, "LOS counts decisive units", test_los_counts_decisive_units);
    CU_add_test(s, "Elo text: ordinary", test_elo_text_of_an_ordinary_score);
    CU_add_test(s, "Elo text: never -0", test_elo_text_never_prints_minus_zero);
    CU_add_test(s, "Elo text: 0% and 100%", test_elo_text_at_zero_and_one_hundred_percent);
    CU_add_test(s, "Elo text: 99.7%", test_elo_text_at_ninety_nine_point_seven_percent);
    CU_add_test(s, "Elo text: no units", test_elo_text_of_no_units_is_a_dash);
    CU_add_test(s, "Elo text: fits its buffer", test_elo_text_fits_its_buffer);
    CU_add_test(s, "SPRT: bounds", test_sprt_bounds);
    CU_add_test(s, "SPRT: LLR 0 without units", test_sprt_llr_is_zero_without_units);
    CU_add_test(s, "SPRT: the normal approximation in ordinary cases", test_sprt_llr_agrees_with_normal_approximation);
    CU_add_test(s, "SPRT: H1 after 104 pairs all won", test_sprt_accepts_h1_after_104_pairs_all_won);
    CU_add_test(s, "SPRT: H0 after 101 pairs all lost", test_sprt_accepts_h0_after_101_pairs_all_lost);
    CU_add_test(s, "SPRT: H0 after 101 pairs all split", test_sprt_accepts_h0_after_101_pairs_all_split);
    CU_add_test(s, "SPRT: single sets, the binomial SPRT", test_sprt_of_single_sets_is_the_binomial_sprt);
    CU_add_test(s, "mean interval: no values, the whole range", test_mean_interval_without_values_is_the_whole_range);
    CU_add_test(s, "mean interval: zeros and ones give Wilson's", test_mean_interval_of_zeros_and_ones_is_wilson);
    CU_add_test(s, "mean interval: pair scores give the pairs' interval", test_mean_interval_of_pair_scores_is_the_pairs_interval);
    CU_add_test(s, "mean interval: holds at the edges", test_mean_interval_holds_at_the_edges);
    CU_add_test(s, "mean interval: the normal approximation over many values", test_mean_interval_agrees_with_normal_approximation);
    return test_run_all();
}
