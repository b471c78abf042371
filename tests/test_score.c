/* Scoring of the declarations, checked against the sources' own figures.
 *
 * rules-matrix.md: Blank (no K, Q or J) 10; Ruff = the largest total of one suit (Ace 11,
 * K/Q/J 10, others their pips), worth floor((v + 5) / 10); Sequences tierce 3, quart 4, quint 15,
 * sixieme 16 ... neuvieme 19, longer beats shorter, then higher top, the winner scores all his
 * and each card counts in one sequence only; Ternaries 3 and Quatorzes 14 of Tens and higher,
 * any quatorze beats any ternary, then the higher rank.
 */
#include <CUnit/CUnit.h>
#include <string.h>

#include "picket_score.h"
#include "test_util.h"

static picket_ruff_t ruff_of(const char *text)
{
    picket_ruff_t r;
    picket_ruff(test_cards(text), &r);
    return r;
}

static picket_sequences_t suited(const char *text)
{
    picket_sequences_t s;
    picket_sequences(test_cards(text), 0, &s);
    return s;
}

static picket_sequences_t unsuited(const char *text)
{
    picket_sequences_t s;
    picket_sequences(test_cards(text), 1, &s);
    return s;
}

static picket_sets_t sets_of(const char *text)
{
    picket_sets_t s;
    picket_sets(test_cards(text), &s);
    return s;
}

/* Every scored card is in exactly one run, and the runs add up to the total. */
static void assert_runs_disjoint_and_summed(const picket_sequences_t *s)
{
    cardset_t seen = 0;
    int points = 0, cards = 0;
    for (int i = 0; i < s->nruns; i++) {
        CU_ASSERT_EQUAL(seen & s->runs[i].cards, 0);
        CU_ASSERT_EQUAL(cardset_count(s->runs[i].cards), s->runs[i].len);
        seen |= s->runs[i].cards;
        points += s->runs[i].points;
        cards += s->runs[i].len;
    }
    CU_ASSERT_EQUAL(points, s->points);
    CU_ASSERT_EQUAL(seen, s->cards);
    CU_ASSERT_EQUAL(cardset_count(s->cards), cards);
}

/* ---- Blank ----------------------------------------------------------------------------------- */

static void test_hand_without_king_queen_knave_is_blank(void)
{
    /* DL: "you are Blank if you have no court cards in your hand at all" */
    CU_ASSERT_TRUE(picket_is_blank(test_cards("TS 9S 8S 7S 6S TH 9H 8H 7H 6H 9D 8D")));
}

static void test_hand_with_aces_but_no_courts_is_still_blank(void)
{
    /* CG: "if he finds never a Court Card among them, says, I have a Blank" (an Ace is no court) */
    CU_ASSERT_TRUE(picket_is_blank(test_cards("AS AH AD AC TS TH 9S 9H 8S 8H 7S 7H")));
}

static void test_one_knave_makes_a_hand_not_blank(void)
{
    CU_ASSERT_FALSE(picket_is_blank(test_cards("AS AH AD AC TS TH 9S 9H 8S 8H 7S JH")));
}

static void test_one_king_makes_a_hand_not_blank(void)
{
    CU_ASSERT_FALSE(picket_is_blank(test_cards("AS AH AD AC TS TH 9S 9H 8S 8H 7S KD")));
}

static void test_one_queen_makes_a_hand_not_blank(void)
{
    CU_ASSERT_FALSE(picket_is_blank(test_cards("AS AH AD AC TS TH 9S 9H 8S 8H 7S QC")));
}

/* ---- Ruff ------------------------------------------------------------------------------------ */

static void test_card_values_for_the_ruff(void)
{
    /* DL: "the Ace counts eleven, the court cardes ten, and all other count as their pips" */
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_A)), 11);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_K)), 10);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_Q)), 10);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_J)), 10);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_T)), 10);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_9)), 9);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_8)), 8);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_7)), 7);
    CU_ASSERT_EQUAL(picket_card_value(card_make(SUIT_H, RANK_6)), 6);
}

