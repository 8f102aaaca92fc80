// Atomics with Triton's `sem` and `scope`, on CCCL's cuda::atomic_ref. Apart from the rest
// of the device library because <cuda/atomic> is most of its compile time: generated code
// includes this header only when a kernel uses atomics.
#pragma once

#include "tle/cuda/memory.cuh"

#include <cuda/atomic>

namespace tle {

// ---- atomics ------------------------------------------------------------------------------------

enum class AtomicOp { add, fadd, max, umax, min, umin, band, bor, bxor, xchg };

TLE_CONSTEXPR cuda::std::memory_order order_of(int sem) {
  return sem == 0 ? cuda::std::memory_order_relaxed
         : sem == 1 ? cuda::std::memory_order_acquire
         : sem == 2 ? cuda::std::memory_order_release
                    : cuda::std::memory_order_acq_rel;
}
template <class T>
inline constexpr bool is_float16_v = cuda::std::is_same_v<T, __half> || cuda::std::is_same_v<T, __nv_bfloat16>;

// CCCL's atomic_ref has no fetch_add for 16-bit floats: the hardware's atomicAdd (relaxed,
// device scope, which also serves a block) between fences for the order asked for; a
// compare-and-swap loop on the bits where the scope is the whole system.
template <int Sem, cuda::thread_scope Scope, class T>
TLE_DEVICE T atomic_add_float16(T *p, T v) {
  if constexpr (Sem == 2 || Sem == 3) cuda::atomic_thread_fence(cuda::std::memory_order_release, Scope);
  T old;
  if constexpr (Scope == cuda::thread_scope_system) {
    cuda::atomic_ref<unsigned short, Scope> bits(*reinterpret_cast<unsigned short *>(p));
    unsigned short seen = bits.load(cuda::std::memory_order_relaxed), sum;
    do {
      memcpy(&old, &seen, sizeof old);
      const T next = T(static_cast<float>(old) + static_cast<float>(v));
      memcpy(&sum, &next, sizeof sum);
    } while (!bits.compare_exchange_weak(seen, sum, cuda::std::memory_order_relaxed));
  } else {
    old = atomicAdd(p, v);
  }
  if constexpr (Sem == 1 || Sem == 3) cuda::atomic_thread_fence(cuda::std::memory_order_acquire, Scope);
  return old;
}

// Relaxed atomics by CUDA's own atomic functions (relaxed, with _block and _system forms).
// CCCL's atomic_ref is inline PTX on a generic address, so on the block's shared memory it
// stays a generic atomic (SASS ATOM); nvcc sees through the functions and, where the pointer
// comes from shared memory, issues shared-memory atomics (ATOMS). The TopK selector's
// histograms are such atomics. 32-bit integers and floats; other types take atomic_ref.
template <AtomicOp Op, class T>
inline constexpr bool has_relaxed_function_v =
    cuda::std::is_same_v<T, int> || cuda::std::is_same_v<T, unsigned> ||
    (cuda::std::is_same_v<T, float> && (Op == AtomicOp::add || Op == AtomicOp::fadd || Op == AtomicOp::xchg));

template <AtomicOp Op, cuda::thread_scope Scope, class T>
TLE_DEVICE T relaxed_atomic(T *p, T v) {
  constexpr bool block = Scope == cuda::thread_scope_block, system = Scope == cuda::thread_scope_system;
  if constexpr (Op == AtomicOp::umax || Op == AtomicOp::umin) {
    using U = unsigned_t<T>;
    U *u = reinterpret_cast<U *>(p);
    return static_cast<T>(relaxed_atomic<Op == AtomicOp::umax ? AtomicOp::max : AtomicOp::min, Scope>(u, static_cast<U>(v)));
  } else if constexpr (Op == AtomicOp::add || Op == AtomicOp::fadd) {
    return block ? atomicAdd_block(p, v) : system ? atomicAdd_system(p, v) : atomicAdd(p, v);
  } else if constexpr (Op == AtomicOp::max) {
    return block ? atomicMax_block(p, v) : system ? atomicMax_system(p, v) : atomicMax(p, v);
  } else if constexpr (Op == AtomicOp::min) {
    return block ? atomicMin_block(p, v) : system ? atomicMin_system(p, v) : atomicMin(p, v);
  } else if constexpr (Op == AtomicOp::band) {
    return block ? atomicAnd_block(p, v) : system ? atomicAnd_system(p, v) : atomicAnd(p, v);
  } else if constexpr (Op == AtomicOp::bor) {
    return block ? atomicOr_block(p, v) : system ? atomicOr_system(p, v) : atomicOr(p, v);
  } else if constexpr (Op == AtomicOp::bxor) {
    return block ? atomicXor_block(p, v) : system ? atomicXor_system(p, v) : atomicXor(p, v);
  } else {
    return block ? atomicExch_block(p, v) : system ? atomicExch_system(p, v) : atomicExch(p, v);
  }
}

// Sem: 0 relaxed, 1 acquire, 2 release, 3 acq_rel. Scope: CCCL's thread scopes.
template <AtomicOp Op, int Sem, cuda::thread_scope Scope, class T>
TLE_DEVICE T atomic_apply(T *p, T v) {
  cuda::atomic_ref<T, Scope> ref(*p);
  constexpr cuda::std::memory_order order = order_of(Sem);
  if constexpr ((Op == AtomicOp::add || Op == AtomicOp::fadd) && is_float16_v<T>) return atomic_add_float16<Sem, Scope>(p, v);
  else if constexpr (Sem == 0 && has_relaxed_function_v<Op, T>) return relaxed_atomic<Op, Scope>(p, v);
  else if constexpr (Op == AtomicOp::add || Op == AtomicOp::fadd) return ref.fetch_add(v, order);
  else if constexpr (Op == AtomicOp::max) return ref.fetch_max(v, order);
  else if constexpr (Op == AtomicOp::min) return ref.fetch_min(v, order);
  else if constexpr (Op == AtomicOp::umax) {
    cuda::atomic_ref<unsigned_t<T>, Scope> u(*reinterpret_cast<unsigned_t<T> *>(p));
    return static_cast<T>(u.fetch_max(static_cast<unsigned_t<T>>(v), order));
  } else if constexpr (Op == AtomicOp::umin) {
    cuda::atomic_ref<unsigned_t<T>, Scope> u(*reinterpret_cast<unsigned_t<T> *>(p));
    return static_cast<T>(u.fetch_min(static_cast<unsigned_t<T>>(v), order));
  } else if constexpr (Op == AtomicOp::band) return ref.fetch_and(v, order);
  else if constexpr (Op == AtomicOp::bor) return ref.fetch_or(v, order);
  else if constexpr (Op == AtomicOp::bxor) return ref.fetch_xor(v, order);
  else return ref.exchange(v, order);
}
template <int Sem, cuda::thread_scope Scope, class T>
TLE_DEVICE T atomic_cas_apply(T *p, T expected, T desired) {
  cuda::atomic_ref<T, Scope> ref(*p);
  ref.compare_exchange_strong(expected, desired, order_of(Sem), cuda::std::memory_order_relaxed);
  return expected;  // the value seen, whether or not it was replaced
}

// Tile atomics: one owner thread per element applies it; the returned tile holds the old
// values on the owners.
template <AtomicOp Op, int Sem, cuda::thread_scope Scope, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> atomic_rmw(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &v,
                                                  const Tile<bool, L, S...> *mask = nullptr) {
  using V = Tile<pointee_t<P>, L, S...>;
  V old;
  const bool owner = is_owner<V>();
  TLE_UNROLL for (int r = 0; r < V::kRegs; ++r) {
    old.v[r] = pointee_t<P>();
    if (owner && (!mask || mask->v[r])) old.v[r] = atomic_apply<Op, Sem, Scope>(const_cast<pointee_t<P> *>(ptrs.v[r]), v.v[r]);
  }
  return old;
}
template <AtomicOp Op, int Sem, cuda::thread_scope Scope, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> atomic_rmw(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &v,
                                                  const Tile<bool, L, S...> &mask) {
  return atomic_rmw<Op, Sem, Scope>(ptrs, v, &mask);
}
template <int Sem, cuda::thread_scope Scope, class P, class L, int... S>
TLE_DEVICE Tile<pointee_t<P>, L, S...> atomic_cas(const Tile<P, L, S...> &ptrs, const Tile<pointee_t<P>, L, S...> &cmp,
                                                  const Tile<pointee_t<P>, L, S...> &v) {
  using V = Tile<pointee_t<P>, L, S...>;
  V old;
  const bool owner = is_owner<V>();
  TLE_UNROLL for (int r = 0; r < V::kRegs; ++r) {
    old.v[r] = pointee_t<P>();
    if (owner) old.v[r] = atomic_cas_apply<Sem, Scope>(const_cast<pointee_t<P> *>(ptrs.v[r]), cmp.v[r], v.v[r]);
  }
  return old;
}

// Scalar atomics act once per block: thread 0 applies it and shares the old value through
// shared memory (share_from_thread0, memory.cuh), so that a spin lock
// (`while tl.atomic_cas(lock, 0, 1) == 1`) is taken once by the block, not once per thread.
template <AtomicOp Op, int Sem, cuda::thread_scope Scope, class P>
TLE_DEVICE pointee_t<P> atomic_rmw(P ptr, pointee_t<P> v, Scratch scratch, bool mask = true) {
  pointee_t<P> old = pointee_t<P>();
  if (scratch.group.rank() == 0 && mask) old = atomic_apply<Op, Sem, Scope>(const_cast<pointee_t<P> *>(ptr), v);
  return share_from_thread0(old, scratch);
}
template <int Sem, cuda::thread_scope Scope, class P>
TLE_DEVICE pointee_t<P> atomic_cas(P ptr, pointee_t<P> cmp, pointee_t<P> v, Scratch scratch) {
  pointee_t<P> old = pointee_t<P>();
  if (scratch.group.rank() == 0) old = atomic_cas_apply<Sem, Scope>(const_cast<pointee_t<P> *>(ptr), cmp, v);
  return share_from_thread0(old, scratch);
}

}  // namespace tle
