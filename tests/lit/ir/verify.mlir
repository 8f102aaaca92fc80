// The verifiers reject malformed tle ops.
// REQUIRES: mlir
// RUN: tle-opt %s -split-input-file -verify-diagnostics

func.func @range_not_power_of_two() {
  // expected-error @+1 {{range size 100 is not a power of two}}
  %r = tle.make_range {start = 0 : i32, end = 100 : i32} : tensor<100xi32>
  return
}

// -----

func.func @range_size_mismatch() {
  // expected-error @+1 {{result has 64 elements but the range has 128}}
  %r = tle.make_range {start = 0 : i32, end = 128 : i32} : tensor<64xi32>
  return
}

// -----

func.func @bad_broadcast(%t: tensor<4x2xf32>) {
  // expected-error @+1 {{dimension 1 of size 2 cannot broadcast to 8}}
  %b = tle.broadcast %t : tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @addptr_shapes(%p: tensor<4x!tle.ptr<f32>>, %o: tensor<8xi32>) {
  // expected-error @+1 {{pointer and offset shapes differ}}
  %q = tle.addptr %p, %o : tensor<4x!tle.ptr<f32>>, tensor<8xi32>
  return
}

// -----

func.func @load_type(%p: tensor<4x!tle.ptr<f32>>) {
  // expected-error @+1 {{result type must match the pointee type and pointer shape}}
  %v = tle.load %p : tensor<4x!tle.ptr<f32>> -> tensor<4xf16>
  return
}

// -----

func.func @bad_cache(%p: !tle.ptr<f32>, %v: f32) {
  // expected-error @+1 {{unknown cache modifier '.xx'}}
  tle.store %p, %v {cache = ".xx"} : !tle.ptr<f32>, f32
  return
}

// -----

func.func @bad_axis() {
  // expected-error @+1 {{attribute 'axis' failed to satisfy constraint}}
  %p = tle.program_id 3 : i32
  return
}

// -----

func.func @dot_inner(%a: tensor<32x16xf16>, %b: tensor<32x32xf16>, %c: tensor<32x32xf32>) {
  // expected-error @+1 {{inner dimensions differ: 16 and 32}}
  %d = tle.dot %a, %b, %c : tensor<32x16xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
  return
}

// -----

func.func @reduce_result(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{result type must be 'tensor<8xf32>'}}
  %r = tle.reduce(%t) {axis = 1 : i32} : (tensor<8x4xf32>) -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    tle.reduce.return %x : f32
  }
  return
}

// -----

func.func @block_ptr_rank(%base: !tle.ptr<f16>, %m: i64, %off: i32) {
  // expected-error @+1 {{shape, strides, offsets and order must each have 2 entries}}
  %p = tle.make_block_ptr %base, [%m], [%m], [%off] {order = array<i32: 0>} : !tle.ptr<f16> -> !tle.block_ptr<tensor<64x32xf16>>
  return
}

// -----

func.func @reshape_count(%t: tensor<8x4xf32>) {
  // expected-error @+1 {{reshape changes the number of elements from 32 to 16}}
  %r = tle.reshape %t : tensor<8x4xf32> -> tensor<16xf32>
  return
}

// -----

func.func @atomic_kind(%p: !tle.ptr<i32>, %v: i32) {
  // expected-error @+1 {{unknown atomic kind 'nand'}}
  %r = tle.atomic_rmw "nand" %p, %v {scope = "gpu", sem = "acq_rel"} : !tle.ptr<i32>, i32 -> i32
  return
}

// -----

func.func @scan_result_type(%x: tensor<16xf32>) {
  // expected-error @+1 {{each result must have its operand's type}}
  %s = tle.scan(%x) {axis = 0 : i32, reverse = false} : (tensor<16xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    tle.scan.return %c : f32
  }
  return
}

// -----

func.func @split_not_two(%x: tensor<16x4xf32>) {
  // expected-error @+1 {{the operand's minor dimension must have size 2}}
  %l, %r = tle.split %x : tensor<16x4xf32> -> tensor<16xf32>
  return
}

// -----

func.func @join_result(%x: tensor<16xf32>) {
  // expected-error @+1 {{result must be the operand type with a minor dimension of 2}}
  %j = tle.join %x, %x : tensor<16xf32> -> tensor<2x16xf32>
  return
}

// -----

func.func @gather_dims(%x: tensor<4x8xf32>, %i: tensor<2x2xi32>) {
  // expected-error @+1 {{indices dimension 1 must equal the source's}}
  %g = tle.gather %x[%i] {axis = 0 : i32} : tensor<4x8xf32>, tensor<2x2xi32> -> tensor<2x2xf32>
  return
}

