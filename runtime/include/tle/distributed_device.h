// What a distributed kernel receives by value: NCCL's device communicator, the symmetric
// heap's window and where the heap starts on this rank. C++ (NCCL's device API is); used by
// the generated launchers, tle/cuda/distributed.cuh and the runtime's implementation.
#pragma once

#include <nccl.h>
#include <nccl_device.h>

#include "tle/distributed.h"

struct tleDistDevice {
  ncclDevComm comm;
  ncclWindow_t window;  // the heap, registered with NCCL_WIN_COLL_SYMMETRIC
  char *base;           // the heap on this rank, as tleDistMalloc hands it out
  unsigned long long bytes;
  int cudaDevice;       // launches must run on this device
  int barrierBlocks;    // LSA barriers: one per block of a device-wide barrier kernel
};

extern "C" const tleDistDevice *tleDistDeviceOf(const tleDistContext *context);

// World rank `rank`'s index in NCCL's NVLink/PCIe team (LSA: this node's GPUs), or -1 when
// it is on another node. The team is a contiguous range of world ranks around this one.
NCCL_HOST_DEVICE_INLINE int tleDistLsaIndex(const ncclDevComm &comm, int rank) {
  const int index = comm.lsaRank + (rank - comm.rank);
  return index >= 0 && index < comm.lsaSize ? index : -1;
}
