// tle-split-halves-as-tiles: a split of a reshape that cuts one dimension in [2, D/2],
// permuted so that the new axis of size 2 is last, is the two halves along that dimension.
// REQUIRES: mlir
// RUN: tle-opt %s --tle-split-halves-as-tiles | FileCheck %s

// Tutorial 09's EPILOGUE_SUBTILE: the column halves of the accumulator.
// CHECK-LABEL: func.func @columns
// CHECK-NEXT: %[[LO:.*]] = tle.extract_tile %arg0 {offsets = array<i64: 0, 0>} : tensor<128x256xf32> -> tensor<128x128xf32>
// CHECK-NEXT: %[[HI:.*]] = tle.extract_tile %arg0 {offsets = array<i64: 0, 128>} : tensor<128x256xf32> -> tensor<128x128xf32>
// CHECK-NEXT: return %[[LO]], %[[HI]]
func.func @columns(%acc: tensor<128x256xf32>) -> (tensor<128x128xf32>, tensor<128x128xf32>) {
  %r = tle.reshape %acc : tensor<128x256xf32> -> tensor<128x2x128xf32>
  %t = tle.trans %r {order = array<i32: 0, 2, 1>} : tensor<128x2x128xf32> -> tensor<128x128x2xf32>
  %lo, %hi = tle.split %t : tensor<128x128x2xf32> -> tensor<128x128xf32>
  return %lo, %hi : tensor<128x128xf32>, tensor<128x128xf32>
}

// The row halves, and a middle dimension of a 3-D tile.
// CHECK-LABEL: func.func @rows
// CHECK-NEXT: tle.extract_tile %arg0 {offsets = array<i64: 0, 0>} : tensor<64x32xf16> -> tensor<32x32xf16>
// CHECK-NEXT: tle.extract_tile %arg0 {offsets = array<i64: 32, 0>} : tensor<64x32xf16> -> tensor<32x32xf16>
func.func @rows(%x: tensor<64x32xf16>) -> (tensor<32x32xf16>, tensor<32x32xf16>) {
  %r = tle.reshape %x : tensor<64x32xf16> -> tensor<2x32x32xf16>
  %t = tle.trans %r {order = array<i32: 1, 2, 0>} : tensor<2x32x32xf16> -> tensor<32x32x2xf16>
  %lo, %hi = tle.split %t : tensor<32x32x2xf16> -> tensor<32x32xf16>
  return %lo, %hi : tensor<32x32xf16>, tensor<32x32xf16>
}
// CHECK-LABEL: func.func @middle
// CHECK-NEXT: tle.extract_tile %arg0 {offsets = array<i64: 0, 0, 0>} : tensor<4x16x8xf32> -> tensor<4x8x8xf32>
// CHECK-NEXT: tle.extract_tile %arg0 {offsets = array<i64: 0, 8, 0>} : tensor<4x16x8xf32> -> tensor<4x8x8xf32>
func.func @middle(%x: tensor<4x16x8xf32>) -> (tensor<4x8x8xf32>, tensor<4x8x8xf32>) {
  %r = tle.reshape %x : tensor<4x16x8xf32> -> tensor<4x2x8x8xf32>
  %t = tle.trans %r {order = array<i32: 0, 2, 3, 1>} : tensor<4x2x8x8xf32> -> tensor<4x8x8x2xf32>
  %lo, %hi = tle.split %t : tensor<4x8x8x2xf32> -> tensor<4x8x8xf32>
  return %lo, %hi : tensor<4x8x8xf32>, tensor<4x8x8xf32>
}

// The reshape and the permutation stay where something else uses them.
// CHECK-LABEL: func.func @shared_permutation
// CHECK: tle.reshape
// CHECK: %[[T:.*]] = tle.trans
// CHECK: tle.extract_tile
// CHECK: tle.extract_tile
// CHECK-NOT: tle.split
// CHECK: return {{.*}}, %[[T]]
func.func @shared_permutation(%x: tensor<16x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8x2xf32>) {
  %r = tle.reshape %x : tensor<16x16xf32> -> tensor<16x2x8xf32>
  %t = tle.trans %r {order = array<i32: 0, 2, 1>} : tensor<16x2x8xf32> -> tensor<16x8x2xf32>
  %lo, %hi = tle.split %t : tensor<16x8x2xf32> -> tensor<16x8xf32>
  return %lo, %hi, %t : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8x2xf32>
}

// Not halves: even and odd columns (no permutation), a permutation that also swaps other
// dimensions, a reshape that is not a cut of one dimension.
// CHECK-LABEL: func.func @interleaved
// CHECK-NOT: tle.extract_tile
// CHECK: tle.split
func.func @interleaved(%x: tensor<16x16xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %r = tle.reshape %x : tensor<16x16xf32> -> tensor<16x8x2xf32>
  %lo, %hi = tle.split %r : tensor<16x8x2xf32> -> tensor<16x8xf32>
  return %lo, %hi : tensor<16x8xf32>, tensor<16x8xf32>
}
// CHECK-LABEL: func.func @swapped
// CHECK-NOT: tle.extract_tile
// CHECK: tle.split
func.func @swapped(%x: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %r = tle.reshape %x : tensor<16x16xf32> -> tensor<16x2x8xf32>
  %t = tle.trans %r {order = array<i32: 2, 0, 1>} : tensor<16x2x8xf32> -> tensor<8x16x2xf32>
  %lo, %hi = tle.split %t : tensor<8x16x2xf32> -> tensor<8x16xf32>
  return %lo, %hi : tensor<8x16xf32>, tensor<8x16xf32>
}
// CHECK-LABEL: func.func @not_a_cut
// CHECK-NOT: tle.extract_tile
// CHECK: tle.split
func.func @not_a_cut(%x: tensor<8x32xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %r = tle.reshape %x : tensor<8x32xf32> -> tensor<16x2x8xf32>
  %t = tle.trans %r {order = array<i32: 0, 2, 1>} : tensor<16x2x8xf32> -> tensor<16x8x2xf32>
  %lo, %hi = tle.split %t : tensor<16x8x2xf32> -> tensor<16x8xf32>
  return %lo, %hi : tensor<16x8xf32>, tensor<16x8xf32>
}
