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
