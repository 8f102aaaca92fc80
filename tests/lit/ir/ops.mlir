// The tle dialect's ops round-trip through the printer and parser.
// REQUIRES: mlir
// RUN: tle-opt %s | tle-opt | FileCheck %s

// CHECK-LABEL: func.func @vector_add
// CHECK-SAME: !tle.ptr<f16, smem>
func.func @vector_add(%x: !tle.ptr<f32>, %y: !tle.ptr<f32>, %out: !tle.ptr<f32>, %n: i32, %smem: !tle.ptr<f16, smem>) {
  // CHECK: %[[PID:.*]] = tle.program_id 0 : i32
  %pid = tle.program_id 0 : i32
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  // CHECK: tle.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32>
  %range = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  // CHECK: tle.splat %{{.*}} : i32 -> tensor<128xi32>
  %starts = tle.splat %start : i32 -> tensor<128xi32>
  %offs = arith.addi %starts, %range : tensor<128xi32>
  %ns = tle.splat %n : i32 -> tensor<128xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
  %xs = tle.splat %x : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
  // CHECK: tle.addptr %{{.*}}, %{{.*}} : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
  %xp = tle.addptr %xs, %offs : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
  // CHECK: tle.load %{{.*}} mask %{{.*}} : tensor<128x!tle.ptr<f32>>, tensor<128xi1> -> tensor<128xf32>
  %xv = tle.load %xp mask %mask : tensor<128x!tle.ptr<f32>>, tensor<128xi1> -> tensor<128xf32>
  %zero = arith.constant dense<0.0> : tensor<128xf32>
  // CHECK: tle.load %{{.*}} mask %{{.*}} other %{{.*}} {cache = ".cg"}
  %xw = tle.load %xp mask %mask other %zero {cache = ".cg"} : tensor<128x!tle.ptr<f32>>, tensor<128xi1>, tensor<128xf32> -> tensor<128xf32>
  %sum = arith.addf %xv, %xw : tensor<128xf32>
  %os = tle.splat %out : !tle.ptr<f32> -> tensor<128x!tle.ptr<f32>>
  %op = tle.addptr %os, %offs : tensor<128x!tle.ptr<f32>>, tensor<128xi32>
  // CHECK: tle.store %{{.*}}, %{{.*}} mask %{{.*}} : tensor<128x!tle.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  tle.store %op, %sum mask %mask : tensor<128x!tle.ptr<f32>>, tensor<128xf32>, tensor<128xi1>
  %col = tle.expand_dims %range {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  // CHECK: tle.broadcast %{{.*}} : tensor<128x1xi32> -> tensor<128x64xi32>
  %b = tle.broadcast %col : tensor<128x1xi32> -> tensor<128x64xi32>
  return
}

// CHECK-LABEL: func.func @block_pointers
func.func @block_pointers(%base: !tle.ptr<f16>, %m: i64, %n: i64, %s: i64, %one: i64, %off: i32) {
  // CHECK: tle.make_block_ptr %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] {order = array<i32: 1, 0>} : <f16> -> <tensor<64x32xf16>>
  %p = tle.make_block_ptr %base, [%m, %n], [%s, %one], [%off, %off] {order = array<i32: 1, 0>} : !tle.ptr<f16> -> !tle.block_ptr<tensor<64x32xf16>>
  %q = tle.advance %p, [%off, %off] : !tle.block_ptr<tensor<64x32xf16>>
  // CHECK: tle.load_block %{{.*}} {boundaryCheck = array<i32: 0, 1>, padding = "zero"}
  %v = tle.load_block %q {boundaryCheck = array<i32: 0, 1>, padding = "zero"} : !tle.block_ptr<tensor<64x32xf16>> -> tensor<64x32xf16>
  tle.store_block %q, %v {boundaryCheck = array<i32: 0>} : !tle.block_ptr<tensor<64x32xf16>>, tensor<64x32xf16>
  // CHECK: tle.dot
  %a = arith.constant dense<1.0> : tensor<32x64xf16>
  %c = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = tle.dot %v, %a, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  // CHECK: tle.reduce
  %r = tle.reduce(%d) {axis = 1 : i32} : (tensor<64x64xf32>) -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %s2 = arith.addf %x, %y : f32
    tle.reduce.return %s2 : f32
  }
  // CHECK: tle.trans
  %t = tle.trans %d {order = array<i32: 1, 0>} : tensor<64x64xf32> -> tensor<64x64xf32>
  return
}

