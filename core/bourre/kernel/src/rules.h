// bourre.kernel, rules: each rule of the built-in components written once, one C++
// function a rule, in the header named like its Python component, shared by the engine
// (Stepper), the sampled worlds and the solver, and each held to its Python twin by
// tests/kernel/test_rule_twins.py (_kernel.rules); this header includes them all:
//   obligations.h  Facts, follow, follow_optional_undertrump, obliged
//                  R-FOLLOW, R-TRUMP, R-DISCARD, R-OPTIONAL-UNDERTRUMP
//                  bourre_variants.standard.obligations, optional_undertrump
//   cinch.h        has_cinch, highest_trumps, cinch_narrow
//                  R-SURE ... R-CINCH-LAST              standard.cinch
//   legal.h        cinch_legal, legal_cards  R-LEAD ... R-NO-CINCH  bourre.game.legal
//   tricks.h       trick_winner              R-TRICK     standard.tricks
//   lead.h         Rotation, lead_order  R-LEAD  standard.lead
//   decisions.h    decision_turn  R-DECIDE, R-ACE-UP, R-LAST-STANDS, R-SIMULTANEOUS
//                                 standard.decisions, simultaneous_reveal
//   draw.h         draw_allowed, draw_cards  R-DRAW, R-RESHUFFLE  standard.draw
//   payout.h       Outcome, antes, play_ante, penalty, next_dealer, settle, pay_out
//                  (payout.cpp)  R-FIRST-POT, R-ANTE, R-DOUBLE-ANTE, R-PENALTY,
//                  R-POT-LIMIT, R-DEALER, R-SETTLE, R-WIN, R-SOLE, R-BOURRE
//                  standard.payout, double_ante, pot_limit
// Inline (every card of every engine goes through them) but pay_out (once a hand).
#pragma once

#include "cinch.h"
#include "decisions.h"
#include "draw.h"
#include "lead.h"
#include "legal.h"
#include "obligations.h"
#include "payout.h"
#include "tricks.h"
