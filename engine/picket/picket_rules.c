#include "picket_rules.h"

#include "text.h"

#include <stdio.h>
#include <string.h>

#define RULES(deck, target, yd, lo, bo, bb, ties, seq, pp, lt, pq) \
    { deck, target, yd, lo, bo, bb, ties, seq, pp, lt, pq, PK_DECL_FULL, PK_POINT_RUFF, PK_CALLS_OPEN, PK_GAME_RACE, \
      PK_CUT_LOWER_DEALS }

const picket_preset_t PICKET_PRESETS[PK_PRESET_COUNT] = {
    { "cotgrave", "Cotgrave, Wit's Interpreter, 1662 (CG)",
      RULES(36, 100, PK_YD_ALL, PK_LO_ELDER_CALLS, PK_BO_COMMIT_COUNT, PK_BB_BOTH_SCORE, PK_TIES_VOID,
            PK_SEQ_SUITED, PK_PP_LEAD_OR_WIN, PK_LT_PLUS_ONE, PK_PQ_FIRST_CARD) },
    { "cotton", "Cotton, The Compleat Gamester, 1674 (CT)",
      RULES(36, 100, PK_YD_ALL, PK_LO_HIDDEN, PK_BO_COMMIT_COUNT, PK_BB_BOTH_SCORE, PK_TIES_ELDER,
            PK_SEQ_SUITED, PK_PP_LEAD_OR_WIN, PK_LT_PLUS_ONE, PK_PQ_FIRST_CARD) },
    { "ducoeur-letter", "du Coeur, On the Ancient Play of Piquet (DL)",
      RULES(36, 100, PK_YD_8, PK_LO_YOUNGER_MAY_SHOW, PK_BO_SHOW_FIRST, PK_BB_VOID, PK_TIES_VOID,
            PK_SEQ_SUITED, PK_PP_WINNER_TAKES, PK_LT_ONE_OR_TWO, PK_PQ_ANY_TIME) },
    { "ducoeur-report", "du Coeur, Game Report: Picket, 1995 (DR)",
      RULES(36, 121, PK_YD_8, PK_LO_YOUNGER_MAY_SHOW, PK_BO_SHOW_FIRST, PK_BB_VOID, PK_TIES_VOID,
            PK_SEQ_UNSUITED, PK_PP_WINNER_TAKES, PK_LT_ONE_OR_TWO, PK_PQ_ANY_TIME) },
    { "cavendish", "Cavendish, The Laws of Piquet (Portland Club), 1882 (CAV)",
      { 32, 100, PK_YD_ALL, PK_LO_AFTER_LEAD, PK_BO_ANNOUNCE_THEN_SHOW, PK_BB_VOID, PK_TIES_VOID, PK_SEQ_SUITED,
        PK_PP_LEAD_OR_WIN_ANY, PK_LT_PLUS_ONE, PK_PQ_PLAY, PK_DECL_MAY_SINK, PK_POINT_COUNT, PK_CALLS_CAVENDISH,
        PK_GAME_RUBICON, PK_CUT_HIGHER_CHOOSES } },
};

#define FIELD(f) offsetof(picket_rules_t, f)

