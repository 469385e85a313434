// bourre.kernel, rng: see rng.h.

#include "rng.h"

#if defined(__SSE2__) && !defined(BOURRE_SCALAR)
#include <emmintrin.h>
#endif

namespace bourre::kernel {

// -- BLAKE2s (RFC 7693), 16-byte digests: the names of the streams ------------------

constexpr u32 B2S_IV[8] = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                           0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
constexpr std::uint8_t B2S_SIGMA[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

// One block (RFC 7693, F): with SSE2 (every x86-64) the state's four rows are four
// vectors and the four G of a step run side by side (the layout of the BLAKE2 authors'
// SSE code); elsewhere the scalar G, word by word.  tests/kernel/test_sessions.py holds
// both to hashlib's blake2s through the streams' words.
void b2s_compress(u32 h[8], const std::uint8_t block[64], u64 t, bool last) {
  u32 m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = static_cast<u32>(block[4 * i]) | (static_cast<u32>(block[4 * i + 1]) << 8) |
           (static_cast<u32>(block[4 * i + 2]) << 16) | (static_cast<u32>(block[4 * i + 3]) << 24);
  }
#if defined(__SSE2__) && !defined(BOURRE_SCALAR)
  const auto load = [](const u32* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  };
  const auto rot16 = [](__m128i x) {  // (rotations by 16 as two word shuffles)
    return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xB1), 0xB1);
  };
  const auto rot12 = [](__m128i x) { return _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)); };
  const auto rot8 = [](__m128i x) { return _mm_or_si128(_mm_srli_epi32(x, 8), _mm_slli_epi32(x, 24)); };
  const auto rot7 = [](__m128i x) { return _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)); };
  __m128i a = load(h), b = load(h + 4), c = load(B2S_IV);
  const u32 low[4] = {static_cast<u32>(t), static_cast<u32>(t >> 32), last ? ~u32{0} : 0, 0};
  __m128i d = _mm_xor_si128(load(B2S_IV + 4), load(low));
  const __m128i a0 = a, b0 = b;
  const auto half = [&](__m128i x, __m128i y) {  // G on the four rows' lanes
    a = _mm_add_epi32(_mm_add_epi32(a, b), x);
    d = rot16(_mm_xor_si128(d, a));
    c = _mm_add_epi32(c, d);
    b = rot12(_mm_xor_si128(b, c));
    a = _mm_add_epi32(_mm_add_epi32(a, b), y);
    d = rot8(_mm_xor_si128(d, a));
    c = _mm_add_epi32(c, d);
    b = rot7(_mm_xor_si128(b, c));
  };
  for (const auto& s : B2S_SIGMA) {
    half(_mm_set_epi32(static_cast<int>(m[s[6]]), static_cast<int>(m[s[4]]),
                       static_cast<int>(m[s[2]]), static_cast<int>(m[s[0]])),
         _mm_set_epi32(static_cast<int>(m[s[7]]), static_cast<int>(m[s[5]]),
                       static_cast<int>(m[s[3]]), static_cast<int>(m[s[1]])));
    b = _mm_shuffle_epi32(b, _MM_SHUFFLE(0, 3, 2, 1));  // the diagonals as columns
    c = _mm_shuffle_epi32(c, _MM_SHUFFLE(1, 0, 3, 2));
    d = _mm_shuffle_epi32(d, _MM_SHUFFLE(2, 1, 0, 3));
    half(_mm_set_epi32(static_cast<int>(m[s[14]]), static_cast<int>(m[s[12]]),
                       static_cast<int>(m[s[10]]), static_cast<int>(m[s[8]])),
         _mm_set_epi32(static_cast<int>(m[s[15]]), static_cast<int>(m[s[13]]),
                       static_cast<int>(m[s[11]]), static_cast<int>(m[s[9]])));
    b = _mm_shuffle_epi32(b, _MM_SHUFFLE(2, 1, 0, 3));  // and back
    c = _mm_shuffle_epi32(c, _MM_SHUFFLE(1, 0, 3, 2));
    d = _mm_shuffle_epi32(d, _MM_SHUFFLE(0, 3, 2, 1));
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h), _mm_xor_si128(a0, _mm_xor_si128(a, c)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(h + 4), _mm_xor_si128(b0, _mm_xor_si128(b, d)));
#else
  const auto rotr32 = [](u32 x, int k) { return (x >> k) | (x << (32 - k)); };
  u32 v[16];
  for (int i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[i + 8] = B2S_IV[i];
  }
  v[12] ^= static_cast<u32>(t);
  v[13] ^= static_cast<u32>(t >> 32);
  if (last) v[14] = ~v[14];
  auto g = [&v, &rotr32](int a, int b, int c, int d, u32 x, u32 y) {
    v[a] = v[a] + v[b] + x;
    v[d] = rotr32(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d];
    v[b] = rotr32(v[b] ^ v[c], 12);
    v[a] = v[a] + v[b] + y;
    v[d] = rotr32(v[d] ^ v[a], 8);
    v[c] = v[c] + v[d];
    v[b] = rotr32(v[b] ^ v[c], 7);
  };
  for (const auto& s : B2S_SIGMA) {
    g(0, 4, 8, 12, m[s[0]], m[s[1]]);
    g(1, 5, 9, 13, m[s[2]], m[s[3]]);
    g(2, 6, 10, 14, m[s[4]], m[s[5]]);
    g(3, 7, 11, 15, m[s[6]], m[s[7]]);
    g(0, 5, 10, 15, m[s[8]], m[s[9]]);
    g(1, 6, 11, 12, m[s[10]], m[s[11]]);
    g(2, 7, 8, 13, m[s[12]], m[s[13]]);
    g(3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
#endif
}

// The first four words of BLAKE2s-128(name), little-endian (bourre.xoshiro.stream).
void blake2s_128(const std::string& name, u32 out[4]) {
  u32 h[8];
  for (int i = 0; i < 8; ++i) h[i] = B2S_IV[i];
  h[0] ^= 0x01010000u ^ 16u;  // no key, 16-byte digest
  const auto* p = reinterpret_cast<const std::uint8_t*>(name.data());
  std::size_t len = name.size();
  u64 t = 0;
  std::uint8_t block[64];
  while (len > 64) {
    t += 64;
    b2s_compress(h, p, t, false);
    p += 64;
    len -= 64;
  }
  std::memset(block, 0, sizeof block);
  if (len) std::memcpy(block, p, len);
  t += len;
  b2s_compress(h, block, t, true);
  for (int i = 0; i < 4; ++i) out[i] = h[i];
}

// The stream named ``name`` (bourre.xoshiro.stream: the last word made odd).
Xoshiro stream(const std::string& name) {
  Xoshiro x;
  blake2s_128(name, x.s);
  x.s[3] |= 1u;
  return x;
}

Xoshiro stream(const char* prefix, const std::string& seed) {
  const std::size_t lp = std::strlen(prefix), n = lp + seed.size();
  if (n > 64) return stream(prefix + seed);  // (a long seed: more than one block)
  Xoshiro x;  // (one block: hashed from the stack, no string made)
  u32 h[8];
  for (int i = 0; i < 8; ++i) h[i] = B2S_IV[i];
  h[0] ^= 0x01010000u ^ 16u;
  std::uint8_t block[64] = {};
  std::memcpy(block, prefix, lp);
  std::memcpy(block + lp, seed.data(), seed.size());
  b2s_compress(h, block, n, true);
  for (int i = 0; i < 4; ++i) x.s[i] = h[i];
  x.s[3] |= 1u;
  return x;
}

std::vector<u32> stream_words(const std::string& name) {
  const Xoshiro x = stream(name);
  return {x.s[0], x.s[1], x.s[2], x.s[3]};
}

}  // namespace bourre::kernel
