// Triton-distributed's signals (dl.notify, dl.wait, dl.consume_token) on flags in global
// memory, through CCCL's cuda::atomic_ref. Signals on another GPU are reached through the
// peer pointers of tle/cuda/distributed.cuh; this header needs no NCCL.
#pragma once

#include "tle/cuda/config.cuh"

#include <cuda/atomic>

namespace tle::dist {

enum class SignalOp { set, add };

// dl.notify: once per block, after every thread of the block is done with what came before
// (the data the signal announces), a fence at the signal's scope, then a relaxed store or
// add (Triton-distributed's membar + st.relaxed / atom.relaxed).
template <cuda::thread_scope Scope, SignalOp Op, class T>
TLE_DEVICE void notify(T *signal, T value) {
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, Scope);
    cuda::atomic_ref<T, Scope> ref(*signal);
    if constexpr (Op == SignalOp::set)
      ref.store(value, cuda::std::memory_order_relaxed);
    else
      ref.fetch_add(value, cuda::std::memory_order_relaxed);
  }
}

// dl.wait: every warp spins until each of the `count` signals from `signals` equals `value`
// (a lane per signal), then the warp reconverges; the returned token orders what follows.
template <cuda::thread_scope Scope, bool Acquire, class T>
TLE_DEVICE int32_t wait(T *signals, int32_t count, T value) {
  constexpr auto order = Acquire ? cuda::std::memory_order_acquire : cuda::std::memory_order_relaxed;
  for (int32_t i = static_cast<int32_t>(threadIdx.x % 32); i < count; i += 32) {
    cuda::atomic_ref<T, Scope> ref(signals[i]);
    while (ref.load(order) != value) {
    }
  }
  __syncwarp();
  return 0;
}

// dl.consume_token: the value itself; the wait's acquire loads already order what follows.
template <class V>
TLE_DEVICE const V &consume(const V &value, int32_t /*token*/) {
  return value;
}

}  // namespace tle::dist
