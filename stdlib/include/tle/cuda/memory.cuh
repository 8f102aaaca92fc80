// Global-memory access from tiles of pointers: masked, vectorized loads and stores with
// cache hints (atomics: atomic.cuh).
#pragma once

#include "tle/cuda/elementwise.cuh"

#include <cuda_pipeline_primitives.h>

namespace tle {

// An absent mask or `other` (asynchronous loads take pointers to both).
struct NoOperand {};
template <class M>
struct is_no_mask {
  static constexpr bool value = false;
};
template <>
struct is_no_mask<NoOperand> {
  static constexpr bool value = true;
};

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

// Triton's cache modifiers (`cache_modifier=`).
// vol: a volatile access of shared memory (tl.load(volatile=True) there; cv is global's).
// evict_first / evict_last: Triton's eviction_policy, as its loads and stores take it: the
// L1 eviction priority of ld.global / st.global (PTX takes a cache operator or an eviction
// priority, not both).
enum class Cache { normal, ca, cg, cs, cv, wb, wt, vol, evict_first, evict_last };

// ld.global / st.global with an L1 eviction priority (inline PTX: neither the CUDA
// intrinsics nor cuda::ptx have one), 1 to 16 bytes.
#define TLE_LD_EVICT(QUALIFIER)                                                                                          \
  do {                                                                                                                  \
    if constexpr (sizeof(R) == 16)                                                                                      \
      asm volatile("ld.global" QUALIFIER ".v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) \
                   : "l"(p) : "memory");                                                                                \
    else if constexpr (sizeof(R) == 8)                                                                                  \
      asm volatile("ld.global" QUALIFIER ".v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p) : "memory");          \
    else if constexpr (sizeof(R) == 4)                                                                                  \
      asm volatile("ld.global" QUALIFIER ".u32 %0, [%1];" : "=r"(r) : "l"(p) : "memory");                               \
    else if constexpr (sizeof(R) == 2)                                                                                  \
      asm volatile("ld.global" QUALIFIER ".u16 %0, [%1];" : "=h"(r) : "l"(p) : "memory");                               \
    else {                                                                                                              \
      unsigned short wide;                                                                                              \
      asm volatile("ld.global" QUALIFIER ".u8 %0, [%1];" : "=h"(wide) : "l"(p) : "memory");                             \
      r = static_cast<R>(wide);                                                                                         \
    }                                                                                                                   \
  } while (0)
