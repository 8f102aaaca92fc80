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

// Whether the ranks span several nodes: NCCL's NVLink/PCIe team (LSA) is then one node's
// GPUs, and other nodes are reached over the network (GIN, the context's first GIN context).
TLE_DEVICE bool spans_nodes(const tleDistDevice &d) { return d.comm.lsaSize != d.comm.nRanks; }

TLE_DEVICE unsigned linear_block() { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }

// tle.distributed_barrier over GPUs: every block of this launch arrives (a grid barrier; the
// launch is cooperative), then each block meets the block with the same index on every GPU
// of its group, whose blocks passed their own grid barrier first: after it, everything any
// block of the group wrote before the barrier is visible.
//
// barrier_node: the GPUs of this node (NCCL's LSA team; on one node, every GPU).
TLE_DEVICE void barrier_node(const tleDistDevice &d) {
  cooperative_groups::this_grid().sync();
  ncclCoopCta cta;
  ncclLsaBarrierSession<ncclCoopCta> barrier(cta, d.comm, ncclTeamTagLsa{}, linear_block());
  barrier.sync(cta, cuda::memory_order_acq_rel);
}

// barrier_team: the GPUs of this node whose coordinates differ only along some adjacent
// device axes: `ranks` of them, `stride` apart in the node's (row-major) ranks. NCCL's LSA
// barrier over that strided team; every GPU of the node is in one such team.
TLE_DEVICE void barrier_team(const tleDistDevice &d, int ranks, int stride) {
  cooperative_groups::this_grid().sync();
  ncclCoopCta cta;
  const ncclTeam team{ranks, (d.comm.lsaRank / stride) % ranks, stride};
  ncclLsaBarrierSession<ncclCoopCta> barrier(cta, d.comm, team, d.comm.lsaBarrier, linear_block());
  barrier.sync(cta, cuda::memory_order_acq_rel);
}

// barrier_all: every GPU of the mesh; across nodes NCCL composes the LSA barrier with a
// network barrier over the rail (the GPUs with this GPU's place on the other nodes).
TLE_DEVICE void barrier_all(const tleDistDevice &d) {
  if (!spans_nodes(d)) return barrier_node(d);
  cooperative_groups::this_grid().sync();
  ncclCoopCta cta;
  ncclGin gin(d.comm, 0);
  ncclBarrierSession<ncclCoopCta> barrier(cta, ncclTeamTagWorld{}, gin, linear_block());
  barrier.sync(cta, cuda::memory_order_acq_rel, ncclGinFenceLevel::Relaxed);
}

// barrier_rail: one GPU per node, those with this GPU's device coordinates (NCCL's rail
// team, over the network); on one node that is this GPU alone.
TLE_DEVICE void barrier_rail(const tleDistDevice &d) {
  cooperative_groups::this_grid().sync();
  if (!spans_nodes(d)) return;
  ncclCoopCta cta;
  ncclGin gin(d.comm, 0);
  // The network barrier alone (NCCL 2.28's composed session does not compile for the rail).
  ncclGinBarrierSession<ncclCoopCta> barrier(cta, gin, ncclTeamTagRail{}, linear_block());
  barrier.sync(cta, cuda::memory_order_acq_rel, ncclGinFenceLevel::Relaxed);
}

// dl.notify(sig_op="set", comm_scope="inter_node"): a GPU of this node through its peer
// pointer; one on another node by a network write of the value into its heap (GIN putValue),
// after the same fence. The network path has no add on plain memory (sema refuses "add").
template <class T>
TLE_DEVICE void notify_network(const tleDistDevice &d, T *signal, int32_t rank, T value) {
  if (tleDistLsaIndex(d.comm, rank) >= 0) return notify<cuda::thread_scope_system, SignalOp::set>(peer(d, signal, rank), value);
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_system);
    ncclGin gin(d.comm, 0);
    gin.putValue(ncclTeamWorld(d.comm), rank, d.window, static_cast<size_t>(reinterpret_cast<char *>(signal) - d.base), value);
  }
}

}  // namespace tle::dist
