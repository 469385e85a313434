// bourre.kernel, rng: the named streams (bourre.xoshiro: a stream's four words are the
// BLAKE2s-128 digest of its name, RFC 7693) and xoshiro128** (Xoshiro128), its
// below() and Fisher-Yates shuffle written out for the deal.
#pragma once

#include "cards.h"
#include <string>
#include <vector>

namespace bourre::kernel {

// The first four words of BLAKE2s-128(name), little-endian (bourre.xoshiro.stream).
void blake2s_128(const std::string& name, u32 out[4]);

// -- xoshiro128** (bourre.xoshiro.Xoshiro128) ------------------------------------------

struct Xoshiro {
  u32 s[4] = {0, 0, 0, 1};

  u32 next() {
    const u32 x = s[1] * 5u;
    const u32 result = ((x << 7) | (x >> 25)) * 9u;
    const u32 t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 11) | (s[3] >> 21);
    return result;
  }

  // below(n): the top bits of word * n (Xoshiro128.below).
  u32 below(u32 n) { return static_cast<u32>((static_cast<u64>(next()) * n) >> 32); }

  // Fisher-Yates from the last position down: position i takes the card at
  // below(i + 1) (Xoshiro128.shuffle).  The steps of next() are written out on local
  // words: the cards are bytes, which may alias anything, so the state would otherwise
  // be stored and loaded again around every swap.
  void shuffle(std::uint8_t* a, int len) {
    u32 s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
    for (int i = len - 1; i > 0; --i) {
      const u32 x = s1 * 5u;
      const u32 word = ((x << 7) | (x >> 25)) * 9u;
      const u32 t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >> 21);
      const int j = static_cast<int>((static_cast<u64>(word) * static_cast<u32>(i + 1)) >> 32);
      const std::uint8_t c = a[i];
      a[i] = a[j];
      a[j] = c;
    }
    s[0] = s0;
    s[1] = s1;
    s[2] = s2;
    s[3] = s3;
  }
};

// The stream named ``name`` (bourre.xoshiro.stream: the last word made odd).
Xoshiro stream(const std::string& name);
// The same for the name ``prefix`` + ``seed`` (bourre-deck:{seed} …), without making it.
Xoshiro stream(const char* prefix, const std::string& seed);
// Its four state words (the module's stream_words, for the tests).
std::vector<u32> stream_words(const std::string& name);

}  // namespace bourre::kernel
