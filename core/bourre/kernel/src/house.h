// bourre.kernel, house: the house and the bots as the wrapper describes them
// (bourre.kernel.__init__: a dict of the house's settings, a tuple a bot), read and
// checked field by field by convert.cpp (read_house, read_bots: convert.h).
#pragma once

#include "money.h"
#include <memory>

namespace bourre::kernel {

// -- the house and the bots, as the wrapper describes them ------------------------------

struct House {
  int n = 5;               // R-SEAT, R-SESSION: 2..8 players
  int h = 5;               // R-DEAL-SIZE / R-FOUR-CARD (a plugin's: 1..5): cards each and tricks
  int hands = 12;          // R-SESSION
  int first_dealer = 0;    // R-DEALER; -1: a random seat drawn before the first deck
  bool double_ante = false;        // R-DOUBLE-ANTE
  bool simultaneous = false;       // R-SIMULTANEOUS
  bool optional_undertrump = false;  // R-OPTIONAL-UNDERTRUMP
  bool cinch = true;               // R-SURE ... R-CINCH-LAST; false: R-NO-CINCH
  bool pot_limit = false;          // R-POT-LIMIT
  i128 limit = 0;                  // (in 1/D chips)
  i128 ante = 1;                   // R-FIRST-POT, R-ANTE (in 1/D chips)
  i128 balance = 100;              // R-SESSION (in 1/D chips)
  double scale = 1.0;              // D, for the heuristic's float(pot)
  // A plugin's penalty or payout, called through Python at each hand's end instead of
  // pay_out (money_hook); null: the built-in payout.
  std::shared_ptr<struct PyRef> money;
  // A plugin's penalty that the built-in payout calls through Python (penalty_hook).
  std::shared_ptr<struct PyRef> penalty;
  // A plugin's follow rule, asked through Python for every card (follow_hook).
  std::shared_ptr<struct PyRef> follow;
  // A plugin's trick winner, asked through Python for every trick (winner_hook).
  std::shared_ptr<struct PyRef> winner;
  // A plugin's lead (R-LEAD), asked through Python at every trick's start (lead_hook).
  std::shared_ptr<struct PyRef> lead;
  // A plugin's cinch (R-SURE ... R-CINCH-LAST), asked through Python for every card
  // (cinch_hook); the built-in cinch (``cinch``) is then not read.
  std::shared_ptr<struct PyRef> cinch_rule;
  // A plugin's ante rule (hand_antes once a hand at the deal, play_ante once a hand when
  // the tricks start: ante_hook, play_ante_hook), its next dealer (once a hand from the
  // second: dealer_hook) and its settlement (at the session's end: settle_hook).
  std::shared_ptr<struct PyRef> antes;
  std::shared_ptr<struct PyRef> play_antes;
  std::shared_ptr<struct PyRef> dealers;
  std::shared_ptr<struct PyRef> settles;
  // A plugin's decisions or draw: each hand's decisions and exchanges played in Python by
  // the house's checked components (decisions_begin ...: whole sessions and the stepped
  // state, not the worlds).
  std::shared_ptr<struct PyRef> decisions;
};

enum BotKind : int { RANDOM = 0, HEURISTIC = 1 };

struct Bots {
  int kind[MAX_SEATS] = {};
  double play_threshold[MAX_SEATS] = {};
  double per_opponent[MAX_SEATS] = {};
  int keep_trump[MAX_SEATS] = {};
  // the random bots' streams: one shared by every seat (bourre-bots:{seed}), or one a
  // seat given by the caller (bots made one by one from a random.Random)
  bool shared = true;
  int n = 0;

  bool any_random() const {
    for (int s = 0; s < n; ++s) {
      if (kind[s] == RANDOM) return true;
    }
    return false;
  }
};

// A session's status: played (OK), or why the kernel stopped: money beyond its range or
// an answer it does not hold (OVERFLOW_), a draw nothing can give (NO_DISCARDS): the
// Python rules play it; ASK: a seat whose bot is Python's is to act (BotRun).
enum Status : int { OK = 0, OVERFLOW_ = 1, NO_DISCARDS = 2, ASK = 3 };

}  // namespace bourre::kernel
