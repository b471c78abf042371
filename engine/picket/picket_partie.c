#include "picket_partie.h"

#include <math.h>

/* bench/hands over `picket-arena ... -preset cavendish -rounds 40 -seed 11` of the default bot
 * against itself (480 deals; docs/strength.md): a seat's points a deal 25.81, sd 20.27, the two
 * seats' correlation -0.567; elder 32.69 a deal, younger 18.93. */
const double PICKET_PARTIE_DEAL_MEAN = 25.81, PICKET_PARTIE_DEAL_SD = 20.27, PICKET_PARTIE_DEAL_CORR = -0.567,
             PICKET_PARTIE_ELDER_EDGE = 32.69 - 18.93;

/* 12-point Gauss-Hermite nodes and weights (weight exp(-x^2)). */
static const double GH_X[12] = { -3.8897248978697818, -3.0206370251208896, -2.2795070805010598,
                                 -1.5976826351526048, -0.94778839124016379, -0.31424037625435913,
                                 0.31424037625435913, 0.94778839124016379, 1.5976826351526048,
                                 2.2795070805010598, 3.0206370251208896, 3.8897248978697818 };
static const double GH_W[12] = { 2.6585516843563044e-07, 8.5736870435878683e-05, 0.0039053905846290599,
                                 0.051607985615883978, 0.26049231026416109, 0.57013523626247953,
                                 0.57013523626247953, 0.26049231026416109, 0.051607985615883978,
                                 0.0039053905846290599, 8.5736870435878683e-05, 2.6585516843563044e-07 };

static const double PI = 3.14159265358979323846;

static double cdf(double z) { return 0.5 * erfc(-z / sqrt(2.0)); }
static double pdf(double z) { return exp(-0.5 * z * z) / sqrt(2.0 * PI); }

/* E[(alpha + beta d) 1{lo < d < hi}] for d ~ N(mu, s^2), s > 0. */
static double piece(double alpha, double beta, double lo, double hi, double mu, double s)
{
    double zl = isinf(lo) ? -INFINITY : (lo - mu) / s, zh = isinf(hi) ? INFINITY : (hi - mu) / s;
    double p = (isinf(zh) ? 1.0 : cdf(zh)) - (isinf(zl) ? 0.0 : cdf(zl));
    double m1 = mu * p + s * ((isinf(zl) ? 0.0 : pdf(zl)) - (isinf(zh) ? 0.0 : pdf(zh)));
    return alpha * p + beta * m1;
}

/* Seat 0's settlement for a difference d = A - B and a sum T = A + B, as the pieces read: with
 * c = max(0, T - 2R), the loser is under the line when |d| > c (and always when T < 2R). */
static double settle(double d, double T, double R)
{
    double c = T - 2 * R > 0 ? T - 2 * R : 0;
    if (d > 0)
        return d > c ? 100 + T : 100 + d;
    if (d < 0)
        return d < -c ? -(100 + T) : -100 + d;
    return 0;
}

double picket_partie_expected(int a, int b, int left, int elder0, int rubicon_line)
{
    double R = rubicon_line;
    if (left <= 0)
        return settle(a - b, a + b, R);
    double var = left * PICKET_PARTIE_DEAL_SD * PICKET_PARTIE_DEAL_SD;
    double s_diff = sqrt(2 * var * (1 - PICKET_PARTIE_DEAL_CORR));
    double s_sum = sqrt(2 * var * (1 + PICKET_PARTIE_DEAL_CORR));
    double mu_sum = a + b + 2.0 * left * PICKET_PARTIE_DEAL_MEAN, e = 0;
    double d0 = a - b + (2.0 * elder0 - left) * PICKET_PARTIE_ELDER_EDGE;
    for (int i = 0; i < 12; i++) {
        double T = mu_sum + sqrt(2.0) * s_sum * GH_X[i];
        double c = T - 2 * R > 0 ? T - 2 * R : 0;
        double v = piece(-(100 + T), 0, -INFINITY, -c, d0, s_diff) + piece(-100, 1, -c, 0, d0, s_diff) +
                   piece(100, 1, 0, c, d0, s_diff) + piece(100 + T, 0, c, INFINITY, d0, s_diff);
        e += GH_W[i] * v;
    }
    return e / sqrt(PI);
}

/* Deals still to come after the one in progress (or just over): to six, and the two more a tie
 * after six brings. */
static int deals_after(const picket_pub_t *p)
{
    if (p->hand_no < PK_PARTIE_DEALS)
        return PK_PARTIE_DEALS - p->hand_no;
    if (p->hand_no == PK_PARTIE_DEALS)
        return p->score[0] == p->score[1] ? 2 : 0;
    return p->hand_no < PK_PARTIE_MAX_DEALS ? PK_PARTIE_MAX_DEALS - p->hand_no : 0;
}

/* Of `left` deals after the hand in progress, in how many seat 0 is elder: the deal alternates,
 * so this hand's dealer is elder in the next, and its elder in the one after, and so on. */
static int elder_deals(const picket_pub_t *p, int left)
{
    int odd = (left + 1) / 2, even = left / 2; /* the 1st, 3rd ... after this one; the 2nd, 4th ... */
    return (p->dealer == 0 ? odd : 0) + (p->dealer == 1 ? even : 0);
}

/* The expected settlement when the hand in progress was dealt, and a point's worth then. */
static void base(const picket_state_t *st, double *before, double *unit)
{
    const picket_pub_t *p = &st->pub;
    int R = st->rules.target;
    int a = p->score[0] - p->hand_pts[0], b = p->score[1] - p->hand_pts[1];
    /* Before this hand: its deals were this one and those after (a sixth hand's tie aside). */
    int after = p->hand_no <= PK_PARTIE_DEALS ? PK_PARTIE_DEALS - p->hand_no : PK_PARTIE_MAX_DEALS - p->hand_no;
    int left = after + 1, e0 = (picket_elder(p) == 0) + elder_deals(p, after);
    *before = picket_partie_expected(a, b, left, e0, R);
    /* One point of difference, then: half a point more to seat 0 and half less to seat 1. */
    double k = (picket_partie_expected(a + 1, b - 1, left, e0, R) - picket_partie_expected(a - 1, b + 1, left, e0, R)) / 4;
    *unit = k < 0.25 ? 0.25 : k;
}

void picket_partie_mark(picket_state_t *st)
{
    if (st->rules.game != PK_GAME_RUBICON || st->pub.hand_no <= 0)
        return;
    base(st, &st->partie_before, &st->partie_unit);
    st->partie_hand = st->pub.hand_no;
}

int picket_partie_horizon(const picket_state_t *st, double *out)
{
    const picket_pub_t *p = &st->pub;
    if (st->rules.game != PK_GAME_RUBICON || p->hand_no <= 0)
        return 0;
    double before = st->partie_before, k = st->partie_unit;
    if (st->partie_hand != p->hand_no)
        base(st, &before, &k);
    int left = p->phase == PK_PH_OVER ? 0 : deals_after(p);
    double now = p->phase == PK_PH_OVER ? (p->winner < 0 ? 0 : p->winner == 0 ? p->partie_pts : -p->partie_pts)
                                        : picket_partie_expected(p->score[0], p->score[1], left, elder_deals(p, left),
                                                                 st->rules.target);
    out[0] = (now - before) / (2 * k);
    out[1] = -out[0];
    return 1;
}
