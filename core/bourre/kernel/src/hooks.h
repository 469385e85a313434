// bourre.kernel, hooks: a plugin's rule called through Python (bourre.kernel.hooks makes
// the callables: each calls the house's checked component, its guard counted).
#pragma once

#include "rules.h"
#include <Python.h>
#include <memory>
#include <vector>

namespace bourre::kernel {

// -- a plugin's rule, through Python ------------------------------------------------------
//
// A house whose penalty or payout is a plugin's gives the kernel Python callables
// (bourre.kernel.hooks), which call the house's checked component (its guard counted)
// and answer in 1/D chips, or None when an amount is not a whole number of them within
// 2^62 (the money is then no longer the kernel's: the Python rules play the session).
// The plugin's error (PluginError) propagates unchanged.

struct PyRef {  // a strong reference, held by every copy of a House (the last drops it)
  PyObject* o;
  explicit PyRef(PyObject* x) : o(x) { Py_XINCREF(o); }
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  ~PyRef() {
    if (o && Py_IsInitialized()) {
      const PyGILState_STATE g = PyGILState_Ensure();
      Py_DECREF(o);
      PyGILState_Release(g);
    }
  }
};

// One int of the hook's answer: false if it is not within 2^62 (not the kernel's).
bool hook_int(PyObject* o, i128& out);
// A plugin's penalty (R-BOURRE), through Python; false: not the kernel's money.
bool penalty_hook(const House& H, i128 P, i128& x);
// A plugin's follow rule (R-FOLLOW ...), through Python, as a mask; false: not the kernel's.
bool follow_hook(const House& H, u64 held, const int* tcards, int tlen, int trump, u64& out);
// A plugin's trick winner (R-TRICK), through Python: the index of the winning card.
int winner_hook(const House& H, const int* tcards, int tlen, int trump);
// A plugin's lead (R-LEAD), through Python: the next trick's seats in order into ``out``
// (``nactive`` of them, the leader first); ``winner`` -1 before the first trick.
void lead_hook(const House& H, const int* active, int nactive, int dealer, int winner, int* out);
// A plugin's cinch (R-SURE ... R-CINCH-LAST), through Python, on the ``ordinary`` legal
// cards: the legal cards into ``legal`` and whether the player has a cinch into ``cinch``;
// false: not the kernel's.
bool cinch_hook(const House& H, u64 held, u64 ordinary, const int* tcards, int tlen, int trump,
                u64 known, int won, bool last, u64& legal, bool& cinch);
// A plugin's payout instead of pay_out, through Python; false: not the kernel's money.
bool money_hook(const House& H, const int* active, int nactive, const int* won, i128 P,
                i128* bal, i128& pot, bool* exempt, int& nbourre, int& carried, Outcome& out);


// -- the per-hand hooks (issue 41): once a hand, never a card ------------------------------
//
// A plugin's ante (R-FIRST-POT, R-ANTE): each seat's ante in ``out`` (1/D chips, >= 0),
// the previous hand told as its pot at stake (-1: none, the session's first hand), its
// active seats in order and each seat's tricks; false when an amount is not the kernel's.
bool ante_hook(const House& H, i128 last_pot, const int* active, int nactive, const int* won,
               int dealer, i128* out);
// A plugin's play ante (R-DOUBLE-ANTE's kind): what each player who plays adds; false: not
// the kernel's.
bool play_ante_hook(const House& H, i128& x);
// A plugin's next dealer (R-DEALER): the seat after ``dealer``; ``marks`` (the seats that
// lost their next turn to deal, a mask) as the plugin leaves them; ``held`` false when it
// leaves something the kernel does not hold.
int dealer_hook(const House& H, int dealer, u32& marks, bool& held);
// A plugin's settlement (R-SETTLE): its answer (final balances, places), a new reference.
PyObject* settle_hook(const House& H, const i128* bal, i128 pot);


// -- a plugin's decisions or draw (issue 41): once a decision or exchange -----------------
//
// A house whose decisions (R-DECIDE ...) or draw (R-DRAW, R-RESHUFFLE) is a plugin's hands
// each hand's decisions and exchanges to its checked components in Python, on a HandState
// (bourre.kernel.decisions): ``begin`` at the deal, then one call for each answer (of the
// kernel's bots, or of the stepped state's caller), each answered with the next turn; the
// hand is read back when the decisions are over.  Whole sessions and the stepped state
// (a clone copies the run: decisions_copy); the rollouts of a Python world at a decision
// point (decisions_resume, each rollout on its own copy); advice's batches (each deal's run
// made by decisions_begin); the sampled worlds (decisions_told, decisions_drawn,
// decisions_stocked: worlds.cpp replay_sample).

// A turn as the Python side tells it (decisions.Turned): who acts and how, the seat's cards
// as a mask, the public decisions so far and how many of them said play.
struct HookTurn {
  int kind = 0, seat = -1;  // kind: TURN_DECIDE (1) or TURN_EXCHANGE (2)
  bool forced = false;      // the seat may not pass
  int limit = 0;            // the most cards it may exchange (the draw's limit)
  u64 cards = 0;
  int decided = 0, playing = 0;
};

// The hand when the decisions are over (decisions.HandDecisions.end).
struct HookEnd {
  int nactive = 0;
  int active[MAX_SEATS] = {};
  u64 cards[MAX_SEATS] = {}, discards[MAX_SEATS] = {};
  int ndec = 0;
  int dec[MAX_SEATS][3] = {};  // seat, play, exchanged
  bool reshuffled = false;
  u32 words[4] = {};
};

// The answers' statuses: a turn (1), the decisions over (0), not the kernel's to hold (-1:
// the Python rules play the session), the answer refused by the rules (HOOK_REFUSED: the
// hand unchanged; the stepped state refuses the action, a whole session is the Python
// rules').  ``begin(number, dealer, deck, pot_before, pot, words)``: the hand's run into
// ``run``, and its first turn (``words``: the reshuffle stream, nullptr unseeded).
constexpr int HOOK_REFUSED = -2;
int decisions_begin(const House& H, int number, int dealer, const std::uint8_t* deck,
                    i128 pot_before, i128 pot, const u32* words, std::shared_ptr<PyRef>& run,
                    HookTurn& t);
// A run made in Python for a world at a decision point (bourre.kernel.rollouts: a copy
// of the world's HandState, decisions.HandDecisions.resume) and its turn, taken as
// decisions_begin takes a hand's: into ``run`` and ``t``, the turn's status returned.
int decisions_resume(PyObject* made, PyObject* turn, std::shared_ptr<PyRef>& run, HookTurn& t);
// ``run.copy()``: an independent copy of the hand's run (a stepped state's clone, each
// rollout of a world loaded with a run).
std::shared_ptr<PyRef> decisions_copy(const PyRef& run);
// ``run(answer)``: a decision (play: Py_True / Py_False) or the discards, in order.
int decisions_play(const PyRef& run, bool play, HookTurn& t);
int decisions_exchange(const PyRef& run, const int* cards, int k, HookTurn& t);
// ``run(None)``: the hand read back; false: not the kernel's to hold.
bool decisions_end(const PyRef& run, int n, HookEnd& e);
// A sampled world of the Monte Carlo bot replayed through the hand's run (worlds.cpp
// replay_spec; decisions.told_hook): ``told(hands)``, the run of the sample's deal into
// ``run`` and its first turn; ``run.drawn(discards, drew)``, an exchange whose
// replacements the sample tells (R-DRAW); ``run.stocked(stock, words)``, the world reached
// at a decision point, its unseen cards the stock in the order given and its reshuffle
// stream (false: not the kernel's to hold); ``run.forced``, the rule that forbids the seat
// to pass (F_ACE_UP, F_LAST_STANDS, or F_PLUGIN for a plugin's own).
int decisions_told(PyObject* told, const std::vector<std::vector<int>>& hands,
                   std::shared_ptr<PyRef>& run, HookTurn& t);
int decisions_drawn(const PyRef& run, const std::vector<int>& cards, const std::vector<int>& drew,
                    HookTurn& t);
bool decisions_stocked(const PyRef& run, const std::uint8_t* stock, int k, const u32* words);
int decisions_forced(const PyRef& run);

}  // namespace bourre::kernel