static void test_ruff_A_Q_10_9_8_is_48(void)
{
    /* DL: "Ace, Queen, Ten, Nine, Eight of Hertes ... I have a Ruff of Forty and Eight" */
    picket_ruff_t r = ruff_of("AH QH TH 9H 8H 6S 7S 6C 7C 6D 7D 8D");
    CU_ASSERT_EQUAL(r.value, 48);
    CU_ASSERT_EQUAL(r.suit, SUIT_H);
    CU_ASSERT_EQUAL(r.cards, test_cards("AH QH TH 9H 8H"));
}

static void test_ruff_A_K_10_8_is_39(void)
{
    /* DR: "an A-K-10-8 of Hearts is 39" */
    picket_ruff_t r = ruff_of("AH KH TH 8H 6S 7S 9S 6C 7C 9C 6D 7D");
    CU_ASSERT_EQUAL(r.value, 39);
    CU_ASSERT_EQUAL(r.suit, SUIT_H);
    CU_ASSERT_EQUAL(r.points, 4);
}

static void test_ruff_of_42_scores_4(void)
{
    /* DL: "as four pointes for a Ruff of Forty-Two" */
    CU_ASSERT_EQUAL(picket_ruff_points(42), 4);
}

static void test_ruff_of_47_scores_5(void)
{
    /* DL: "five for Forty-Seven" */
    CU_ASSERT_EQUAL(picket_ruff_points(47), 5);
}

static void test_ruff_of_50_scores_5(void)
{
    /* DL: "or five yet for Fifty" */
    CU_ASSERT_EQUAL(picket_ruff_points(50), 5);
}

static void test_ruff_of_48_scores_5(void)
{
    /* DL's Ruff of Forty and Eight, scored by DL's rule "one for any extra above five" */
    CU_ASSERT_EQUAL(ruff_of("AH QH TH 9H 8H 6S 7S 6C 7C 6D 7D 8D").points, 5);
}

static void test_ruff_of_35_scores_4(void)
{
    /* DR: "a Ruff of 40 is worth four points, as is one of 35" */
    CU_ASSERT_EQUAL(picket_ruff_points(35), 4);
}

static void test_ruff_of_34_scores_3(void)
{
    /* DR: "but 34 is worth three points" */
    CU_ASSERT_EQUAL(picket_ruff_points(34), 3);
}

static void test_ruff_of_30_to_34_scores_3(void)
{
    /* CG: "for thirty one, and thirty two, thirty three, and thirty four, no more than for thirty" */
    for (int v = 30; v <= 34; v++)
        CU_ASSERT_EQUAL(picket_ruff_points(v), 3);
}

static void test_ruff_of_35_to_39_scores_4(void)
{
    /* CG: "you are to count as much for thirty five as for forty ... but as for thirty six, thirty
     * seven, thirty eight, and thirty nine, you count no more than for thirty five" */
    for (int v = 35; v <= 39; v++)
        CU_ASSERT_EQUAL(picket_ruff_points(v), 4);
    CU_ASSERT_EQUAL(picket_ruff_points(40), 4);
}

static void test_ruff_of_45_scores_as_50(void)
{
    /* CG: "and as much for forty five as fifty" */
    CU_ASSERT_EQUAL(picket_ruff_points(45), 5);
    CU_ASSERT_EQUAL(picket_ruff_points(45), picket_ruff_points(50));
    CU_ASSERT_EQUAL(picket_ruff_points(44), 4);
}

static void test_ruff_is_the_largest_suit_total_not_the_longest_suit(void)
{
    /* matrix: "Ruff = the largest total value of one suit in hand" */
    picket_ruff_t r = ruff_of("AS KS QS 6C 7C 8C 9C 6D 7D 6H 7H 8H");
    CU_ASSERT_EQUAL(r.value, 31); /* spades: 11 + 10 + 10; clubs 6+7+8+9 = 30 */
    CU_ASSERT_EQUAL(r.suit, SUIT_S);
    CU_ASSERT_EQUAL(r.cards, test_cards("AS KS QS"));
    CU_ASSERT_EQUAL(r.points, 3);
}

