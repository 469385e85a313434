// bourre.kernel, solver: the double-dummy solver (bourre.advice.solver, issue 31):
// solver.cpp holds the region ``struct DDPos`` ... ``dd_solve_stepper`` of the single
// file, verbatim.
#pragma once

#include "stepper.h"
#include "convert.h"

namespace bourre::kernel {

// The double-dummy values of a position (bourre.advice.kernel_solver), checked.
py::tuple dd_solve(const py::dict& house, const py::dict& w);
// The same for a stepped state (KernelState) in the play phase.
py::tuple dd_solve_stepper(const Stepper& k);

}  // namespace bourre::kernel
