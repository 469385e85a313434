// bourre.kernel, bindings: the module (bindings.cpp: PYBIND11_MODULE) and its submodule
// _kernel.rules (bindings_rules.cpp), the kernel's rule functions for their twin tests.
#pragma once

#include "convert.h"

namespace bourre::kernel {

// _kernel.rules: each rule function for its twin test (issue 41).
void add_rules(py::module_& m);

}  // namespace bourre::kernel