#define TLE_ST_EVICT(QUALIFIER)                                                                                          \
  do {                                                                                                                  \
    if constexpr (sizeof(R) == 16)                                                                                      \
      asm volatile("st.global" QUALIFIER ".v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) \
                   : "memory");                                                                                         \
    else if constexpr (sizeof(R) == 8)                                                                                  \
      asm volatile("st.global" QUALIFIER ".v2.u32 [%0], {%1, %2};" ::"l"(p), "r"(v.x), "r"(v.y) : "memory");             \
    else if constexpr (sizeof(R) == 4)                                                                                  \
      asm volatile("st.global" QUALIFIER ".u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");                                 \
    else if constexpr (sizeof(R) == 2)                                                                                  \
      asm volatile("st.global" QUALIFIER ".u16 [%0], %1;" ::"l"(p), "h"(v) : "memory");                                 \
    else                                                                                                                \
      asm volatile("st.global" QUALIFIER ".u8 [%0], %1;" ::"l"(p), "h"(static_cast<unsigned short>(v)) : "memory");     \
  } while (0)

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
  else if constexpr (C == Cache::vol) {
    const volatile R *q = p;
    R r;
    if constexpr (sizeof(R) == 16) r.x = q->x, r.y = q->y, r.z = q->z, r.w = q->w;
    else if constexpr (sizeof(R) == 8) r.x = q->x, r.y = q->y;
    else r = *q;
    return r;
  } else if constexpr (C == Cache::evict_first || C == Cache::evict_last) {
    R r;
    if constexpr (C == Cache::evict_first) TLE_LD_EVICT(".L1::evict_first");
    else TLE_LD_EVICT(".L1::evict_last");
    return r;
  } else return *p;
}
template <Cache C, class R>
TLE_DEVICE void store_raw(R *p, R v) {
  if constexpr (C == Cache::cg) __stcg(p, v);
  else if constexpr (C == Cache::cs) __stcs(p, v);
  else if constexpr (C == Cache::wt) __stwt(p, v);
  else if constexpr (C == Cache::evict_first) TLE_ST_EVICT(".L1::evict_first");
  else if constexpr (C == Cache::evict_last) TLE_ST_EVICT(".L1::evict_last");
  else *p = v;
}
#undef TLE_LD_EVICT
#undef TLE_ST_EVICT

// How a masked vector access reads its mask: `vector` when the compiler proved the mask
// uniform over each vector (the first element's bit stands for all), `element` when it may
// differ inside one (an odd size): all set, one vector access; mixed, element by element.
enum class Masking { vector, element };

template <int Vec, class MaskTile>
TLE_DEVICE bool all_set(const MaskTile &mask, int first) {
  bool all = true;
  TLE_UNROLL for (int i = 0; i < Vec; ++i) all = all && mask.v[first + i];
  return all;
}
template <int Vec, class MaskTile>
TLE_DEVICE bool any_set(const MaskTile &mask, int first) {
  bool any = false;
  TLE_UNROLL for (int i = 0; i < Vec; ++i) any = any || mask.v[first + i];
  return any;
}

// One element through its raw bits (not every element type has the cache-hint overloads).
template <Cache C, class T>
TLE_DEVICE T load_element(const T *p) {
  using R = typename raw_storage<sizeof(T)>::type;
  const R raw = load_raw<C>(reinterpret_cast<const R *>(p));
  T out;
  memcpy(&out, &raw, sizeof(T));
  return out;
}
template <Cache C, class T>
TLE_DEVICE void store_element(T *p, const T &value) {
  using R = typename raw_storage<sizeof(T)>::type;
  R raw;
  memcpy(&raw, &value, sizeof(T));
  store_raw<C>(reinterpret_cast<R *>(p), raw);
}

// A load from global memory that happens only where `on` holds, else `fallback`: one predicated
// ld.global, without a branch (inline PTX: cuda::ptx::ld has no predicated form). Behind a
// branch ptxas issued a loop's masked loads one at a time when their addresses shared a base
// register (the layer norm's rows of 16k columns: 0.65x Triton, 0.88x predicated). The
// destination starts as `fallback` ("+r"): outputs left undefined and selected afterwards
// made one row of that sweep 0.09x. Widths below 4 bytes keep the select.
#define TLE_LD_GLOBAL_IF(QUALIFIER)                                                                                   \
  do {                                                                                                                \
    if constexpr (sizeof(R) == 16)                                                                                    \
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %5, 0; @p ld.global" QUALIFIER ".v4.u32 {%0, %1, %2, %3}, [%4]; }" \
                   : "+r"(r.x), "+r"(r.y), "+r"(r.z), "+r"(r.w)                                                       \
                   : "l"(p), "r"(int(on))                                                                             \
                   : "memory");                                                                                       \
    else if constexpr (sizeof(R) == 8)                                                                                \
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %3, 0; @p ld.global" QUALIFIER ".v2.u32 {%0, %1}, [%2]; }"         \
                   : "+r"(r.x), "+r"(r.y)                                                                             \
                   : "l"(p), "r"(int(on))                                                                             \
                   : "memory");                                                                                       \
    else                                                                                                              \
      asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p ld.global" QUALIFIER ".u32 %0, [%1]; }"                  \
                   : "+r"(r)                                                                                          \
                   : "l"(p), "r"(int(on))                                                                             \
                   : "memory");                                                                                       \
  } while (0)