// CHECK-LABEL: func.func @scans_shapes_debugging
func.func @scans_shapes_debugging(%x: tensor<16xf32>, %i: tensor<16xi32>) {
  // CHECK: tle.scan(%{{.*}}) {axis = 0 : i32, reverse = true} : (tensor<16xf32>) -> tensor<16xf32>
  %s = tle.scan(%x) {axis = 0 : i32, reverse = true} : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tle.scan.return %c : f32
  }
  // CHECK: tle.join %{{.*}}, %{{.*}} : tensor<16xf32> -> tensor<16x2xf32>
  %j = tle.join %x, %s : tensor<16xf32> -> tensor<16x2xf32>
  // CHECK: tle.split %{{.*}} : tensor<16x2xf32> -> tensor<16xf32>
  %l, %r = tle.split %j : tensor<16x2xf32> -> tensor<16xf32>
  // CHECK: tle.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>
  %g = tle.gather %l[%i] {axis = 0 : i32} : tensor<16xf32>, tensor<16xi32> -> tensor<16xf32>
  // CHECK: tle.print " x"(%{{.*}}, %{{.*}} : tensor<16xf32>, tensor<16xi32>) {hex, isSigned = array<i32: 0, 1>}
  tle.print " x"(%g, %i : tensor<16xf32>, tensor<16xi32>) {hex, isSigned = array<i32: 0, 1>}
  // CHECK: tle.print "empty" {isSigned = array<i32>}
  tle.print "empty" {isSigned = array<i32>}
  %z = arith.constant dense<true> : tensor<16xi1>
  // CHECK: tle.assert %{{.*}}, "ok" : tensor<16xi1>
  tle.assert %z, "ok" : tensor<16xi1>
  return
}

// CHECK-LABEL: func.func @descriptors
func.func @descriptors(%base: !tle.ptr<f16>, %n: i32, %s: i64, %o: i32) {
  // CHECK: tle.make_tensor_desc %{{.*}}, [%{{.*}}, %{{.*}}], [%{{.*}}, %{{.*}}] : <f16> -> <tensor<64x64xf16>>
  %d = tle.make_tensor_desc %base, [%n, %n], [%s, %s] : !tle.ptr<f16> -> !tle.tensor_desc<tensor<64x64xf16>>
  // CHECK: tle.desc_load %{{.*}}[%{{.*}}, %{{.*}}] : <tensor<64x64xf16>> -> tensor<64x64xf16>
  %v = tle.desc_load %d[%o, %o] : !tle.tensor_desc<tensor<64x64xf16>> -> tensor<64x64xf16>
  // CHECK: tle.desc_store %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} : <tensor<64x64xf16>>, tensor<64x64xf16>
  tle.desc_store %d[%o, %o], %v : !tle.tensor_desc<tensor<64x64xf16>>, tensor<64x64xf16>
  return
}

// CHECK-LABEL: func.func @distributed
func.func @distributed(%g: !tle.ptr<f32>, %s: tensor<16x!tle.ptr<f32, smem>>, %peer: i32) {
  // CHECK: tle.remote %{{.*}}, %{{.*}} {space = "device"} : !tle.ptr<f32> -> !tle.ptr<f32>
  %r = tle.remote %g, %peer {space = "device"} : !tle.ptr<f32> -> !tle.ptr<f32>
  // CHECK: tle.remote %{{.*}}, %{{.*}} {space = "cluster"} : tensor<16x!tle.ptr<f32, smem>> -> tensor<16x!tle.ptr<f32, dsmem>>
  %q = tle.remote %s, %peer {space = "cluster"} : tensor<16x!tle.ptr<f32, smem>> -> tensor<16x!tle.ptr<f32, dsmem>>
  %b = tle.alloc : !tle.buffer<tensor<16xf32>, smem>
  // CHECK: tle.remote %{{.*}}, %{{.*}} {space = "cluster"} : !tle.buffer<tensor<16xf32>, smem> -> !tle.buffer<tensor<16xf32>, dsmem>
  %rb = tle.remote %b, %peer {space = "cluster"} : !tle.buffer<tensor<16xf32>, smem> -> !tle.buffer<tensor<16xf32>, dsmem>
  // CHECK: tle_gpu.local_ptr %{{.*}} : <tensor<16xf32>, dsmem> -> tensor<16x!tle.ptr<f32, dsmem>>
  %p = tle_gpu.local_ptr %rb : !tle.buffer<tensor<16xf32>, dsmem> -> tensor<16x!tle.ptr<f32, dsmem>>
  // CHECK: tle.distributed_barrier "submesh" {axes = array<i64: 1>, shape = array<i64: 2, 2>}
  tle.distributed_barrier "submesh" {axes = array<i64: 1>, shape = array<i64: 2, 2>}
  // CHECK: tle.distributed_barrier "node" {axes = array<i64: 1>, shape = array<i64: 2, 4>}
  tle.distributed_barrier "node" {axes = array<i64: 1>, shape = array<i64: 2, 4>}
  // CHECK: tle.distributed_barrier "rail" {axes = array<i64: 0>, shape = array<i64: 2, 4>}
  tle.distributed_barrier "rail" {axes = array<i64: 0>, shape = array<i64: 2, 4>}
  return
}

