// Global-memory access from tiles of pointers: masked, vectorized loads and stores with
// cache hints (atomics: atomic.cuh).
#pragma once

#include "tle/cuda/elementwise.cuh"


namespace tle {

template <class P>
struct pointee;
template <class T>
struct pointee<T *> {
  using type = T;
};
template <class T>
struct pointee<const T *> {
  using type = T;
};
template <class P>
using pointee_t = typename pointee<P>::type;

// Triton's cache modifiers (`cache_modifier=`). Eviction hints are accepted and not used yet.
enum class Cache { normal, ca, cg, cs, cv, wb, wt };

template <int Bytes>
struct raw_storage;
template <> struct raw_storage<16> { using type = uint4; };
template <> struct raw_storage<8> { using type = uint2; };
template <> struct raw_storage<4> { using type = unsigned int; };
template <> struct raw_storage<2> { using type = unsigned short; };
template <> struct raw_storage<1> { using type = unsigned char; };

template <Cache C, class R>
TLE_DEVICE R load_raw(const R *p) {
  if constexpr (C == Cache::cg) return __ldcg(p);
  else if constexpr (C == Cache::cs) return __ldcs(p);
  else if constexpr (C == Cache::cv) return __ldcv(p);
  else if constexpr (C == Cache::ca) return __ldca(p);
  else return *p;
}
template <Cache C, class R>
TLE_DEVICE void store_raw(R *p, R v) {
  if constexpr (C == Cache::cg) __stcg(p, v);
  else if constexpr (C == Cache::cs) __stcs(p, v);
  else if constexpr (C == Cache::wt) __stwt(p, v);
  else *p = v;
}

// Registers [g*Vec, g*Vec+Vec) must be consecutive elements along one dimension; the
// compiler picks Vec so that they are also contiguous and aligned in memory.
template <class TileT, int Vec>
TLE_CONSTEXPR bool consecutive_registers() {
  bool ok = true;
  for (int b = 0; ok && (1 << b) < Vec; ++b) {
    int dim = -1;
    for (int d = 0; d < TileT::rank; ++d)
      if (b < TileT::linear.numRegBits && TileT::linear.reg[b][d]) dim = d;
    ok = dim >= 0 && TileT::linear.reg[b][dim] == (1 << b) && TileT::linear.reg[0][dim] == 1;
  }
  return ok;
}

// tl.load(ptrs, mask, other). Masked-off elements take `other`.
template <int Vec, Cache C = Cache::normal, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> *mask,
                                            const Tile<pointee_t<P>, L, S...> *other) {
  using T = pointee_t<P>;
  using Out = Tile<T, L, S...>;
  static_assert(consecutive_registers<Out, Vec>(), "tlec bug: vector width does not match the layout");
  using R = typename raw_storage<sizeof(T) * Vec>::type;
  Out out;
  TLE_UNROLL for (int g = 0; g < Out::kRegs; g += Vec) {
    if (mask && !mask->v[g]) {
      TLE_UNROLL for (int i = 0; i < Vec; ++i) out.v[g + i] = other ? other->v[g + i] : T();
      continue;
    }
    const R raw = load_raw<C>(reinterpret_cast<const R *>(ptrs.v[g]));
    memcpy(&out.v[g], &raw, sizeof(R));
  }
  return out;
}
template <int Vec, Cache C = Cache::normal, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs) {
  return load<Vec, C>(ptrs, static_cast<const Tile<bool, L, S...> *>(nullptr),
                      static_cast<const Tile<pointee_t<P>, L, S...> *>(nullptr));
}
template <int Vec, Cache C = Cache::normal, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> &mask) {
  return load<Vec, C>(ptrs, &mask, static_cast<const Tile<pointee_t<P>, L, S...> *>(nullptr));
}
template <int Vec, Cache C = Cache::normal, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> &mask,
                                            const Tile<pointee_t<P>, L, S...> &other) {
  return load<Vec, C>(ptrs, &mask, &other);
}

// Scalar loads: every thread reads the same address.
template <int Vec, Cache C = Cache::normal, class P>
TLE_DEVICE pointee_t<P> load(P ptr) {
  return load_raw<C>(ptr);
}
template <int Vec, Cache C = Cache::normal, class P>
TLE_DEVICE pointee_t<P> load(P ptr, bool mask, pointee_t<P> other = pointee_t<P>()) {
  return mask ? load_raw<C>(ptr) : other;
}

// tl.store(ptrs, value, mask). Of the threads holding copies of an element, one writes it.
template <int Vec, Cache C = Cache::normal, class P, class L, int... S>
TLE_DEVICE void store(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &value,
                      const Tile<bool, L, S...> *mask = nullptr) {
  using T = pointee_t<P>;
  using V = Tile<T, L, S...>;
  static_assert(consecutive_registers<V, Vec>(), "tlec bug: vector width does not match the layout");
  using R = typename raw_storage<sizeof(T) * Vec>::type;
  if (!is_owner<V>()) return;
  TLE_UNROLL for (int g = 0; g < V::kRegs; g += Vec) {
    if (mask && !mask->v[g]) continue;
    R raw;
    memcpy(&raw, &value.v[g], sizeof(R));
    store_raw<C>(reinterpret_cast<R *>(ptrs.v[g]), raw);
  }
}
template <int Vec, Cache C = Cache::normal, class P, class L, int... S>
TLE_DEVICE void store(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &value,
                      const Tile<bool, L, S...> &mask) {
  store<Vec, C>(ptrs, value, &mask);
}
template <int Vec, Cache C = Cache::normal, class P>
TLE_DEVICE void store(P ptr, pointee_t<P> value, bool mask = true) {
  if (mask) store_raw<C>(ptr, value);
}

}  // namespace tle
