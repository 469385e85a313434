// bourre.kernel, money: the conversions of amounts to and from Python (declared in convert.h).

#include "convert.h"
#include <algorithm>
#include <stdexcept>
#include <string>

namespace bourre::kernel {

py::int_ to_py(i128 x) {
  if (x >= static_cast<i128>(INT64_MIN) && x <= static_cast<i128>(INT64_MAX)) {
    return py::int_(static_cast<i64>(x));
  }
  const bool neg = x < 0;
  unsigned __int128 u = neg ? static_cast<unsigned __int128>(-(x + 1)) + 1
                            : static_cast<unsigned __int128>(x);
  std::string digits;
  while (u) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return py::reinterpret_steal<py::int_>(PyLong_FromString(digits.c_str(), nullptr, 10));
}

i128 from_py(const py::int_& v) {
  const i64 x = v.cast<i64>();  // the wrapper keeps amounts within 2^62
  return static_cast<i128>(x);
}

// ``fraction`` must be a type when the kernel makes its instances itself (``fast``).
void check_fraction(const py::object& fraction, bool fast) {
  if (fast && !PyType_Check(fraction.ptr())) {
    throw std::invalid_argument("fraction: a type (Fraction) when fast");
  }
}

i128 gcd128(i128 a, i128 b) {
  if (a < 0) a = -a;
  while (b) {
    const i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// The Fraction p/q of coprime ints (q > 1): by ``fraction(p, q)``, or, with ``fast``
// (the wrapper checked that this Python's Fraction keeps its terms in the slots
// _numerator and _denominator), made as object.__new__(Fraction) with those slots set:
// a quarter of the normalising constructor's cost.
py::object make_fraction(const py::object& fraction, bool fast, py::int_ p, py::int_ q) {
  if (!fast) return fraction(std::move(p), std::move(q));
  static PyObject* const no_args = PyTuple_New(0);
  static PyObject* const num_name = PyUnicode_InternFromString("_numerator");
  static PyObject* const den_name = PyUnicode_InternFromString("_denominator");
  auto* type = reinterpret_cast<PyTypeObject*>(fraction.ptr());
  py::object f = py::reinterpret_steal<py::object>(PyBaseObject_Type.tp_new(type, no_args, nullptr));
  if (!f || PyObject_SetAttr(f.ptr(), num_name, p.ptr()) < 0 ||
      PyObject_SetAttr(f.ptr(), den_name, q.ptr()) < 0) {
    throw py::error_already_set();
  }
  return f;
}

}  // namespace bourre::kernel
