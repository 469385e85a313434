// bourre.kernel, payout: the payout (the rest of the money is inline in payout.h).

#include "payout.h"
#include "hooks.h"

namespace bourre::kernel {

// R-WIN, R-SOLE, R-BOURRE (R-POT-LIMIT), R-ANTE exemptions (standard.payout.payout): the
// pot at stake P is paid out of the hand's tricks ``won``; the balances, the pot carried,
// each seat's exemption from the next ante, the bourre players and whether it carried;
// returns who took the pot and who was bourre.  ``lost``: an amount would have left the
// 128-bit range (the money is then no longer the rules' and must not be read).
Outcome pay_out(const House& H, const int* active, int nactive, const int* won, bool sole,
                i128 P, i128* bal, i128& pot, bool* exempt, int& nbourre, int& carried,
                bool& lost) {
  const int n = H.n;
  for (int s = 0; s < n; ++s) exempt[s] = false;
  nbourre = carried = 0;
  lost = false;
  Outcome out;
  if (sole) {  // R-SOLE: takes the pot, nobody is bourre
    lost = !add_to(bal[active[0]], P);
    pot = 0;
    out.winner = active[0];
    return out;
  }
  int best = -1, ntop = 0;
  int top[MAX_SEATS];
  bool bourre[MAX_SEATS] = {};
  for (int i = 0; i < nactive; ++i) {
    const int s = active[i], w = won[s];
    if (w > best) {
      best = w;
      ntop = 0;
      top[ntop++] = s;
    } else if (w == best) {
      top[ntop++] = s;
    }
    if (!w) {
      bourre[s] = true;
      ++nbourre;
      out.bourre |= u32{1} << s;
    }
  }
  bool ok = true;
  i128 owed = 0;
  if (nbourre) {
    i128 x = penalty(H, P);  // every payment uses the same old P
    if (H.penalty && !penalty_hook(H, P, x)) {  // a plugin's penalty (R-BOURRE)
      lost = true;
      return out;
    }
    for (int s = 0; s < n; ++s) {
      if (bourre[s]) ok = ok && sub_from(bal[s], x) && add_to(owed, x);
    }
  }
  i128 carry = P;
  for (int s = 0; s < n; ++s) exempt[s] = bourre[s];
  if (ntop > 1) {  // R-WIN: a tie carries the whole pot; the tied skip the ante
    carried = 1;
    for (int i = 0; i < ntop; ++i) exempt[top[i]] = true;
  } else {
    ok = ok && add_to(bal[top[0]], P);
    carry = 0;
    out.winner = top[0];
  }
  ok = ok && add_to(carry, owed);
  pot = carry;
  lost = !ok;
  return out;
}

}  // namespace bourre::kernel