// -----

func.func @print_signedness(%x: i32) {
  // expected-error @+1 {{needs one isSigned entry per operand}}
  tle.print "x"(%x : i32) {isSigned = array<i32>}
  return
}

// -----

func.func @desc_offsets(%base: !tle.ptr<f16>, %n: i32, %s: i64) {
  %d = tle.make_tensor_desc %base, [%n, %n], [%s, %s] : !tle.ptr<f16> -> !tle.tensor_desc<tensor<64x64xf16>>
  // expected-error @+1 {{needs one offset per dimension}}
  %v = tle.desc_load %d[%n] : !tle.tensor_desc<tensor<64x64xf16>> -> tensor<64x64xf16>
  return
}

// -----

func.func @desc_pointee(%base: !tle.ptr<f32>, %n: i32, %s: i64) {
  // expected-error @+1 {{the block's element type must be the base pointer's pointee type}}
  %d = tle.make_tensor_desc %base, [%n], [%s] : !tle.ptr<f32> -> !tle.tensor_desc<tensor<64xf16>>
  return
}

// -----

func.func @remote_space(%g: !tle.ptr<f32>, %peer: i32) {
  // expected-error @+1 {{cluster remote access needs a shared-memory buffer or pointers into shared memory (smem)}}
  %r = tle.remote %g, %peer {space = "cluster"} : !tle.ptr<f32> -> !tle.ptr<f32, dsmem>
  return
}

// -----

func.func @barrier_axes() {
  // expected-error @+1 {{axes must be distinct dimensions of the shape}}
  tle.distributed_barrier "submesh" {axes = array<i64: 2>, shape = array<i64: 2, 2>}
  return
}

// -----

func.func @notify_network_add(%p: !tle.ptr<i32>, %r: i32, %v: i32) {
  // expected-error @+1 {{an 'inter_node' signal is set, not added (the network writes values)}}
  tle.notify %p, %r, %v {scope = "inter_node", sigOp = "add"} : !tle.ptr<i32>, i32
  return
}

// -----

func.func @barrier_team_axes() {
  // expected-error @+1 {{a node_group barrier's axes must be adjacent and in order (a strided team)}}
  tle.distributed_barrier "node_group" {axes = array<i64: 0, 2>, shape = array<i64: 2, 2, 2>}
  return
}

// -----

func.func @barrier_kind() {
  // expected-error @+1 {{kind must be 'cluster', 'submesh', 'grid', 'device', 'node', 'rail' or 'node_group'}}
  tle.distributed_barrier "lsa" {axes = array<i64: 1>, shape = array<i64: 2, 4>}
  return
}

// -----