template <Cache C, class R>
TLE_DEVICE R load_global_if(const R *p, bool on, R fallback) {
  if constexpr (sizeof(R) < 4) {
    return on ? load_raw<C>(p) : fallback;
  } else {
    R r = fallback;
    if constexpr (C == Cache::ca) TLE_LD_GLOBAL_IF(".ca");
    else if constexpr (C == Cache::cg) TLE_LD_GLOBAL_IF(".cg");
    else if constexpr (C == Cache::cs) TLE_LD_GLOBAL_IF(".cs");
    else if constexpr (C == Cache::cv) TLE_LD_GLOBAL_IF(".cv");
    else if constexpr (C == Cache::evict_first) TLE_LD_GLOBAL_IF(".L1::evict_first");
    else if constexpr (C == Cache::evict_last) TLE_LD_GLOBAL_IF(".L1::evict_last");
    else TLE_LD_GLOBAL_IF("");
    return r;
  }
}
#undef TLE_LD_GLOBAL_IF

// The Bytes at `dst`, which hold the fallback, replaced by those at `src` where `on` holds.
template <Cache C, int Bytes, class T>
TLE_DEVICE void load_global_into(T *dst, const void *src, bool on) {
  using R = typename raw_storage<Bytes>::type;
  R bits;
  memcpy(&bits, dst, Bytes);
  bits = load_global_if<C>(static_cast<const R *>(src), on, bits);
  memcpy(dst, &bits, Bytes);
}

// `Global`: the pointers are into global memory, so masked accesses predicate ld.global.
template <int Vec, Cache C, Masking M, bool Global, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load_tile(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> *mask,
                                                 const Tile<pointee_t<P>, L, S...> *other) {
  using T = pointee_t<P>;
  using Out = Tile<T, L, S...>;
  static_assert(consecutive_registers<Out, Vec>(), "tlec bug: vector width does not match the layout");
  using R = typename raw_storage<sizeof(T) * Vec>::type;
  auto fallback = [&](int i) { return other ? other->v[i] : T(); };
  Out out;
  TLE_UNROLL for (int g = 0; g < Out::kRegs; g += Vec) {
    if constexpr (M == Masking::element && Vec > 1) {
      if (mask && !all_set<Vec>(*mask, g)) {
        TLE_UNROLL for (int i = 0; i < Vec; ++i) {
          if constexpr (Global) {
            out.v[g + i] = fallback(g + i);
            load_global_into<C, sizeof(T)>(&out.v[g + i], ptrs.v[g + i], mask->v[g + i]);
          } else {
            out.v[g + i] = mask->v[g + i] ? load_element<C>(ptrs.v[g + i]) : fallback(g + i);
          }
        }
        continue;
      }
    } else if (mask) {
      if (Global || !mask->v[g]) {
        TLE_UNROLL for (int i = 0; i < Vec; ++i) out.v[g + i] = fallback(g + i);
        if constexpr (Global) load_global_into<C, sizeof(R)>(&out.v[g], ptrs.v[g], mask->v[g]);
        continue;
      }
    }
    const R raw = load_raw<C>(reinterpret_cast<const R *>(ptrs.v[g]));
    memcpy(&out.v[g], &raw, sizeof(R));
  }
  return out;
}