const picket_flag_t PICKET_FLAGS[PK_FLAG_COUNT] = {
    { "deck", { NULL }, 32, 36, FIELD(deck), "cards in the pack: 36 (2-5 out) or 32 (6s out too)",
      { "CG: \"play with the other six and thirty Cards\"",
        "CT: \"which are in number thirty and six\"",
        "DL: \"making six and thirty cardes in your deck\"",
        "DR: \"This game is played with a 36-card deck\" (it mentions the 32-card deck)",
        "CAV D: 32 cards, \"the ace is the highest\" down to the seven" } },
    { "target", { NULL }, 1, 1000000000, FIELD(target), "points that win the set, the instant they are reached",
      { "CG: \"The Set is usually a hundred\"",
        "CT: \"The usual Set is an hundred\"",
        "DL: \"a Set is plaied to 100 points\"",
        "DR: \"we chose to play to 121\"",
        "CAV L73: the rubicon line, 100 (with game=rubicon: the loser under it pays both totals)" } },
    { "younger_draw", { "all", "8", NULL }, 0, 0, FIELD(younger_draw), "how many stock cards younger may take",
      { "CG: \"may the other likewise take all the rest\"",
        "CT: \"the Antagonist may take in what he thinks fit\"",
        "DL: \"the Dealer may draw up to eight, an there be so manie left in the Stock\"",
        "DR: \"We played that Younger may only draw up to eight\"",
        "CAV L22: younger \"may take in all that are left in the stock\"" } },
    { "leftover", { "elder-calls-suit", "hidden", "younger-may-show", "after-lead" }, 0, 0, FIELD(leftover),
      "what becomes of stock cards younger leaves",
      { "CG: \"then may the Elder hand see them, provided that he first acquaint the other with the suit\"",
        "CT: silent (ruling: hidden)",
        "DL: \"hee may turn the remaining cardes up, so that both plaiers may see them\"",
        "DR: \"Younger may choose to flip up the remaining cards in the Stock, for both to see\"",
        "CAV L36: younger chooses after elder has led; if he looks, elder may see them too" } },
    { "blank_order", { "commit-count", "show-first", "announce-then-show", NULL }, 0, 0, FIELD(blank_order),
      "when elder's Blank is shown, relative to the exchange",
      { "CG: \"I have a Blank, and I intend to discard such a number of Cards\"",
        "CT: \"he is always bound to that number which he first propounded\"",
        "DL: \"If either plaier is Blank, hee says so, and shews his hand\" (before the draw)",
        "DR: \"The first step is to declare \"Blank\", if any\"",
        "CAV L20: younger announces at once, shows after elder has discarded" } },
    { "both_blank", { "both-score", "void", NULL }, 0, 0, FIELD(both_blank), "what happens when both hands are Blank",
      { "CG: \"the younger's Blank shall barre the former, and hinder his Picy and Repicy\"",
        "CT: \"the youngers Blank shall bar the former and hinder his Picy and Repicy\"",
        "DL: \"if both plaiers are Blank, it is a tie, and neither scores anything\"",
        "DR: \"if both players are blank, neither scores\"",
        "CAV: two in a 32-card deal are impossible (ruling: void)" } },
    { "ties", { "void", "elder", NULL }, 0, 0, FIELD(ties), "who scores an equal Ruff or equal best Sequence",
      { "CG: \"they can neither of them reckon any thing, eldership benefits not in this case\"",
        "CT: \"if the youngest makes up no more the Ruff is good\" (Cotgrave's sentence on equality dropped)",
        "DL: \"if both plaiers have Ruffs of equall strength, neither scores\"",
        "DR: \"if it is still tied, we decided that both lose\"",
        "CAV D: \"The equality of the superior sequence nullifies the whole\"" } },
    { "sequences", { "suited", "unsuited", NULL }, 0, 0, FIELD(sequences), "whether a sequence must lie in one suit",
      { "CG: silent (ruling: suited, the French convention and DL's reading)",
        "CT: silent (ruling: suited)",
        "DL: \"a Sequence is a run of cardes within a sute\"",
        "DR: \"I can find no evidence of this in either Cotton or Cotgrave\"",
        "CAV L63: a sequence is of cards of the same suit" } },
    { "play_points", { "lead-or-win", "winner-takes", "lead-or-win-any", NULL }, 0, 0, FIELD(play_points), "who scores the points in play",
      { "CG: \"If the Elder hand plays an Ace, King, Queen, or Ten; for every such Card, he is to reckon one\"",
        "CT: \"he wins the Trick, and reckons one for his Card as well as the other\"",
        "DL: \"the victor of the trick takes one point for it\"",
        "DR: \"the winner of the trick takes one point for each such card\"",
        "CAV L65: one for every card led, and one for winning the trick with the second card" } },
    { "last_trick", { "plus-one", "one-or-two", NULL }, 0, 0, FIELD(last_trick), "what the last trick is worth",
      { "CG: \"reckon two for it, if he win it with a Ten; but if it be with a Nine, Eight, Seven, or Six, he then reckons but one\"",
        "CT: \"reckons two for it, if he win it with a Ten, but if with any Card under, he reckons but one\"",
        "DL: \"Hee who wins the final trick takes one point, or two points if hee win it with a Ten\"",
        "DR: \"Winner of the final trick gets one point, or two points if he wins with a ten\"",
        "CAV L65: the winner of the last trick scores \"two instead of one\"" } },
    { "pique", { "first-card", "any-time", "play", NULL }, 0, 0, FIELD(pique), "when a Pique can be completed",
      { "CG: \"by playing his first Card up to said number of thirty, before the other has played a Card\"",
        "CT: \"before the other hath play'd a Card, or reckoned any thing\"",
        "DL: \"If one plaier gains thirty points in a hand ere the other has scored any\"",
        "DR: \"If one player in a hand manages to get thirty points before the other player has scored anything\"",
        "CAV L69: thirty \"in hand and play\" before the adversary has reckoned anything; not the cards" } },
    { "declarations", { "full", "may-sink", NULL }, 0, 0, FIELD(declarations),
      "full: every declaration states the whole holding; may-sink: elder calls what he will (less, or nothing), younger may allow any call good",
      { "ruling: full (CG's \"liberty of the Game at Paris\" to sink is may-sink)",
        "ruling: full", "ruling: full",
        "ruling: full (DR: \"I suspect you can understate\")",
        "CAV D: a player \"is not bound to call anything\" and \"may always call less than he holds\"" } },
    { "point", { "ruff", "count", NULL }, 0, 0, FIELD(point), "what the point (Ruff) is: the pip total, or the cards",
      { "CG: the Ruff by the cards' values, ten a point", "CT: the same", "DL: the same", "DR: the same",
        "CAV L62: \"the greater number of cards\" wins, the value breaking a tie; it scores one for each card" } },
    { "calls", { "open", "cavendish", NULL }, 0, 0, FIELD(calls),
      "the declaration dialogue: claims said in full, or Cavendish's (younger reckons after elder's lead)",
      { "ruling: open (each says his claim; the winner shows and scores at once)", "ruling: open", "ruling: open",
        "ruling: open",
        "CAV L46, D Calling: elder calls, younger answers good, equal or not good and reckons after elder has led" } },
    { "game", { "race", "rubicon", NULL }, 0, 0, FIELD(game),
      "race: the set ends the instant a score reaches the target; rubicon: a partie of six deals",
      { "CG: \"The Set is usually a hundred\"", "CT: \"The usual Set is an hundred\"",
        "DL: \"a Set is plaied to 100 points\"", "DR: \"we chose to play to 121\"",
        "CAV L71: \"A partie is won by the player who makes the higher score in six deals\"" } },
    { "cut", { "lower-deals", "higher-chooses", NULL }, 0, 0, FIELD(cut),
      "the first deal: the lower cut deals, or the higher cut chooses to deal or not",
      { "CG: the lower card deals (ruling kept from the rules matrix)", "CT: the same", "DL: the same",
        "DR: the same", "CAV L4: \"the player cutting the higher card has the choice of deal\"" } },
};

