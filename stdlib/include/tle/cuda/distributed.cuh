// Multi-GPU kernels on NCCL's device API (tle/distributed.h): ranks, peer pointers into the
// symmetric heap, Triton-distributed's signals and the device-wide barrier. The kernel gets
// the context's tleDistDevice by value (its last parameter, `tle_dist`). Generated code
// includes this header only for kernels that use it.
#pragma once

#include "tle/cuda/config.cuh"
#include "tle/cuda/signal.cuh"
#include "tle/cuda/tile.cuh"
#include "tle/distributed_device.h"

#include <cooperative_groups.h>

#include <type_traits>

namespace tle::dist {

TLE_DEVICE int32_t rank(const tleDistDevice &d) { return d.comm.rank; }
TLE_DEVICE int32_t num_ranks(const tleDistDevice &d) { return d.comm.nRanks; }

// How far rank `peer`'s mapping of the heap is from this rank's: NCCL maps every LSA peer's
// heap into one flat range, so the distance is the same for every address in the heap. A
// rank's own pointers stay as they are (no second virtual alias of the same memory).
TLE_DEVICE ptrdiff_t peer_distance(const tleDistDevice &d, int32_t peer) {
  if (peer == d.comm.rank) return 0;
  return static_cast<char *>(ncclGetPeerPointer(d.window, 0, peer)) - d.base;
}

template <class T>
TLE_DEVICE T *moved(T *p, ptrdiff_t bytes) {
  using Byte = std::conditional_t<std::is_const_v<T>, const char, char>;
  return reinterpret_cast<T *>(reinterpret_cast<Byte *>(p) + bytes);
}

// dl.symm_at / tle.remote(scope=mesh): the same symmetric allocation on rank `peer`.
template <class T>
TLE_DEVICE T *peer(const tleDistDevice &d, T *p, int32_t peer) {
  return moved(p, peer_distance(d, peer));
}
template <class P, class L, int... S>
TLE_DEVICE Tile<P, L, S...> peer(const tleDistDevice &d, const Tile<P, L, S...> &p, int32_t peer) {
  const ptrdiff_t bytes = peer_distance(d, peer);
  Tile<P, L, S...> t;
  TLE_UNROLL for (int r = 0; r < Tile<P, L, S...>::kRegs; ++r) t.v[r] = moved(p.v[r], bytes);
  return t;
}

// tle.distributed_barrier over the GPUs of the mesh: every block of this launch arrives
// (a grid barrier; the launch is cooperative), then each block meets the block with the same
// index on every peer through NCCL's LSA barrier, whose peers passed their own grid barrier
// first: after it, everything any block of any rank wrote before the barrier is visible.
TLE_DEVICE void barrier_all(const tleDistDevice &d) {
  cooperative_groups::this_grid().sync();
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  ncclCoopCta cta;
  ncclLsaBarrierSession<ncclCoopCta> barrier(cta, d.comm, ncclTeamTagLsa{}, block);
  barrier.sync(cta, cuda::memory_order_acq_rel);
}

}  // namespace tle::dist
