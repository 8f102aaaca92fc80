"""Loads the kernels that scripts/gpu-build.sh compiled with tlec and calls their C launchers
through ctypes, on PyTorch tensors and PyTorch's current stream."""
import ctypes
import os
import re

import torch

_C_TYPES = {
    "int32_t": ctypes.c_int32, "int64_t": ctypes.c_int64, "int16_t": ctypes.c_int16, "int8_t": ctypes.c_int8,
    "float": ctypes.c_float, "double": ctypes.c_double, "bool": ctypes.c_bool,
}


class TleStatusError(RuntimeError):
    pass


class Kernel:
    def __init__(self, lib, name, param_types):
        self.name = name
        self._launch = getattr(lib, name + "_launch")
        self._launch.restype = ctypes.c_int
        self._launch.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint] + param_types
        self._resources = getattr(lib, name + "_resources")
        self._resources.restype = ctypes.c_int

    def __call__(self, grid, *args):
        grid = tuple(grid) + (1,) * (3 - len(grid))
        converted = [a.data_ptr() if isinstance(a, torch.Tensor) else a for a in args]
        status = self._launch(ctypes.c_void_p(torch.cuda.current_stream().cuda_stream), *grid, *converted)
        if status != 0:
            raise TleStatusError(f"{self.name}_launch returned {status}", status)

    def resources(self, device=0):
        fields = (ctypes.c_int * 8)()
        status = self._resources(device, ctypes.byref(fields))
        if status != 0:
            raise TleStatusError(f"{self.name}_resources returned {status}")
        keys = ["threads", "dynamic_shared", "static_shared", "registers", "blocks_per_sm", "sms", "cluster_size",
                "max_active_clusters"]
        return dict(zip(keys, list(fields)))


def load(build_dir):
    """Returns {symbol: Kernel} for every kernel in BUILD_DIR/libtle_gpu_kernels.so."""
    lib = ctypes.CDLL(os.path.join(build_dir, "libtle_gpu_kernels.so"))
    kernels = {}
    for header in sorted(os.listdir(os.path.join(build_dir, "gen"))):
        if not header.endswith(".h"):
            continue
        text = open(os.path.join(build_dir, "gen", header)).read()
        for name, params in re.findall(r"tleStatus (\w+)_launch\(tleStream stream, unsigned grid_x, "
                                       r"unsigned grid_y, unsigned grid_z(.*?)\);", text):
            types = []
            for p in filter(None, (x.strip() for x in params.split(","))):
                ctype = p.rsplit(" ", 1)[0].replace("const ", "").strip()
                types.append(ctypes.c_void_p if ctype.endswith("*") else _C_TYPES[ctype])
            kernels[name] = Kernel(lib, name, types)
    return kernels