func.func @raw_call_results(%x: tensor<16xf32>) {
  // expected-error @+1 {{results must be the block arguments' types, in order}}
  %r = tle.raw_call "f"(%x) {code = "", language = "cuda", spaces = [""], syncScope = "block", threads = array<i64: 32>} : (tensor<16xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @dsa_matmul_spaces() {
  %a = tle.alloc : !tle.buffer<tensor<16x16xf16>, L1>
  %b = tle.alloc : !tle.buffer<tensor<16x16xf16>, L0B>
  %c = tle.alloc : !tle.buffer<tensor<16x16xf32>, L0C>
  // expected-error @+1 {{operands must be in L0A and L0B and the result in L0C}}
  tle_dsa.matmul %a, %b, %c : !tle.buffer<tensor<16x16xf16>, L1>, !tle.buffer<tensor<16x16xf16>, L0B>, !tle.buffer<tensor<16x16xf32>, L0C>
  return
}

// -----

func.func @dsa_subview_fit(%o: i32) {
  %a = tle.alloc : !tle.buffer<tensor<16x16xf16>, UB>
  // expected-error @+1 {{sizes and strides must fit in the source}}
  %v = tle_dsa.subview %a[%o, %o] {sizes = array<i64: 16, 16>, strides = array<i64: 2, 1>} : !tle.buffer<tensor<16x16xf16>, UB> -> !tle.buffer<tensor<16x16xf16>, UB>
  return
}

// -----

func.func @warp_specialize_counts() {
  // expected-error @+1 {{needs one warp count and one register count per worker region}}
  tle_gpu.warp_specialize default {
    tle_gpu.partition.yield
  } workers {
    tle_gpu.partition.yield
  } {workerNumRegs = array<i32: 40>, workerNumWarps = array<i32: 1, 1>}
  return
}

// -----

func.func @pipe_capacity() {
  %b = tle.alloc : !tle.buffer<tensor<4x16xf32>, smem>
  // expected-error @+1 {{fields must be shared-memory buffers of rank 2 or more whose leading dimension is the capacity}}
  %p = tle.pipe_create(%b) {capacity = 2 : i32, fieldNames = ["a"], readers = [], scope = "cta"} : !tle.buffer<tensor<4x16xf32>, smem>
  return
}

// -----

// Shapes and element types must match; layouts may differ (layout assignment gives a
// result its own), so these verify.
func.func @layouts_may_differ(%x: tensor<16xf32>, %s: tensor<4x8xf32>, %i: tensor<2x8xi32>) {
  %j = tle.join %x, %x : tensor<16xf32> -> tensor<16x2xf32, #tle_gpu.blocked<spt = [1, 2], tpw = [16, 2], wpc = [1, 1], order = [1, 0]>>
  %g = tle.gather %s[%i] {axis = 0 : i32} : tensor<4x8xf32>, tensor<2x8xi32> -> tensor<2x8xf32, #tle_gpu.blocked<spt = [1, 1], tpw = [4, 8], wpc = [1, 1], order = [1, 0]>>
  return
}

// -----

func.func @gather_element(%s: tensor<4x8xf32>, %i: tensor<2x8xi32>) {
  // expected-error @+1 {{result must have the indices' shape and the source's element type}}
  %g = tle.gather %s[%i] {axis = 0 : i32} : tensor<4x8xf32>, tensor<2x8xi32> -> tensor<2x8xf16>
  return
}

// -----

func.func @cumsum_total(%x: tensor<4x8xi32>) {
  // expected-error @+1 {{the total must have type 'tensor<4xi32>'}}
  %e, %t = tle.exclusive_cumsum %x {axis = 1 : i32, reverse = false} : tensor<4x8xi32> -> tensor<4x8xi32>, tensor<8xi32>
  return
}

// -----

func.func @local_load_element() {
  %b = tle.alloc : <tensor<16xf32>, smem>
  // expected-error @+1 {{result must have the buffer's shape and element type}}
  %v = tle_gpu.local_load %b : <tensor<16xf32>, smem> -> tensor<16xf16>
  return
}

// -----

func.func @copy_mask_shape(%p: tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, %m: tensor<64x32xi1, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>) {
  %r = tle_gpu.operand_ring : <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>>
  // expected-error @+1 {{the mask must have the tile's shape}}
  tle_gpu.async_copy %p mask %m into %r {slot = 0 : i32} : tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>>, tensor<64x32xi1, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>
  return
}

// -----

func.func @copy_scalar_mask_not_i1(%p: tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, %m: i32) {
  %r = tle_gpu.operand_ring : <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>>
  // expected-error @+1 {{operand #2 must be ranked tensor of 1-bit signless integer values or 1-bit signless integer, but got 'i32'}}
  tle_gpu.async_copy %p mask %m into %r {slot = 0 : i32} : tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 32>, 16>>>, i32
  return
}

// -----

func.func @copy_too_far_behind(%p: tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>) {
  %r = tle_gpu.operand_ring : <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 1>, 16>>>
  // expected-error @+1 {{slots_behind must be between 0 and the ring's slots - 1}}
  tle_gpu.async_copy %p into %r {slots_behind = 2 : i32} : tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 1>, 16>>>
  return
}

// -----

func.func @dots_wait_changes_type(%c: tensor<64x64xf32, #tle_gpu.mma<4, 1>>) {
  // expected-error @+1 {{results must have the inputs' types}}
  %d = tle_gpu.dots_wait %c : tensor<64x64xf32, #tle_gpu.mma<4, 1>> -> tensor<64x64xf16, #tle_gpu.mma<4, 1>>
  return
}

// -----

func.func @axis_hint_entries(%x: tensor<64x4xi32>) {
  // expected-error @+1 {{divisibility needs 2 entries, one per dimension}}
  %h = tle.axis_hint %x {divisibility = array<i64: 16>} : tensor<64x4xi32>
  return
}

// -----

func.func @axis_hint_positive(%n: i32) {
  // expected-error @+1 {{contiguity entries must be at least 1}}
  %h = tle.axis_hint %n {contiguity = array<i64: 0>} : i32
  return
}

// -----

func.func @copy_strides_not_one_per_dimension(%p: tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, %s: i64) {
  %r = tle_gpu.operand_ring : <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 1>, 16>>>
  // expected-error @+1 {{takes one stride per dimension of the tile, or none}}
  tle_gpu.async_copy %p strides(%s) into %r {slot = 0 : i32} : tensor<64x64x!tle.ptr<f16>, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, <2, tensor<64x64xf16, #tle_gpu.blocked<spt = [1, 8], tpw = [4, 8], wpc = [4, 1], order = [1, 0]>>, tensor<64x64xf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 1>, 16>>>
  return
}

// -----

func.func @ring_view_not_transposed() {
  %r = tle_gpu.operand_ring : <1, tensor<512x32xbf16, #tle_gpu.blocked<spt = [8, 1], tpw = [32, 1], wpc = [2, 4], order = [0, 1]>>, tensor<512x32xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 16>, 16>>>
  // expected-error @+1 {{the view's staged tile must be the ring's or its transpose}}
  %v = tle_gpu.ring_view %r : <1, tensor<512x32xbf16, #tle_gpu.blocked<spt = [8, 1], tpw = [32, 1], wpc = [2, 4], order = [0, 1]>>, tensor<512x32xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 16>, 16>>> -> <1, tensor<32x512xbf16, #tle_gpu.blocked<spt = [8, 1], tpw = [32, 1], wpc = [2, 4], order = [0, 1]>>, tensor<32x512xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 256>, 16>>>
  return
}

// -----

// Read transposed as an A operand, the slot's rows would have to run along the other dimension.
func.func @ring_view_arrangement() {
  %r = tle_gpu.operand_ring : <1, tensor<64x32xbf16, #tle_gpu.blocked<spt = [1, 8], tpw = [8, 4], wpc = [8, 1], order = [1, 0]>>, tensor<64x32xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 16>, 16>>>
  // expected-error @+1 {{the slot's arrangement must serve both operands}}
  %v = tle_gpu.ring_view %r : <1, tensor<64x32xbf16, #tle_gpu.blocked<spt = [1, 8], tpw = [8, 4], wpc = [8, 1], order = [1, 0]>>, tensor<64x32xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 16>, 16>>> -> <1, tensor<32x64xbf16, #tle_gpu.blocked<spt = [8, 1], tpw = [4, 8], wpc = [1, 8], order = [0, 1]>>, tensor<32x64xbf16, #tle_gpu.dot_op<0, #tle_gpu.mma<4, 2, 16>, 16>>>
  return
}

// -----

func.func @ring_view_slots() {
  %r = tle_gpu.operand_ring : <2, tensor<512x32xbf16, #tle_gpu.blocked<spt = [8, 1], tpw = [32, 1], wpc = [2, 4], order = [0, 1]>>, tensor<512x32xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 16>, 16>>>
  // expected-error @+1 {{must keep the ring's slots}}
  %v = tle_gpu.ring_view %r : <2, tensor<512x32xbf16, #tle_gpu.blocked<spt = [8, 1], tpw = [32, 1], wpc = [2, 4], order = [0, 1]>>, tensor<512x32xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 16>, 16>>> -> <1, tensor<32x512xbf16, #tle_gpu.blocked<spt = [1, 8], tpw = [1, 32], wpc = [4, 2], order = [1, 0]>>, tensor<32x512xbf16, #tle_gpu.dot_op<1, #tle_gpu.mma<4, 2, 256>, 16>>>
  return
}

// -----

func.func @addptr_along_shape(%p: tensor<16x32x!tle.ptr<f16>>, %s: i32, %rest: tensor<16x16xi32>) {
  // expected-error @+1 {{needs offsets of the pointers' shape and layout}}
  %a = tle_gpu.addptr_along %p, %s, %rest {dim = 0 : i32, start = 0 : i32} : tensor<16x32x!tle.ptr<f16>>, tensor<16x16xi32>
  return
}

// -----

func.func @addptr_along_dim(%p: tensor<16x32x!tle.ptr<f16>>, %s: i32, %rest: tensor<16x32xi32>) {
  // expected-error @+1 {{has no dimension 2}}
  %a = tle_gpu.addptr_along %p, %s, %rest {dim = 2 : i32, start = 0 : i32} : tensor<16x32x!tle.ptr<f16>>, tensor<16x32xi32>
  return
}

// -----

// expected-error @+1 {{tma_barriers needs at least one slot and one arrival a phase}}
func.func @tma_barriers_without_arrivals(%b: !tle_gpu.tma_barriers<3, 0>) {
  return
}
