// bourre.kernel, money: exact amounts in 128-bit integers (1/D chip), every sum checked
// before it is made (add_to, sub_from).  Their conversions to Python ints and Fractions
// (bourre.sim's results) are convert.cpp's (convert.h).
#pragma once

#include "cards.h"

namespace bourre::kernel {

using i128 = __int128;

constexpr i128 MONEY_BOUND = static_cast<i128>(1) << 100;
constexpr i64 LIMIT = i64{1} << 62;  // every amount the wrapper gives is within +-2^62

// Money that would leave the 128-bit range is never computed (signed overflow is
// undefined): each sum or difference is checked first; false, ``x`` unchanged, when it
// would overflow (the caller reports the money as beyond the kernel's range and the
// Python rules, exact at any size, take over).
inline bool add_to(i128& x, i128 y) {
  i128 r;
  if (__builtin_add_overflow(x, y, &r)) return false;
  x = r;
  return true;
}

inline bool sub_from(i128& x, i128 y) {
  i128 r;
  if (__builtin_sub_overflow(x, y, &r)) return false;
  x = r;
  return true;
}

}  // namespace bourre::kernel