static void test_ruff_points_follow_the_value(void)
{
    picket_ruff_t r = ruff_of("AD KD QD JD TD 9D 6S 7S 6C 7C 6H 7H");
    CU_ASSERT_EQUAL(r.value, 60);
    CU_ASSERT_EQUAL(r.suit, SUIT_D);
    CU_ASSERT_EQUAL(r.points, picket_ruff_points(60));
    CU_ASSERT_EQUAL(r.points, 6);
}

/* ---- Sequence points --------------------------------------------------------------------------- */

static void test_tierce_scores_3(void)
{
    /* CG: "You reckon for every Tierce three" */
    CU_ASSERT_EQUAL(picket_sequence_points(3), 3);
}

static void test_quart_scores_4(void)
{
    /* CG: "Quart four" */
    CU_ASSERT_EQUAL(picket_sequence_points(4), 4);
}

static void test_quint_scores_15(void)
{
    /* CG: "but for a Quint fifteen" */
    CU_ASSERT_EQUAL(picket_sequence_points(5), 15);
}

static void test_sixieme_scores_16(void)
{
    /* CG: "a Sixiesm sixteen, and so upward" */
    CU_ASSERT_EQUAL(picket_sequence_points(6), 16);
}

static void test_septieme_scores_17(void)
{
    /* CG: "and so upward" */
    CU_ASSERT_EQUAL(picket_sequence_points(7), 17);
}

static void test_huitieme_scores_18(void)
{
    /* CG: "and so upward" */
    CU_ASSERT_EQUAL(picket_sequence_points(8), 18);
}

static void test_neuvieme_scores_19(void)
{
    /* DL: "and so up to nineteen points for a parfait Ninism" */
    CU_ASSERT_EQUAL(picket_sequence_points(9), 19);
}

static void test_two_cards_are_no_sequence(void)
{
    /* matrix: "Sequences: three or more consecutive ranks" */
    CU_ASSERT_EQUAL(picket_sequence_points(2), 0);
    CU_ASSERT_EQUAL(picket_sequence_points(1), 0);
    CU_ASSERT_EQUAL(picket_sequence_points(0), 0);
}

/* ---- Suited sequences -------------------------------------------------------------------------- */

static void test_suited_runs_across_suits_do_not_count(void)
{
    /* DL: "a Sequence is a run of cardes within a sute" */
    picket_sequences_t s = suited("6C 7D 8H 9S TC JD QH KS 6S 8S AD AH");
    CU_ASSERT_EQUAL(s.nruns, 0);
    CU_ASSERT_EQUAL(s.best.len, 0);
    CU_ASSERT_EQUAL(s.points, 0);
    CU_ASSERT_EQUAL(s.cards, 0);
}

static void test_suited_tierce_in_one_suit(void)
{
    /* CG: "Six, seven, and eight; nine, ten, and Knave; Queen, King, and Ace" */
    picket_sequences_t s = suited("6C 7C 8C TD 6H 8H TS QS AS 7D AH 9D");
    CU_ASSERT_EQUAL(s.nruns, 1);
    CU_ASSERT_EQUAL(s.best.len, 3);
    CU_ASSERT_EQUAL(s.best.top, RANK_8);
    CU_ASSERT_EQUAL(s.points, 3);
    CU_ASSERT_EQUAL(s.runs[0].cards, test_cards("6C 7C 8C"));
}

static void test_suited_claim_is_the_longest_run(void)
{
    /* CG: "a Quart drowns a Tierce, a Quint a Quart" */
    picket_sequences_t s = suited("6C 7C 8C 9C TC JH QH KH AH 6D 8D TS");
    CU_ASSERT_EQUAL(s.best.len, 5);
    CU_ASSERT_EQUAL(s.best.top, RANK_T);
    CU_ASSERT_EQUAL(s.runs[0].len, 5);
    CU_ASSERT_EQUAL(s.runs[0].top, RANK_T);
}