const picket_preset_t *picket_preset_find(const char *name)
{
    if (!name || !*name)
        return &PICKET_PRESETS[0];
    for (int i = 0; i < PK_PRESET_COUNT; i++)
        if (strcmp(PICKET_PRESETS[i].name, name) == 0)
            return &PICKET_PRESETS[i];
    return NULL;
}

const picket_flag_t *picket_flag_find(const char *name)
{
    for (int i = 0; i < PK_FLAG_COUNT; i++)
        if (strcmp(PICKET_FLAGS[i].name, name) == 0)
            return &PICKET_FLAGS[i];
    return NULL;
}

int picket_flag_get(const picket_rules_t *r, const picket_flag_t *f)
{
    return *(const int *)((const char *)r + f->offset);
}

const char *picket_flag_value_name(const picket_flag_t *f, int value, char *buf, size_t len)
{
    if (f->values[0])
        return (value >= 0 && value < PK_MAX_VALUES && f->values[value]) ? f->values[value] : "?";
    snprintf(buf, len, "%d", value);
    return buf;
}

void picket_flag_values(const picket_flag_t *f, char *buf, size_t len)
{
    if (!f->values[0]) {
        if (f->offset == offsetof(picket_rules_t, deck))
            snprintf(buf, len, "36|32");
        else
            snprintf(buf, len, "a number %d..%d", f->min, f->max);
        return;
    }
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < PK_MAX_VALUES && f->values[i]; i++) {
        int w = snprintf(buf + n, len - n, "%s%s", i ? "|" : "", f->values[i]);
        if (w < 0 || (size_t)w >= len - n)
            return;
        n += (size_t)w;
    }
}

