// Thread-block clusters (sm_90): a block's rank in its cluster, distributed shared memory
// (tle.remote on shared memory) and cluster and sub-mesh barriers (tle.distributed_barrier).
// Generated code includes this header only for kernels that use clusters.
#pragma once

#include "tle/cuda/tile.cuh"

#include <cuda/atomic>
#include <cuda/ptx>

namespace tle {

// This block's rank in its cluster: the mesh's block_cluster axes, row-major.
TLE_DEVICE int32_t cluster_rank() { return static_cast<int32_t>(cuda::ptx::get_sreg_cluster_ctarank()); }

// Every thread of every block of the cluster arrives (releasing its writes), then waits
// for all of them (acquiring theirs). Also a barrier of the block's own threads.
TLE_DEVICE void cluster_barrier() {
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
  cuda::ptx::barrier_cluster_wait(cuda::ptx::sem_acquire);
}

// The same shared-memory location in block `rank` of the cluster, as a generic pointer
// (loads, stores and atomics through it reach that block's memory).
template <class T>
TLE_DEVICE T *cluster_map(T *p, int32_t rank) {
  return static_cast<T *>(__cluster_map_shared_rank(static_cast<const void *>(p), static_cast<unsigned>(rank)));
}
template <class P, class L, int... S>
TLE_DEVICE Tile<P, L, S...> cluster_map(const Tile<P, L, S...> &p, int32_t rank) {
  Tile<P, L, S...> t;
  TLE_UNROLL for (int r = 0; r < Tile<P, L, S...>::kRegs; ++r) t.v[r] = cluster_map(p.v[r], rank);
  return t;
}

// The arrival count and generation of sub-mesh barrier `Id` in this block's shared memory;
// a group of blocks uses its leader's pair.
template <int Id>
TLE_DEVICE unsigned *submesh_barrier_words() {
  __shared__ unsigned words[2];
  return words;
}

// Before any block counts on them (the kernel's first cluster barrier follows).
template <int Id>
TLE_DEVICE void submesh_barrier_init() {
  if (threadIdx.x == 0) submesh_barrier_words<Id>()[0] = submesh_barrier_words<Id>()[1] = 0;
}

// The blocks of the cluster whose coordinates (Dims: the block_cluster axes, row-major over
// the cluster rank) differ only along the axes in MemberMask synchronize with each other.
// Thread 0 of each arrives at the counter of the group's first block (its leader); the
// last to arrive resets the count and advances the generation, the others wait for the
// generation to change. Block barriers around it make it a barrier of every thread.
template <int Id, unsigned MemberMask, int... Dims>
TLE_DEVICE void submesh_barrier() {
  constexpr int kAxes = sizeof...(Dims);
  constexpr int dims[kAxes] = {Dims...};
  __syncthreads();
  if (threadIdx.x == 0) {
    const int rank = cluster_rank();
    int leader = 0, members = 1, stride = 1;
    for (int a = kAxes - 1; a >= 0; --a) {
      const int coordinate = rank / stride % dims[a];
      if ((MemberMask >> a) & 1u) members *= dims[a];
      else leader += coordinate * stride;
      stride *= dims[a];
    }
    unsigned *words = cluster_map(submesh_barrier_words<Id>(), leader);
    // No cluster scope in cuda::atomic_ref: the device scope covers the cluster. Every
    // access is a read-modify-write, which compute-sanitizer's racecheck knows to be atomic.
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(words[0]), generation(words[1]);
    const unsigned seen = generation.fetch_add(0u, cuda::std::memory_order_acquire);  // cannot advance before we arrive
    if (count.fetch_add(1u, cuda::std::memory_order_acq_rel) == static_cast<unsigned>(members - 1)) {
      count.exchange(0u, cuda::std::memory_order_relaxed);
      generation.fetch_add(1u, cuda::std::memory_order_release);
    } else {
      while (generation.fetch_add(0u, cuda::std::memory_order_acquire) == seen) __nanosleep(32);
    }
  }
  __syncthreads();
}

}  // namespace tle
