// bourre.kernel, worlds: the Monte Carlo bot's worlds (bourre.game.worlds,
// bourre.kernel.rollouts): a world loaded or replayed as a Stepper, sampled worlds,
// rollouts, and the simulated deals of advice (bourre.advice.deals.kernel_rows).
#pragma once

#include "stepper.h"
#include "convert.h"
#include <memory>
#include <tuple>

namespace bourre::kernel {

std::unique_ptr<Stepper> load_world(const py::dict& house, const py::dict& w);
std::vector<double> rollouts(const Stepper& g, const py::list& candidates, int me);
std::vector<std::tuple<double, int, u32>> rollout_outcomes(const Stepper& g,
                                                           const py::list& candidates, int me);
// advice_rows' status of a deal whose money left the kernel's units (a plugin's amount
// the kernel does not hold: bourre.kernel.rollouts reads it and asks the Python rules).
constexpr int ADVICE_UNHELD = 4;

py::tuple advice_rows(const py::dict& house, int seat, int dealer, i64 pot,
                      const std::vector<int>& decided, const std::vector<std::vector<int>>& hands,
                      const std::vector<int>& upcards, const std::vector<i64>& words,
                      const std::vector<std::vector<std::vector<int>>>& options, bool passing);
py::object replay_world(const py::dict& house, const py::dict& w);
py::object sample_worlds(const py::dict& house, const py::dict& w, int count, int tries,
                         const std::vector<double>& keep, const std::vector<double>& fold);

}  // namespace bourre::kernel