// tl.load(ptrs, mask, other). Masked-off elements take `other`. load_global: the same, for
// pointers into global memory.
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> *mask,
                                            const Tile<pointee_t<P>, L, S...> *other) {
  return load_tile<Vec, C, M, false>(ptrs, mask, other);
}
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs) {
  return load_tile<Vec, C, M, false>(ptrs, static_cast<const Tile<bool, L, S...> *>(nullptr),
                                     static_cast<const Tile<pointee_t<P>, L, S...> *>(nullptr));
}
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> &mask) {
  return load_tile<Vec, C, M, false>(ptrs, &mask, static_cast<const Tile<pointee_t<P>, L, S...> *>(nullptr));
}
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> &mask,
                                            const Tile<pointee_t<P>, L, S...> &other) {
  return load_tile<Vec, C, M, false>(ptrs, &mask, &other);
}
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load_global(const Tile<P, L, S...> &ptrs) {
  return load<Vec, C, M>(ptrs);
}
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load_global(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> &mask) {
  return load_tile<Vec, C, M, true>(ptrs, &mask, static_cast<const Tile<pointee_t<P>, L, S...> *>(nullptr));
}
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> load_global(const Tile<P, L, S...> &ptrs, const Tile<bool, L, S...> &mask,
                                                   const Tile<pointee_t<P>, L, S...> &other) {
  return load_tile<Vec, C, M, true>(ptrs, &mask, &other);
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
template <int Vec, Cache C = Cache::normal, class P>
TLE_DEVICE pointee_t<P> load_global(P ptr) {
  return load<Vec, C>(ptr);
}
template <int Vec, Cache C = Cache::normal, class P>
TLE_DEVICE pointee_t<P> load_global(P ptr, bool mask, pointee_t<P> other = pointee_t<P>()) {
  return load<Vec, C>(ptr, mask, other);
}

// A value thread 0 has, for every thread of the block (through 'scratch' in shared memory).
template <class T>
TLE_DEVICE T share_from_thread0(T value, Scratch scratch) {
  T *slot = reinterpret_cast<T *>(scratch.ptr);
  if (scratch.group.rank() == 0) *slot = value;
  scratch.group.sync();
  const T shared = *slot;
  scratch.group.sync();
  return shared;
}

// A scalar that steers control flow: thread 0 reads it and the block shares it, so that every
// thread takes the same branch even while other blocks write that memory.
template <Cache C = Cache::normal, class P>
TLE_DEVICE pointee_t<P> load_uniform(P ptr, Scratch scratch) {
  pointee_t<P> value = pointee_t<P>();
  if (scratch.group.rank() == 0) value = load_raw<C>(ptr);
  return share_from_thread0(value, scratch);
}
template <Cache C = Cache::normal, class P>
TLE_DEVICE pointee_t<P> load_uniform(P ptr, bool mask, pointee_t<P> other, Scratch scratch) {
  pointee_t<P> value = other;
  if (scratch.group.rank() == 0 && mask) value = load_raw<C>(ptr);
  return share_from_thread0(value, scratch);
}

// ---- stores wider than a thread's run of registers ------------------------------------------
// A tile whose threads each hold a short run of consecutive elements, the next runs on the
// next lanes (an mma accumulator: a lane holds a column pair, the four lanes of a quad eight
// columns), can still be stored a 16-byte vector at a time: the lanes trade registers with
// warp shuffles until each holds Vec consecutive elements. Step k swaps a lane bit (the one
// whose elements follow the run grown by k steps) with a register bit past the run: one
// shuffle per pair of registers. tlec asks for it (tle.vec wider than the run) only for global
// memory, contiguous and aligned over Vec, with a mask uniform over it.
struct LaneExchange {
  int dim = -1;
  int runBits = 0;
  int steps = 0;
  int lane[kLaneBits] = {};  // step k swaps lane bit lane[k] ...
  int reg[kLaneBits] = {};   // ... with register bit reg[k]
  bool possible = false;
};

TLE_CONSTEXPR LaneExchange plan_lane_exchange(const LinearLayout &L, int vec) {
  LaneExchange x;
  for (int d = 0; d < L.rank && x.dim < 0; ++d)
    if (L.numRegBits > 0 && L.reg[0][d] == 1) x.dim = d;
  if (x.dim < 0) return x;
  while (x.runBits < L.numRegBits && L.reg[x.runBits][x.dim] == (1 << x.runBits) && L.regOnlyAlong(x.runBits, x.dim))
    ++x.runBits;
  x.steps = log2_exact(vec) - x.runBits;
  if (x.steps <= 0 || x.runBits + x.steps > L.numRegBits) return x;
  for (int k = 0; k < x.steps; ++k) {
    x.lane[k] = -1;
    for (int b = 0; b < kLaneBits; ++b)
      if (L.lane[b][x.dim] == (1 << (x.runBits + k)) && L.laneOnlyAlong(b, x.dim)) x.lane[k] = b;
    if (x.lane[k] < 0) return x;
    // Any register bit past the run will do (its elements change lanes, not places in
    // memory); the lowest keep each group of exchanged registers close.
    x.reg[k] = x.runBits + k;
  }
  x.possible = true;
  return x;
}

template <class V, int Vec>
struct lane_exchange {
  static constexpr LaneExchange plan = plan_lane_exchange(V::linear, Vec);
  static constexpr bool possible = plan.possible;
  static constexpr int run = 1 << plan.runBits;
  static constexpr int steps = plan.steps;
  // The register of group `base` that set j of exchanged bits selects.
  TLE_CONSTEXPR static int reg_of(int base, int j) {
    int r = base;
    for (int k = 0; k < plan.steps; ++k)
      if ((j >> k) & 1) r |= 1 << plan.reg[k];
    return r;
  }
};

// One vector store to global memory whose parts were assembled from other lanes, as one
// instruction: with a plain assignment nvcc may split it into 4-byte stores where it cannot
// see the alignment tlec proved. (__stwb is the default write-back policy.)
template <Cache C, class R>
TLE_DEVICE void store_vector(R *p, const R &v) {
  if constexpr (C == Cache::normal && (sizeof(R) == 16 || sizeof(R) == 8)) __stwb(p, v);
  else store_raw<C>(p, v);
}

template <int Vec, Cache C, class P, class L, int... S>
TLE_DEVICE void store_exchanged(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &value, const Tile<bool, L, S...> *mask) {
  using T = pointee_t<P>;
  using V = Tile<T, L, S...>;
  using X = lane_exchange<V, Vec>;
  constexpr int group = 1 << X::steps;
  constexpr int chunkBytes = static_cast<int>(sizeof(T)) * X::run;  // one register run
  constexpr int words = (chunkBytes + 3) / 4;                          // shuffled 32 bits at a time
  using R = typename raw_storage<sizeof(T) * Vec>::type;
  const int lane = lane_id();
  const bool owner = is_owner<V>();  // every lane shuffles; the owners store
  // This lane's bit of each step: which vector of a group of registers it ends up with.
  int selected = 0;
  static_for<X::steps>([&](auto k) { selected |= ((lane >> TLE_CONST(X::plan.lane[decltype(k)::value])) & 1) << decltype(k)::value; });
  static_for<V::kRegs / X::run>([&](auto g) {
    constexpr int base = decltype(g)::value * X::run;
    if constexpr (X::reg_of(0, group - 1) & base) return;  // a member of another group
    else {
      // Scalars only (selects of aggregates would put them in local memory).
      unsigned int c[group][words] = {};
      static_for<group>([&](auto j) { memcpy(c[decltype(j)::value], &value.v[TLE_CONST(X::reg_of(base, decltype(j)::value))], chunkBytes); });
      static_for<X::steps>([&](auto kk) {
        constexpr int k = decltype(kk)::value;
        const bool high = (selected >> k) & 1;
        static_for<group>([&](auto jj) {
          constexpr int j = decltype(jj)::value, partner = j | (1 << k);
          if constexpr (j != partner) {
            static_for<words>([&](auto ww) {
              constexpr int w = decltype(ww)::value;
              const unsigned int received =
                  __shfl_xor_sync(0xffffffffu, high ? c[j][w] : c[partner][w], 1 << TLE_CONST(X::plan.lane[k]));
              c[j][w] = high ? received : c[j][w];
              c[partner][w] = high ? c[partner][w] : received;
            });
          }
        });
      });
      // The vector starts `offset` elements before this lane's own element of register
      // reg_of(base, selected): memory is contiguous over the vector (tlec checked), and the
      // mask is uniform over it.
      P own = ptrs.v[base];
      bool on = !mask || mask->v[base];
      static_for<group>([&](auto j) {
        constexpr int r = TLE_CONST(X::reg_of(base, decltype(j)::value));
        if (decltype(j)::value != 0 && selected == decltype(j)::value) own = ptrs.v[r], on = !mask || mask->v[r];
      });
      const int offset = selected * X::run;  // bit k of `selected` stands for run << k elements
      if (owner && on) {
        R raw;
        static_for<group>([&](auto j) { memcpy(reinterpret_cast<char *>(&raw) + decltype(j)::value * chunkBytes, c[decltype(j)::value], chunkBytes); });
        store_vector<C>(reinterpret_cast<R *>(own - offset), raw);
      }
    }
  });
}

// tl.store(ptrs, value, mask). Of the threads holding copies of an element, one writes it.
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE void store(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &value,
                      const Tile<bool, L, S...> *mask = nullptr) {
  using T = pointee_t<P>;
  using V = Tile<T, L, S...>;
  if constexpr (!consecutive_registers<V, Vec>()) {
    static_assert(lane_exchange<V, Vec>::possible && M == Masking::vector, "tlec bug: vector width does not match the layout");
    store_exchanged<Vec, C>(ptrs, value, mask);
  } else {
    using R = typename raw_storage<sizeof(T) * Vec>::type;
    if (!is_owner<V>()) return;
    TLE_UNROLL for (int g = 0; g < V::kRegs; g += Vec) {
      if constexpr (M == Masking::element && Vec > 1) {
        if (mask && !all_set<Vec>(*mask, g)) {
          TLE_UNROLL for (int i = 0; i < Vec; ++i)
            if (mask->v[g + i]) store_element<C>(ptrs.v[g + i], value.v[g + i]);
          continue;
        }
      } else if (mask && !mask->v[g]) {
        continue;
      }
      R raw;
      memcpy(&raw, &value.v[g], sizeof(R));
      store_raw<C>(reinterpret_cast<R *>(ptrs.v[g]), raw);
    }
  }
}
template <int Vec, Cache C = Cache::normal, Masking M = Masking::vector, class P, class L, int... S>
TLE_DEVICE void store(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &value,
                      const Tile<bool, L, S...> &mask) {
  store<Vec, C, M>(ptrs, value, &mask);
}
template <int Vec, Cache C = Cache::normal, class P>
TLE_DEVICE void store(P ptr, pointee_t<P> value, bool mask = true) {
  if (mask) store_raw<C>(ptr, value);
}

// ---- asynchronous loads (tle.load(is_async=True)) ------------------------------------------
// One cp.async of Bytes (4, 8 or 16) from global to shared memory, or Bytes zeros where
// `valid` is false (nothing is read then). The source size as a register makes this one
// instruction; __pipeline_memcpy_async with a zero-fill size compiles to two predicated
// copies per chunk, and CCCL's cuda::ptx has no wrapper for the non-bulk cp.async. No
// memory clobber: the commit, the wait and the barrier order the copy with the rest.
template <int Bytes>
TLE_DEVICE void copy_async_zero_fill(void *shared, const void *global, bool valid) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  if constexpr (Bytes == 16)  // .cg (L2 only) exists for 16 bytes alone
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(dst), "l"(global), "r"(valid ? 16 : 0));
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;" ::"r"(dst), "l"(global), "n"(Bytes), "r"(valid ? Bytes : 0));
}

