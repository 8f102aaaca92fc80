// tle.pipe on CUDA: a ring of `Capacity` slots between one writer and its readers, each slot
// guarded by two mbarriers in shared memory. `full[s]` completes a phase when every thread of
// the writer has committed slot s (an arrive releases its stores to the slot); `empty[s]`
// when every thread of every reader has released it. Iteration i uses slot i % Capacity in
// phase (i / Capacity) % 2: the writer waits for `empty` of the phase before (a new barrier
// counts as having completed it), the readers for `full` of this phase. Closing marks the
// slot of the closing iteration (written while the writer holds the slot, so the barriers
// order it like the slot's data); the readers' wait at that iteration sees the mark.
#pragma once

#include "tle/cuda/config.cuh"

#include <cuda/ptx>

namespace tle {

template <int Capacity>
struct PipeState {
  uint64_t full[Capacity];
  uint64_t empty[Capacity];
  int32_t closed[Capacity];
};

// Before the kernel's partitions start: one thread sets the barriers up; the block barrier
// that follows (in the generated code) publishes them.
template <int Capacity>
TLE_DEVICE void pipe_init(PipeState<Capacity> *pipe, int writer_threads, int reader_threads) {
  if (threadIdx.x != 0) return;
  for (int s = 0; s < Capacity; ++s) {
    cuda::ptx::mbarrier_init(&pipe->full[s], static_cast<uint32_t>(writer_threads));
    cuda::ptx::mbarrier_init(&pipe->empty[s], static_cast<uint32_t>(reader_threads));
    pipe->closed[s] = 0;
  }
}

TLE_DEVICE void pipe_wait_phase(uint64_t *barrier, int phase) {
  while (!cuda::ptx::mbarrier_try_wait_parity(barrier, static_cast<uint32_t>(phase))) {
  }
}

template <int Capacity>
TLE_DEVICE void pipe_acquire(PipeState<Capacity> *pipe, int iteration) {
  pipe_wait_phase(&pipe->empty[iteration % Capacity], ((iteration / Capacity) & 1) ^ 1);
}
template <int Capacity>
TLE_DEVICE void pipe_commit(PipeState<Capacity> *pipe, int iteration) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // A reader may hand the slot to wgmma, which reads through the async proxy: the writes
  // before the commit must be visible there too (tle-read-buffer-operands).
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  cuda::ptx::mbarrier_arrive(&pipe->full[iteration % Capacity]);
}
// The commit of a writer that filled the slot by cp.async (copy_async_to_shared) too: this
// thread's arrival is made asynchronously once its copies have landed, so the writer goes on
// at once. The fence orders its ordinary stores to the slot before that arrival.
template <int Capacity>
TLE_DEVICE void pipe_commit_after_copies(PipeState<Capacity> *pipe, int iteration) {
  __threadfence_block();
  cuda::ptx::cp_async_mbarrier_arrive_noinc(&pipe->full[iteration % Capacity]);
}
// Closing takes a slot like a write: the readers' wait at `iteration` finds it closed.
template <int Capacity>
TLE_DEVICE void pipe_close(PipeState<Capacity> *pipe, int iteration, Group writer) {
  pipe_acquire(pipe, iteration);
  if (writer.rank() == 0) pipe->closed[iteration % Capacity] = 1;
  pipe_commit(pipe, iteration);
}
// True when the writer closed the pipe at `iteration` (the slot then holds no data).
template <int Capacity>
TLE_DEVICE bool pipe_wait(PipeState<Capacity> *pipe, int iteration) {
  pipe_wait_phase(&pipe->full[iteration % Capacity], (iteration / Capacity) & 1);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // What the writer copied by cp.async (the generic proxy) is then visible to this thread's
  // wgmma reads of the slot (the async proxy) too.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
  return pipe->closed[iteration % Capacity] != 0;
}
template <int Capacity>
TLE_DEVICE void pipe_release(PipeState<Capacity> *pipe, int iteration) {
  cuda::ptx::mbarrier_arrive(&pipe->empty[iteration % Capacity]);
}

}  // namespace tle