static void test_suited_claim_on_equal_length_is_the_highest_top(void)
{
    /* CG: "which last is called a Tierce Major, because it is the highest" */
    picket_sequences_t s = suited("6C 7C 8C QH KH AH 9D JD 6S 8S TS QS");
    CU_ASSERT_EQUAL(s.best.len, 3);
    CU_ASSERT_EQUAL(s.best.top, RANK_A);
    CU_ASSERT_EQUAL(s.runs[0].cards, test_cards("QH KH AH"));
}

static void test_suited_winner_scores_all_his_runs(void)
{
    /* CG: "he that hath the biggest Sequence, by vertue thereof, reckons all his lesse Sequences" */
    picket_sequences_t s = suited("7C 8C 9C TC QH KH AH 6S 7S 8S JD 9D");
    CU_ASSERT_EQUAL(s.nruns, 3);
    CU_ASSERT_EQUAL(s.best.len, 4);
    CU_ASSERT_EQUAL(s.best.top, RANK_T);
    CU_ASSERT_EQUAL(s.points, 4 + 3 + 3);
    CU_ASSERT_EQUAL(s.cards, test_cards("7C 8C 9C TC QH KH AH 6S 7S 8S"));
    assert_runs_disjoint_and_summed(&s);
}

static void test_suited_quint_and_tierce_score_18(void)
{
    picket_sequences_t s = suited("6C 7C 8C 9C TC QH KH AH 6S 8S TS 9D");
    CU_ASSERT_EQUAL(s.nruns, 2);
    CU_ASSERT_EQUAL(s.points, 15 + 3);
    assert_runs_disjoint_and_summed(&s);
}

static void test_suited_each_card_counts_in_one_run_only(void)
{
    /* DL: "no carde may be scored in more than one Sequence": a sixieme is one run of 16, not a
     * quint and a quart sharing cards */
    picket_sequences_t s = suited("6C 7C 8C 9C TC JC 6D 8D TD QS 7H 9H");
    CU_ASSERT_EQUAL(s.nruns, 1);
    CU_ASSERT_EQUAL(s.best.len, 6);
    CU_ASSERT_EQUAL(s.best.top, RANK_J);
    CU_ASSERT_EQUAL(s.points, 16);
    assert_runs_disjoint_and_summed(&s);
}

static void test_suited_ace_is_high_with_no_wrap(void)
{
    /* matrix: "6 lowest, Ace highest, no wrap" */
    picket_sequences_t s = suited("KS AS 6S 7S 9S JD 8D 6D TC QC 8H 7C");
    CU_ASSERT_EQUAL(s.nruns, 0);
    CU_ASSERT_EQUAL(s.points, 0);
}

static void test_suited_neuvieme_is_a_whole_suit(void)
{
    picket_sequences_t s = suited("6H 7H 8H 9H TH JH QH KH AH 6S 8S TS");
    CU_ASSERT_EQUAL(s.best.len, 9);
    CU_ASSERT_EQUAL(s.best.top, RANK_A);
    CU_ASSERT_EQUAL(s.points, 19);
}

/* ---- Unsuited sequences (sequences=unsuited, DR) ------------------------------------------------ */

static void test_unsuited_cards_of_different_suits_form_a_run(void)
{
    /* DR: "only sequences within a particular suit count. I can find no evidence of this in either
     * Cotton or Cotgrave" */
    picket_sequences_t s = unsuited("6C 7D 8H 9S JC KD");
    CU_ASSERT_EQUAL(s.nruns, 1);
    CU_ASSERT_EQUAL(s.best.len, 4);
    CU_ASSERT_EQUAL(s.best.top, RANK_9);
    CU_ASSERT_EQUAL(s.points, 4);
    CU_ASSERT_EQUAL(s.cards, test_cards("6C 7D 8H 9S"));
}

