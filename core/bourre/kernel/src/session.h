// bourre.kernel, session: whole seeded sessions of a house (bourre.sim.simulate's
// play_session on the kernel: simulate, compare, sweep, bench): the one engine, the
// Stepper (stepper.h), stepped to the session's end by its bots (session.cpp), and what
// the bindings call.
#pragma once

#include "convert.h"
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
py::object play_prepared(const Prepared& p, const std::string& seed,
                         const std::vector<std::vector<u32>>& words, const py::object& fraction,
                         bool fast, bool tally);

}  // namespace bourre::kernel
