// bourre.kernel, solver: the double-dummy solver (bourre.advice.solver, issue 31):
// solver.cpp holds the region ``struct DDPos`` ... ``dd_solve_stepper`` of the single
// file, verbatim.
#pragma once

#include "stepper.h"
#include "convert.h"

namespace bourre::kernel {

// The double-dummy values of a position (bourre.advice.kernel_solver), checked: (rows,
// positions), or None when a plugin's money answer is not the kernel's to hold (the
// Python reference solves the position).
py::object dd_solve(const py::dict& house, const py::dict& w);
// The same for a stepped state (KernelState) in the play phase.
py::object dd_solve_stepper(const Stepper& k);

}  // namespace bourre::kernel