static void test_unsuited_claim_on_equal_length_is_the_highest_top(void)
{
    picket_sequences_t s = unsuited("6C 7D 8H QS KC AD");
    CU_ASSERT_EQUAL(s.best.len, 3);
    CU_ASSERT_EQUAL(s.best.top, RANK_A);
    CU_ASSERT_EQUAL(s.runs[0].top, RANK_A);
    CU_ASSERT_EQUAL(s.points, 6);
    assert_runs_disjoint_and_summed(&s);
}

static void test_unsuited_6_to_Q_with_8_9_10_twice_scores_20_not_30(void)
{
    /* matrix ruling: "with 6 7 8 8 9 9 10 10 J Q he claims the septieme 6-Q (17) and adds the tierce
     * 8-9-10 (3) for 20, although two quints would make 30." Two Aces fill the hand: with no
     * King they extend nothing. */
    picket_sequences_t s = unsuited("6C 7D 8C 8H 9D 9S TC TH JS QD AS AD");
    CU_ASSERT_EQUAL(s.best.len, 7);
    CU_ASSERT_EQUAL(s.best.top, RANK_Q);
    CU_ASSERT_EQUAL(s.nruns, 2);
    CU_ASSERT_EQUAL(s.runs[0].len, 7);
    CU_ASSERT_EQUAL(s.runs[0].top, RANK_Q);
    CU_ASSERT_EQUAL(s.runs[1].len, 3);
    CU_ASSERT_EQUAL(s.runs[1].top, RANK_T);
    CU_ASSERT_EQUAL(s.points, 20);
    CU_ASSERT_FALSE(cardset_has(s.cards, card_make(SUIT_S, RANK_A)));
    CU_ASSERT_FALSE(cardset_has(s.cards, card_make(SUIT_D, RANK_A)));
    assert_runs_disjoint_and_summed(&s);
}

static void test_unsuited_remaining_cards_take_their_best_split(void)
{
    /* matrix ruling: "he scores that run plus the best split of his remaining cards into disjoint
     * runs (the most points)". Ranks 6 6 7 7 8 8 8 9 9 10 10 J: the claim is the sixieme 6-J (16);
     * the rest, 6 7 8 8 9 10, could be two tierces 6-7-8 and 8-9-10 (6), but the quint 6-10 with
     * an 8 left over is worth 15: 31 in all. */
    picket_sequences_t s = unsuited("6C 6D 7D 7H 8C 8D 8S 9H 9S TC TS JD");
    CU_ASSERT_EQUAL(s.best.len, 6);
    CU_ASSERT_EQUAL(s.best.top, RANK_J);
    CU_ASSERT_EQUAL(s.nruns, 2);
    CU_ASSERT_EQUAL(s.runs[1].len, 5);
    CU_ASSERT_EQUAL(s.runs[1].top, RANK_T);
    CU_ASSERT_EQUAL(s.points, 16 + 15);
    CU_ASSERT_EQUAL(cardset_count(s.cards), 11);
    assert_runs_disjoint_and_summed(&s);
}

static void test_unsuited_each_card_counts_in_one_run_only(void)
{
    /* DR: "we decided that you can only count each card in one sequence". One 7 between 6 8 9:
     * the quart 6-9 is all there is, not a quart plus a tierce reusing cards. */
    picket_sequences_t s = unsuited("6C 6D 7H 8S 8C 9D 9H");
    CU_ASSERT_EQUAL(s.best.len, 4);
    CU_ASSERT_EQUAL(s.nruns, 1);
    CU_ASSERT_EQUAL(s.points, 4);
    assert_runs_disjoint_and_summed(&s);
}

static void test_unsuited_no_run_without_three_consecutive_ranks(void)
{
    picket_sequences_t s = unsuited("6C 6D 7H 7S 9C 9D JH JS KC KD AS AH");
    CU_ASSERT_EQUAL(s.nruns, 0);
    CU_ASSERT_EQUAL(s.best.len, 0);
    CU_ASSERT_EQUAL(s.points, 0);
}

