// bourre.kernel, session: whole seeded sessions of a house (bourre.sim.simulate's
// play_session on the kernel: simulate, compare, sweep, bench): the one engine, the
// Stepper (stepper.h), stepped to the session's end by its bots (session.cpp), and what
// the bindings call.
#pragma once

#include "convert.h"
#include "stepper.h"
#include <memory>
#include <string>
#include <vector>

namespace bourre::kernel {

// A house and its bots read once (bourre.kernel keeps one a plan): the sessions of a
// run are played from it without reading the house's settings again each session.
struct Prepared {
  House h;
  Bots b;
  bool shared;
};

// Sessions (one a seed text) whose random bots share the stream bourre-bots:{seed}.
py::list play_shared(const py::dict& house, const py::list& bots,
                     const std::vector<std::string>& seeds, const py::object& fraction,
                     bool fast);
// One session whose random bots have a stream each (or share one), with its tally when asked.
py::object play_streams(const py::dict& house, const py::list& bots, const std::string& seed,
                        const std::vector<std::vector<u32>>& words, const py::object& fraction,
                        bool fast, bool tally);
Prepared prepare(const py::dict& house, const py::list& bots, bool shared);

// The bots' streams: one shared (bourre-bots:{seed}) or one a seat.
struct BotStreams {
  const Bots& B;
  Xoshiro gen[MAX_SEATS];
  Xoshiro* at[MAX_SEATS];  // each seat's (gen[0] for all when shared)

  explicit BotStreams(const Bots& b) : B(b) {
    for (int s = 0; s < MAX_SEATS; ++s) at[s] = &gen[b.shared ? 0 : s];
  }
  BotStreams(const BotStreams&) = delete;
  BotStreams& operator=(const BotStreams&) = delete;
  Xoshiro& of(int seat) { return *at[seat]; }
};

// The built-in bots of a session whose other seats are a plugin's bots (``python``, a
// mask of seats), asked in Python on the KernelState that holds the Stepper
// (bourre.kernel's sessions with a plugin's bot): run_bots steps the Stepper with the
// built-in bots until a plugin's bot is to act (ASK), the session ends (OK) or the
// kernel stops (OVERFLOW_, NO_DISCARDS: the Python rules play the session); their
// streams (four words a seat, as each bot was made) go on from one call to the next.
struct BotRun {
  Bots b;
  std::unique_ptr<BotStreams> bs;
  u32 python = 0;
};
std::unique_ptr<BotRun> make_bot_run(const Stepper& g, const py::list& bots,
                                     const std::vector<std::vector<u32>>& words, u32 python);
int run_bots(BotRun& r, Stepper& g);

// A session's result from its Stepper (the status of its play): (final balances, places)
// or the status int; with ``tally``, each hand's HandLog too (the Stepper's ``logs``).
py::object settled(const Stepper& g, int status, const py::object& fraction, bool fast,
                   bool tally);
py::object play_prepared(const Prepared& p, const std::string& seed,
                         const std::vector<std::vector<u32>>& words, const py::object& fraction,
                         bool fast, bool tally);

}  // namespace bourre::kernel
