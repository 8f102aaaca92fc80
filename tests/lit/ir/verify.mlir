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