/* ---- Comparing sequence claims ----------------------------------------------------------------- */

static void test_seq_longer_beats_shorter(void)
{
    /* CG: "a Quart drowns a Tierce, a Quint a Quart": a quint of ten beats a quart of an ace */
    picket_seq_claim_t quint = { 5, RANK_T }, quart = { 4, RANK_A };
    CU_ASSERT(picket_seq_claim_cmp(quint, quart) > 0);
    CU_ASSERT(picket_seq_claim_cmp(quart, quint) < 0);
}

static void test_seq_equal_length_higher_top_wins(void)
{
    /* DL: "If both plaiers have Sequences of equall length, hee whose Sequence has the highest top
     * carde wins" */
    picket_seq_claim_t major = { 3, RANK_A }, of_king = { 3, RANK_K };
    CU_ASSERT(picket_seq_claim_cmp(major, of_king) > 0);
    CU_ASSERT(picket_seq_claim_cmp(of_king, major) < 0);
}

static void test_seq_equal_claims_compare_equal(void)
{
    /* DL: "if both Sequences have the same top, it is a tie" */
    picket_seq_claim_t a = { 4, RANK_Q }, b = { 4, RANK_Q };
    CU_ASSERT_EQUAL(picket_seq_claim_cmp(a, b), 0);
}

static void test_seq_none_against_none_is_equal(void)
{
    picket_seq_claim_t a = { 0, 0 }, b = { 0, 0 };
    CU_ASSERT_EQUAL(picket_seq_claim_cmp(a, b), 0);
}

static void test_seq_any_tierce_beats_none(void)
{
    picket_seq_claim_t none = { 0, 0 }, lowest = { 3, RANK_8 };
    CU_ASSERT(picket_seq_claim_cmp(lowest, none) > 0);
    CU_ASSERT(picket_seq_claim_cmp(none, lowest) < 0);
}

/* ---- Ternaries and Quatorzes -------------------------------------------------------------------- */

static void test_ternary_scores_3(void)
{
    /* CG: "for every Ternary you count three" */
    picket_sets_t s = sets_of("AS AH AD 6C 7C 8C 9D 7H 8S 6H 9S 7D");
    CU_ASSERT_EQUAL(s.nsets, 1);
    CU_ASSERT_EQUAL(s.points, 3);
    CU_ASSERT_EQUAL(s.best.count, 3);
    CU_ASSERT_EQUAL(s.best.rank, RANK_A);
    CU_ASSERT_EQUAL(s.sets[0].cards, test_cards("AS AH AD"));
}

static void test_quatorze_scores_14(void)
{
    /* CG: "he that hath four Aces, four Kings, fours Queens, four Knaves, or four Tens; for each
     * reckons fourteen" */
    picket_sets_t s = sets_of("TS TH TD TC 6C 7C 8C 9D 7H 8S 6H 9S");
    CU_ASSERT_EQUAL(s.nsets, 1);
    CU_ASSERT_EQUAL(s.points, 14);
    CU_ASSERT_EQUAL(s.best.count, 4);
    CU_ASSERT_EQUAL(s.best.rank, RANK_T);
}

static void test_three_nines_count_nothing(void)
{
    /* CG: "as for Nines, Eights, Sevens and Sixes, they have no place in this account" */
    picket_sets_t s = sets_of("9S 9H 9D 6C 7C 8C AD 7H 8S 6H KS QD");
    CU_ASSERT_EQUAL(s.nsets, 0);
    CU_ASSERT_EQUAL(s.points, 0);
    CU_ASSERT_EQUAL(s.best.count, 0);
    CU_ASSERT_EQUAL(s.cards, 0);
}

static void test_four_sixes_count_nothing(void)
{
    picket_sets_t s = sets_of("6S 6H 6D 6C 7C 8C AD 7H 8S KS QD JH");
    CU_ASSERT_EQUAL(s.nsets, 0);
    CU_ASSERT_EQUAL(s.points, 0);
}