int picket_rules_set(picket_rules_t *r, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment)
        return text_fail(err, errlen, "flag '%.40s' is not of the form name=value", assignment);
    char name[32];
    size_t nlen = (size_t)(eq - assignment);
    if (nlen >= sizeof name)
        return text_fail(err, errlen, "unknown flag '%.40s' (see 'picket rules')", assignment);
    memcpy(name, assignment, nlen);
    name[nlen] = '\0';
    const char *value = eq + 1;
    const picket_flag_t *f = picket_flag_find(name);
    if (!f)
        return text_fail(err, errlen, "unknown flag '%s' (see 'picket rules')", name);
    int *field = (int *)((char *)r + f->offset);
    char allowed[64];
    picket_flag_values(f, allowed, sizeof allowed);
    if (f->values[0]) {
        for (int i = 0; i < PK_MAX_VALUES && f->values[i]; i++) {
            if (strcmp(f->values[i], value) == 0) {
                *field = i;
                return 0;
            }
        }
        return text_fail(err, errlen, "flag %s: unknown value '%.40s' (allowed: %s)", name, value, allowed);
    }
    /* Digits only: every numeric flag's minimum is positive, so no sign gets through. */
    int v, ok = text_int(value, f->min, f->max, &v) == 0;
    if (ok && f->offset == offsetof(picket_rules_t, deck))
        ok = (v == 32 || v == 36);
    if (!ok)
        return text_fail(err, errlen, "flag %s: bad value '%.40s' (allowed: %s)", name, value, allowed);
    *field = v;
    return 0;
}

int picket_rules_build(picket_rules_t *r, const char *preset, const char (*flags)[48], int n_flags,
                       char *err, size_t errlen)
{
    const picket_preset_t *p = picket_preset_find(preset);
    if (!p)
        return text_fail(err, errlen, "unknown preset '%.40s' (cotgrave, cotton, ducoeur-letter, ducoeur-report, cavendish)",
                         preset);
    *r = p->rules;
    for (int i = 0; i < n_flags; i++)
        if (picket_rules_set(r, flags[i], err, errlen) < 0)
            return -1;
    /* A sunk run is part of a suit's run: unsuited runs take the rules' choice of cards. */
    if (r->declarations == PK_DECL_MAY_SINK && r->sequences == PK_SEQ_UNSUITED)
        return text_fail(err, errlen, "flag declarations=may-sink needs sequences=suited");
    return 0;
}

int picket_rules_overrides(const picket_rules_t *r, const char *preset, char (*out)[48], int cap)
{
    const picket_preset_t *p = picket_preset_find(preset);
    int n = 0;
    if (!p)
        return 0;
    for (int i = 0; i < PK_FLAG_COUNT && n < cap; i++) {
        const picket_flag_t *f = &PICKET_FLAGS[i];
        int v = picket_flag_get(r, f);
        if (v == picket_flag_get(&p->rules, f))
            continue;
        char buf[16];
        snprintf(out[n++], 48, "%s=%s", f->name, picket_flag_value_name(f, v, buf, sizeof buf));
    }
    return n;
}

int picket_partie_points(int winner_total, int loser_total, int rubicon_line, int *rubicon)
{
    int under = loser_total < rubicon_line;
    if (rubicon)
        *rubicon = under;
    return 100 + (under ? winner_total + loser_total : winner_total - loser_total);
}
