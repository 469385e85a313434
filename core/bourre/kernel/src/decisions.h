// bourre.kernel, decisions: whose turn it is to decide or exchange
// (bourre_variants.standard.decisions, simultaneous_reveal): R-DECIDE, R-ACE-UP,
// R-LAST-STANDS, R-SIMULTANEOUS.
// Held to its Python twin by tests/kernel/test_rule_twins.py (_kernel.rules); see rules.h.
#pragma once

#include "house.h"

namespace bourre::kernel {

enum TurnKind : int { TURN_NONE = 0, TURN_DECIDE = 1, TURN_EXCHANGE = 2 };

// Whose turn it is in the decisions and the exchange, and why a dealer may not pass
// (forced: 0, 1 R-ACE-UP, 2 R-LAST-STANDS: the Stepper's Forced values).
struct DecisionTurn {
  int kind = TURN_NONE, seat = -1, forced = 0;
};

// R-DECIDE, R-ACE-UP, R-LAST-STANDS, R-DRAW (decisions.Sequential.turn), R-SIMULTANEOUS
// (simultaneous_reveal.Simultaneous.turn): ``step`` seats have decided, ``exchanging`` is
// the seat whose exchange is due (-1: none), ``nactive`` seats play so far.
inline DecisionTurn decision_turn(bool simultaneous, int n, int dealer, int step,
                                  int exchanging, bool ace_up, int nactive) {
  DecisionTurn t;
  if (simultaneous) {
    if (step < n) {  // the secret decisions, from the dealer's left
      t.kind = TURN_DECIDE;
      t.seat = dealer + 1 + step < n ? dealer + 1 + step : dealer + 1 + step - n;
      t.forced = t.seat == dealer && ace_up ? 1 : 0;
    } else if (exchanging >= 0) {
      t.kind = TURN_EXCHANGE;
      t.seat = exchanging;
    }
    return t;
  }
  if (exchanging >= 0) {  // a player who plays exchanges before the next decides
    t.kind = TURN_EXCHANGE;
    t.seat = exchanging;
  } else if (step < n) {
    t.kind = TURN_DECIDE;
    t.seat = dealer + 1 + step < n ? dealer + 1 + step : dealer + 1 + step - n;
    if (t.seat == dealer) t.forced = ace_up ? 1 : !nactive ? 2 : 0;
  }
  return t;
}

}  // namespace bourre::kernel