static void test_any_quatorze_beats_any_ternary(void)
{
    /* DL: "any Quatorze will defeat any Ternary" */
    picket_set_claim_t tens = { 4, RANK_T }, aces = { 3, RANK_A };
    CU_ASSERT(picket_set_claim_cmp(tens, aces) > 0);
    CU_ASSERT(picket_set_claim_cmp(aces, tens) < 0);
}

static void test_hand_claims_its_quatorze_over_a_higher_ternary(void)
{
    picket_sets_t s = sets_of("TS TH TD TC AS AH AD 6C 7C 8C 9D 7H");
    CU_ASSERT_EQUAL(s.best.count, 4);
    CU_ASSERT_EQUAL(s.best.rank, RANK_T);
    CU_ASSERT_EQUAL(s.points, 14 + 3);
}

static void test_higher_ternary_beats_lower(void)
{
    /* CG: "Aces, the highest and best; Kings next; after these Queens; then Knaves; and last of
     * all Tens" */
    picket_set_claim_t order[] = { { 3, RANK_A }, { 3, RANK_K }, { 3, RANK_Q }, { 3, RANK_J }, { 3, RANK_T } };
    for (int i = 0; i + 1 < 5; i++) {
        CU_ASSERT(picket_set_claim_cmp(order[i], order[i + 1]) > 0);
        CU_ASSERT(picket_set_claim_cmp(order[i + 1], order[i]) < 0);
    }
}

static void test_higher_quatorze_beats_lower(void)
{
    /* CG: "Quatorzes ... win one another, as the Cards are of higher or lesser value" */
    picket_set_claim_t kings = { 4, RANK_K }, queens = { 4, RANK_Q };
    CU_ASSERT(picket_set_claim_cmp(kings, queens) > 0);
    CU_ASSERT(picket_set_claim_cmp(queens, kings) < 0);
}

static void test_any_set_beats_none(void)
{
    picket_set_claim_t none = { 0, 0 }, tens = { 3, RANK_T };
    CU_ASSERT(picket_set_claim_cmp(tens, none) > 0);
    CU_ASSERT(picket_set_claim_cmp(none, tens) < 0);
    CU_ASSERT_EQUAL(picket_set_claim_cmp(none, none), 0);
}

static void test_winner_scores_all_his_sets(void)
{
    /* CG: "he that hath these Aces, may reckon his three Queens, Knaves, or Tens, if he have them" */
    picket_sets_t s = sets_of("AS AH AD TS TH TC 6C 7C 8C 9D 7H 8S");
    CU_ASSERT_EQUAL(s.nsets, 2);
    CU_ASSERT_EQUAL(s.points, 6);
    CU_ASSERT_EQUAL(s.best.count, 3);
    CU_ASSERT_EQUAL(s.best.rank, RANK_A);
    CU_ASSERT_EQUAL(s.cards, test_cards("AS AH AD TS TH TC"));
}

static void test_sets_are_listed_best_first(void)
{
    picket_sets_t s = sets_of("KS KH KD QS QH QD QC JS JH JD 6C 7C");
    CU_ASSERT_EQUAL(s.nsets, 3);
    CU_ASSERT_EQUAL(s.points, 14 + 3 + 3);
    CU_ASSERT_EQUAL(s.sets[0].count, 4);
    CU_ASSERT_EQUAL(s.sets[0].rank, RANK_Q);
    CU_ASSERT_EQUAL(s.sets[1].rank, RANK_K);
    CU_ASSERT_EQUAL(s.sets[2].rank, RANK_J);
}