// CHECK-LABEL: func.func @warp_specialize
func.func @warp_specialize(%x: f32) -> f32 {
  // CHECK: tle_gpu.warp_specialize -> f32 default {
  // CHECK: tle_gpu.partition.yield %{{.*}} : f32
  // CHECK: } workers {
  // CHECK: tle_gpu.partition.yield
  // CHECK: }, {
  // CHECK: } {workerNumRegs = array<i32: 40, 24>, workerNumWarps = array<i32: 1, 2>}
  %r = tle_gpu.warp_specialize -> f32 default {
    tle_gpu.partition.yield %x : f32
  } workers {
    tle_gpu.partition.yield
  }, {
    tle_gpu.partition.yield
  } {workerNumRegs = array<i32: 40, 24>, workerNumWarps = array<i32: 1, 2>}
  return %r : f32
}

// CHECK-LABEL: func.func @pipes
func.func @pipes(%i: i32) {
  %b = tle.alloc : !tle.buffer<tensor<2x16xf32>, smem>
  // CHECK: %[[P:.*]] = tle.pipe_create(%{{.*}}) {capacity = 2 : i32, fieldNames = ["a"], oneShot, readers = [], scope = "cta"} : !tle.buffer<tensor<2x16xf32>, smem>
  %p = tle.pipe_create(%b) {capacity = 2 : i32, fieldNames = ["a"], readers = [], scope = "cta", oneShot} : !tle.buffer<tensor<2x16xf32>, smem>
  // CHECK: tle.pipe_acquire %[[P]], %{{.*}} {reader = ""}
  tle.pipe_acquire %p, %i {reader = ""}
  // CHECK: tle.buffer_slot %{{.*}}[%{{.*}}] : <tensor<2x16xf32>, smem> -> <tensor<16xf32>, smem>
  %s = tle.buffer_slot %b[%i] : !tle.buffer<tensor<2x16xf32>, smem> -> !tle.buffer<tensor<16xf32>, smem>
  tle.pipe_commit %p, %i {reader = ""}
  // CHECK: tle.pipe_wait %[[P]], %{{.*}} {reader = ""}
  %c = tle.pipe_wait %p, %i {reader = ""}
  tle.pipe_release %p, %i {reader = ""}
  return
}

// A layout with warpgroups along N prints its groupN (the default 0 is left out), and an
// operand copy takes a scalar mask (the whole tile or none of it).
// CHECK-LABEL: func.func @grouped_mma_and_scalar_mask
// CHECK-SAME: %{{.*}}: tensor<64x64xf32, #tle_gpu.mma<4, 1>>)
// CHECK: tle_gpu.async_copy %{{.*}} mask %{{.*}} into %{{.*}} {slot = 0 : i32} : {{.*}}#tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>>, i1
// CHECK: -> tensor<64x64xf32, #tle_gpu.mma<4, 2, 32>>
func.func @grouped_mma_and_scalar_mask(%p: tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [8, 1], order = [1, 0]>>, %valid: i1,
                                       %a: tensor<64x64xf16, #tle_gpu.dot_op<0, #tle_gpu.mma<4, 2, 32>, 16>>, %b: tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>,
                                       %c: tensor<64x64xf32, #tle_gpu.mma<4, 2, 32>>, %c1: tensor<64x64xf32, #tle_gpu.mma<4, 1, 0>>) {
  %r = tle_gpu.operand_ring : <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [8, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>>
  tle_gpu.async_copy %p mask %valid into %r {slot = 0 : i32} : tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [8, 1], order = [1, 0]>>, <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [8, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>>, i1
  %d = tle.dot %a, %b, %c : tensor<64x64xf16, #tle_gpu.dot_op<0, #tle_gpu.mma<4, 2, 32>, 16>> * tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>> -> tensor<64x64xf32, #tle_gpu.mma<4, 2, 32>>
  return
}

// CHECK-LABEL: func.func @addptr_along
// CHECK: tle_gpu.addptr_along %arg0, %arg1, %arg2 {dim = 0 : i32, start = 4 : i32} : tensor<32x128x!tle.ptr<f16>>, tensor<32x128xi32>
func.func @addptr_along(%p: tensor<32x128x!tle.ptr<f16>>, %stride: i32, %rest: tensor<32x128xi32>) -> tensor<32x128x!tle.ptr<f16>> {
  %a = tle_gpu.addptr_along %p, %stride, %rest {dim = 0 : i32, start = 4 : i32} : tensor<32x128x!tle.ptr<f16>>, tensor<32x128xi32>
  return %a : tensor<32x128x!tle.ptr<f16>>
}