// One cp.async of Bytes when `on`, else nothing: a predicate on the instruction, not a branch
// (the addresses of every chunk are then computed once, outside any branch).
template <int Bytes>
TLE_DEVICE void copy_async_if(void *shared, const void *global, bool on) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes");
  const auto dst = static_cast<uint32_t>(__cvta_generic_to_shared(shared));
  if constexpr (Bytes == 16)
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p cp.async.cg.shared.global [%0], [%1], 16; }" ::"r"(dst), "l"(global),
                 "r"(static_cast<int>(on)));
  else
    asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p cp.async.ca.shared.global [%0], [%1], %3; }" ::"r"(dst), "l"(global),
                 "r"(static_cast<int>(on)), "n"(Bytes));
}

// tle.store(dst, tl.load(src, mask, other)) from global into shared memory by cp.async, Vec
// elements a copy, on the tile's owner threads (tle-async-slot-copies): the data never
// passes through registers. Where the mask is off, ZeroFill writes zeros, else nothing. With
// a mask that may differ inside a vector (Masking::element: a tile at a run-time edge, such as
// a tensor descriptor's), a mixed vector is moved element by element with ordinary loads and
// stores, which the same commit publishes. The copies land asynchronously
// (pipe_commit_after_copies publishes them).
template <int Vec, bool ZeroFill, Masking M = Masking::vector, class P, class Q, class L, int... S>
TLE_DEVICE void copy_async_to_shared(const Tile<P, L, S...> &src, const Tile<Q, L, S...> &dst, const Tile<bool, L, S...> *mask) {
  using Src = Tile<P, L, S...>;
  using T = pointee_t<P>;
  constexpr int kBytes = Vec * static_cast<int>(sizeof(T));
  static_assert(consecutive_registers<Src, Vec>(), "tlec bug: vector width does not match the layout");
  if (!is_owner<Src>()) return;
  TLE_UNROLL for (int g = 0; g < Src::kRegs; g += Vec) {
    if constexpr (M == Masking::element && Vec > 1) {
      // Some elements on, some off. (A vector wholly off stays the one predicated copy below:
      // taking it element by element, as store and copy_async_operand do, cost the generic
      // Sparse MLA 3% in one H200 run, 5.9 -> 6.05 ms.)
      if (mask && any_set<Vec>(*mask, g) && !all_set<Vec>(*mask, g)) {
        TLE_UNROLL for (int i = 0; i < Vec; ++i) {
          if (mask->v[g + i]) *dst.v[g + i] = *src.v[g + i];
          else if (ZeroFill) *dst.v[g + i] = T{};
        }
        continue;
      }
    }
    const bool on = !mask || mask->v[g];
    if constexpr (ZeroFill) copy_async_zero_fill<kBytes>(dst.v[g], src.v[g], on);
    else copy_async_if<kBytes>(dst.v[g], src.v[g], on);
  }
}
template <int Vec, bool ZeroFill, Masking M = Masking::vector, class P, class Q, class L, int... S>
TLE_DEVICE void copy_async_to_shared(const Tile<P, L, S...> &src, const Tile<Q, L, S...> &dst, const Tile<bool, L, S...> &mask) {
  copy_async_to_shared<Vec, ZeroFill, M>(src, dst, &mask);
}
template <int Vec, bool ZeroFill, Masking M = Masking::vector, class P, class Q, class L, int... S>
TLE_DEVICE void copy_async_to_shared(const Tile<P, L, S...> &src, const Tile<Q, L, S...> &dst) {
  copy_async_to_shared<Vec, ZeroFill, M>(src, dst, static_cast<const Tile<bool, L, S...> *>(nullptr));
}