#define ADD(suite, fn) CU_add_test(suite, #fn, fn)

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;

    CU_pSuite b = CU_add_suite("Blank", NULL, NULL);
    ADD(b, test_hand_without_king_queen_knave_is_blank);
    ADD(b, test_hand_with_aces_but_no_courts_is_still_blank);
    ADD(b, test_one_knave_makes_a_hand_not_blank);
    ADD(b, test_one_king_makes_a_hand_not_blank);
    ADD(b, test_one_queen_makes_a_hand_not_blank);

    CU_pSuite r = CU_add_suite("Ruff", NULL, NULL);
    ADD(r, test_card_values_for_the_ruff);
    ADD(r, test_ruff_A_Q_10_9_8_is_48);
    ADD(r, test_ruff_A_K_10_8_is_39);
    ADD(r, test_ruff_of_42_scores_4);
    ADD(r, test_ruff_of_47_scores_5);
    ADD(r, test_ruff_of_50_scores_5);
    ADD(r, test_ruff_of_48_scores_5);
    ADD(r, test_ruff_of_35_scores_4);
    ADD(r, test_ruff_of_34_scores_3);
    ADD(r, test_ruff_of_30_to_34_scores_3);
    ADD(r, test_ruff_of_35_to_39_scores_4);
    ADD(r, test_ruff_of_45_scores_as_50);
    ADD(r, test_ruff_is_the_largest_suit_total_not_the_longest_suit);
    ADD(r, test_ruff_points_follow_the_value);

    CU_pSuite p = CU_add_suite("Sequence points", NULL, NULL);
    ADD(p, test_tierce_scores_3);
    ADD(p, test_quart_scores_4);
    ADD(p, test_quint_scores_15);
    ADD(p, test_sixieme_scores_16);
    ADD(p, test_septieme_scores_17);
    ADD(p, test_huitieme_scores_18);
    ADD(p, test_neuvieme_scores_19);
    ADD(p, test_two_cards_are_no_sequence);

    CU_pSuite su = CU_add_suite("Sequences, suited", NULL, NULL);
    ADD(su, test_suited_runs_across_suits_do_not_count);
    ADD(su, test_suited_tierce_in_one_suit);
    ADD(su, test_suited_claim_is_the_longest_run);
    ADD(su, test_suited_claim_on_equal_length_is_the_highest_top);
    ADD(su, test_suited_winner_scores_all_his_runs);
    ADD(su, test_suited_quint_and_tierce_score_18);
    ADD(su, test_suited_each_card_counts_in_one_run_only);
    ADD(su, test_suited_ace_is_high_with_no_wrap);
    ADD(su, test_suited_neuvieme_is_a_whole_suit);

    CU_pSuite un = CU_add_suite("Sequences, unsuited", NULL, NULL);
    ADD(un, test_unsuited_cards_of_different_suits_form_a_run);
    ADD(un, test_unsuited_claim_on_equal_length_is_the_highest_top);
    ADD(un, test_unsuited_6_to_Q_with_8_9_10_twice_scores_20_not_30);
    ADD(un, test_unsuited_remaining_cards_take_their_best_split);
    ADD(un, test_unsuited_each_card_counts_in_one_run_only);
    ADD(un, test_unsuited_no_run_without_three_consecutive_ranks);

    CU_pSuite c = CU_add_suite("Sequence claims", NULL, NULL);
    ADD(c, test_seq_longer_beats_shorter);
    ADD(c, test_seq_equal_length_higher_top_wins);
    ADD(c, test_seq_equal_claims_compare_equal);
    ADD(c, test_seq_none_against_none_is_equal);
    ADD(c, test_seq_any_tierce_beats_none);

    CU_pSuite t = CU_add_suite("Ternaries and Quatorzes", NULL, NULL);
    ADD(t, test_ternary_scores_3);
    ADD(t, test_quatorze_scores_14);
    ADD(t, test_three_nines_count_nothing);
    ADD(t, test_four_sixes_count_nothing);
    ADD(t, test_any_quatorze_beats_any_ternary);
    ADD(t, test_hand_claims_its_quatorze_over_a_higher_ternary);
    ADD(t, test_higher_ternary_beats_lower);
    ADD(t, test_higher_quatorze_beats_lower);
    ADD(t, test_any_set_beats_none);
    ADD(t, test_winner_scores_all_his_sets);
    ADD(t, test_sets_are_listed_best_first);

    return test_run_all();
}