// The thread's index among the tile's threads (a partition of a warp-specialized kernel
// starts at a multiple of its size, so the low bits are its own index).
template <class TileT>
TLE_DEVICE int tile_thread() {
  return static_cast<int>(threadIdx.x) & ((32 << TileT::linear.numWarpBits) - 1);
}

// Each thread copies its own elements, Vec at a time, into its own part of a staging region
// (register-major: thread t's register r at t * kRegs + r), so only it reads them back: no
// barrier. Masked-off vectors are zero-filled. One commit group per load.
template <int Vec, class P, class L, int... S, class M>
TLE_DEVICE void async_load(const Tile<P, L, S...> &ptrs, const M *mask, unsigned char *staging) {
  using T = pointee_t<P>;
  using Ptrs = Tile<P, L, S...>;
  T *mine = reinterpret_cast<T *>(staging) + tile_thread<Ptrs>() * Ptrs::kRegs;
  static_for<Ptrs::kRegs / Vec>([&](auto g) {
    constexpr int r = decltype(g)::value * Vec;
    bool valid = true;
    if constexpr (!is_no_mask<M>::value) valid = mask->v[r];
    copy_async_zero_fill<Vec * sizeof(T)>(mine + r, ptrs.v[r], valid);
  });
  __pipeline_commit();
}

// Waits until at most Pending later copy groups of this thread are in flight, then reads the
// tile back; masked-off elements take `other` (zero without one).
template <class Dst, int Pending, class M, class O>
TLE_DEVICE Dst async_load_wait(const unsigned char *staging, const M *mask, const O *other) {
  using T = typename Dst::value_type;
  __pipeline_wait_prior(Pending);
  const T *mine = reinterpret_cast<const T *>(staging) + tile_thread<Dst>() * Dst::kRegs;
  Dst t;
  static_for<Dst::kRegs>([&](auto i) {
    constexpr int r = decltype(i)::value;
    t.v[r] = mine[r];
    if constexpr (!is_no_mask<M>::value && !is_no_mask<O>::value)
      if (!mask->v[r]) t.v[r] = other->v[r];
  });
  return t;
}

}  // namespace tle
