// Block shapes: tl.trans / permute, reshape / view, broadcast_to, expand_dims (also as
// block methods, x.T), and TLE-Lite's tiles, tle.extract_tile / tle.insert_tile.
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

namespace tle::sema {

std::vector<int64_t> blockShapeArg(LoweringContext &cx, const Value &v, SourceRange at) {
  std::vector<int64_t> shape;
  auto dim = [&](const Value &d) {
    int64_t n = cx.requireInt(d, at, "a shape dimension");
    if (n <= 0 || (n & (n - 1)) != 0)
      cx.fail(at, DiagId::ShapeMismatch, "block dimensions must be powers of two, got " + std::to_string(n));
    shape.push_back(n);
  };
  if (v.kind == Value::Kind::Tuple) {
    for (const Value &d : v.elements) dim(d);
  } else {
    dim(v);
  }
  return shape;
}

std::vector<mlir::Value> integers(LoweringContext &cx, const Value &list, SourceRange r, DType d, const char *what) {
  if (list.kind != Value::Kind::Tuple) cx.fail(r, DiagId::TypeMismatch, std::string(what) + " must be a list or tuple, got " + describeWithArticle(list));
  std::vector<mlir::Value> out;
  TType like;
  like.dtype = d;
  for (const Value &v : list.elements) {
    Value x = v.isRuntime() ? v : cx.toRuntime(v, r, &like);
    if (x.type.isBlock() || x.type.isPointer || x.type.isBlockPtr || x.type.isBuffer || x.type.isTensorDesc || !isInt(x.type.dtype))
      cx.fail(r, DiagId::TypeMismatch, std::string(what) + " must be integer scalars, got " + describeWithArticle(v));
    out.push_back(x.type.dtype == d ? x.ir : cx.cast(x, d, r).ir);
  }
  return out;
}

std::vector<int64_t> shapeArgAny(LoweringContext &cx, const Value &v, SourceRange at) {
  std::vector<int64_t> shape;
  std::vector<Value> dims = v.kind == Value::Kind::Tuple ? v.elements : std::vector<Value>{v};
  for (const Value &d : dims) shape.push_back(cx.requireInt(d, at, "a shape dimension"));
  return shape;
}

namespace {

// The arguments after the block: positional, or one `keyword`, or a single tuple of them.
std::vector<Value> dimsArgs(LoweringContext &cx, BuiltinCall &c, const char *keyword, const char *ignored) {
  std::vector<Value> rest(c.args.positional.begin() + (c.args.positional.empty() ? 0 : 1), c.args.positional.end());
  for (auto &[k, v] : c.args.keywords)
    if (k == keyword) rest.push_back(v);
    else if (!ignored || k != ignored) cx.fail(c.at, DiagId::ArgumentMismatch, "tl." + c.member + " has no parameter '" + k + "'");
  if (rest.size() == 1 && rest[0].kind == Value::Kind::Tuple) rest = rest[0].elements;
  return rest;
}

// tl.trans(x, *dims) / tl.permute(x, dims); trans without dims swaps a 2-D block.
Value transpose(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  Value x = c.args.positional.empty() ? Value::none() : c.args.positional[0];
  if (!x.isRuntime() || !x.type.isBlock()) cx.fail(at, DiagId::TypeMismatch, "tl." + c.member + " needs a block");
  std::vector<int64_t> dims;
  for (const Value &d : dimsArgs(cx, c, "dims", nullptr)) dims.push_back(cx.requireInt(d, at, "a dimension"));
  int64_t rank = static_cast<int64_t>(x.type.shape.size());
  if (dims.empty()) {
    if (rank != 2 && c.member == "trans") cx.fail(at, DiagId::ShapeMismatch, "tl.trans without dims needs a 2-D block, got " + withArticle(x.type.str()));
    for (int64_t i = rank - 1; i >= 0; --i) dims.push_back(i);
  }
  if (static_cast<int64_t>(dims.size()) != rank) cx.fail(at, DiagId::ShapeMismatch, "dims must list every dimension of the " + x.type.str());
  std::vector<int64_t> shape;
  std::vector<int32_t> order;
  std::vector<bool> seen(static_cast<size_t>(rank), false);
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || seen[static_cast<size_t>(d)]) cx.fail(at, DiagId::ShapeMismatch, "dims must be a permutation of 0.." + std::to_string(rank - 1));
    seen[static_cast<size_t>(d)] = true;
    shape.push_back(x.type.shape[static_cast<size_t>(d)]);
    order.push_back(static_cast<int32_t>(d));
  }
  TType t = x.type.withShape(shape);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::TransOp>(cx.loc(at), cx.irType(t), x.ir, b.getDenseI32ArrayAttr(order));
  return Value::ofRuntime(op.getResult(), t);
}

// tl.reshape(x, *shape, can_reorder=False) / tl.view.
Value reshape(LoweringContext &cx, BuiltinCall &c) {
  Value x = c.args.positional.empty() ? Value::none() : c.args.positional[0];
  std::vector<int64_t> shape;
  for (const Value &d : dimsArgs(cx, c, "shape", "can_reorder")) shape.push_back(cx.requireInt(d, c.at, "a shape dimension"));
  return cx.reshape(x, shape, c.at);
}

Value broadcastTo(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  auto a = bindArgs(cx, "tl.broadcast_to", {{"input", true}, {"shape", true}}, c.args, at);
  std::vector<int64_t> shape;
  if (a[1]->kind == Value::Kind::Tuple)
    for (const Value &d : a[1]->elements) shape.push_back(cx.requireInt(d, at, "a shape dimension"));
  Value in = cx.toRuntime(*a[0], at);
  // As in Triton: a block keeps its rank (a scalar may become any block).
  if (in.type.isBlock() && in.type.shape.size() != shape.size())
    cx.fail(at, DiagId::ShapeMismatch, "tl.broadcast_to keeps the rank: " + withArticle(in.type.str()) + " cannot become " +
                                           std::to_string(shape.size()) + "-D (add dimensions with x[None, :] or tl.expand_dims first)");
  std::vector<int64_t> padded(shape.size() - std::min(shape.size(), in.type.shape.size()), 1);
  padded.insert(padded.end(), in.type.shape.begin(), in.type.shape.end());
  for (size_t i = 0; i < shape.size() && padded.size() == shape.size(); ++i)
    if (padded[i] != shape[i] && padded[i] != 1)
      cx.fail(at, DiagId::ShapeMismatch, "cannot broadcast " + withArticle(in.type.str()) + " to the requested shape");
  if (in.type.shape.size() > shape.size()) cx.fail(at, DiagId::ShapeMismatch, "cannot broadcast " + withArticle(in.type.str()) + " to fewer dimensions");
  return cx.broadcastTo(in, shape, at);
}

Value expandDims(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  auto a = bindArgs(cx, "tl.expand_dims", {{"input", true}, {"axis", true}}, c.args, at);
  Value in = cx.toRuntime(*a[0], at);
  int64_t axis = cx.requireInt(*a[1], at, "the axis");
  int64_t rank = static_cast<int64_t>(in.type.shape.size());
  if (axis < 0) axis += rank + 1;
  if (axis < 0 || axis > rank) cx.fail(at, DiagId::ShapeMismatch, "axis out of range for " + withArticle(in.type.str()));
  std::vector<int64_t> shape = in.type.shape;
  shape.insert(shape.begin() + axis, 1);
  if (!in.type.isBlock()) return cx.broadcastTo(in, shape, at);
  TType t = in.type.withShape(shape);
  mlir::OpBuilder &b = cx.builder();
  auto op = b.create<tle::ir::ExpandDimsOp>(cx.loc(at), cx.irType(t), in.ir, b.getI32IntegerAttr(static_cast<int32_t>(axis)));
  return Value::ofRuntime(op.getResult(), t);
}

// The grid coordinates of the tile `index` picks, by coordinates or as a row-major number.
std::vector<int64_t> tileCoordinates(LoweringContext &cx, const Value &index, SourceRange indexRange, const std::vector<int64_t> &grid) {
  size_t rank = grid.size();
  std::vector<int64_t> coords;
  if (index.kind == Value::Kind::Tuple) {
    if (index.elements.size() != rank)
      cx.fail(indexRange, DiagId::ShapeMismatch, "the index has " + std::to_string(index.elements.size()) + " entries but the source has rank " +
                                                     std::to_string(rank));
    for (size_t i = 0; i < rank; ++i) {
      if (index.elements[i].isRuntime())
        cx.fail(indexRange, DiagId::NotImplemented, "runtime tile indices are not implemented yet; the index must be compile-time");
      int64_t c = cx.requireInt(index.elements[i], indexRange, "a tile index");
      if (c < 0 || c >= grid[i])
        cx.fail(indexRange, DiagId::TileIndexOutOfBounds, "index[" + std::to_string(i) + "]=" + std::to_string(c) +
                                                              " is out of bounds for the tile grid (0.." + std::to_string(grid[i] - 1) + ")");
      coords.push_back(c);
    }
    return coords;
  }
  if (index.isRuntime())
    cx.fail(indexRange, DiagId::NotImplemented, "runtime tile indices are not implemented yet; the index must be compile-time");
  int64_t linear = cx.requireInt(index, indexRange, "a tile index");
  int64_t total = 1;
  for (int64_t g : grid) total *= g;
  if (linear < 0 || linear >= total)
    cx.fail(indexRange, DiagId::TileIndexOutOfBounds, "tile index " + std::to_string(linear) + " is out of range [0, " +
                                                          std::to_string(total) + ")");
  coords.assign(rank, 0);
  for (size_t i = rank; i-- > 0;) {
    coords[i] = linear % grid[i];
    linear /= grid[i];
  }
  return coords;
}

// The element offsets of the tile a runtime `index` picks (coordinates, some known only at
// run time, or a row-major tile number), as i32 values. Coordinates are taken modulo the
// grid (Python's modulo), so that no index reaches outside the source.
std::vector<mlir::Value> runtimeTileOffsets(LoweringContext &cx, const Value &index, SourceRange at, const std::vector<int64_t> &grid,
                                            const std::vector<int64_t> &tileShape) {
  size_t rank = grid.size();
  std::vector<Value> coords(rank);
  if (index.kind == Value::Kind::Tuple) {
    if (index.elements.size() != rank)
      cx.fail(at, DiagId::ShapeMismatch, "the index has " + std::to_string(index.elements.size()) + " entries but the source has rank " +
                                             std::to_string(rank));
    for (size_t i = 0; i < rank; ++i) {
      const Value &e = index.elements[i];
      if (!e.isRuntime()) {
        int64_t c = cx.requireInt(e, at, "a tile index");
        if (c < 0 || c >= grid[i])
          cx.fail(at, DiagId::TileIndexOutOfBounds, "index[" + std::to_string(i) + "]=" + std::to_string(c) +
                                                        " is out of bounds for the tile grid (0.." + std::to_string(grid[i] - 1) + ")");
      }
      coords[i] = cx.binary(ast::BinaryOp::Mod, cx.integerScalarI32(e, at, "a tile index"), Value::ofInt(grid[i]), at, at, at);
    }
  } else {
    Value linear = cx.integerScalarI32(index, at, "a tile index");
    for (size_t i = rank; i-- > 0;) {
      coords[i] = cx.binary(ast::BinaryOp::Mod, linear, Value::ofInt(grid[i]), at, at, at);
      if (i > 0) linear = cx.binary(ast::BinaryOp::FloorDiv, linear, Value::ofInt(grid[i]), at, at, at);
    }
  }
  std::vector<mlir::Value> offsets;
  for (size_t i = 0; i < rank; ++i) offsets.push_back(cx.binary(ast::BinaryOp::Mul, coords[i], Value::ofInt(tileShape[i]), at, at, at).ir);
  return offsets;
}

// tle.extract_tile(x, index, shape) / tle.insert_tile(x, tile, index): the source is cut
// into a grid of tiles; `index` picks one.
Value extractOrInsertTile(LoweringContext &cx, BuiltinCall &c) {
  bool extract = c.name == "tle.extract_tile";
  std::vector<SourceRange> where;
  const char *fn = extract ? "tle.extract_tile" : "tle.insert_tile";
  auto a = extract ? bindArgs(cx, fn, {{"x", true}, {"index", true}, {"shape", true}}, c.args, c.at, &where)
                   : bindArgs(cx, fn, {{"x", true}, {"tile", true}, {"index", true}}, c.args, c.at, &where);
  Value x = *a[0];
  if (!x.isRuntime() || !x.type.isBlock() || x.type.isPointer)
    cx.fail(where[0], DiagId::TypeMismatch, std::string(fn) + " needs a block, got " + (x.isRuntime() ? x.type.str() : x.describe()));
  std::vector<int64_t> tileShape;
  Value tile;
  if (extract) {
    tileShape = blockShapeArg(cx, *a[2], where[2]);
  } else {
    tile = *a[1];
    if (!tile.isRuntime() || !tile.type.isBlock())
      cx.fail(where[1], DiagId::TypeMismatch, "tle.insert_tile's tile must be a block, got " + (tile.isRuntime() ? tile.type.str() : tile.describe()));
    if (tile.type.dtype != x.type.dtype)
      cx.fail(where[1], DiagId::TypeMismatch, std::string("element type mismatch: source is ") + dtypeName(x.type.dtype) +
                                                  ", tile is " + dtypeName(tile.type.dtype));
    tileShape = tile.type.shape;
  }
  size_t rank = x.type.shape.size();
  SourceRange shapeRange = extract ? where[2] : where[1];
  if (tileShape.size() != rank)
    cx.fail(shapeRange, DiagId::ShapeMismatch, "the tile rank (" + std::to_string(tileShape.size()) + ") must match the source rank (" +
                                                   std::to_string(rank) + ")");
  std::vector<int64_t> grid;
  for (size_t i = 0; i < rank; ++i) {
    if (x.type.shape[i] % tileShape[i] != 0)
      cx.fail(shapeRange, DiagId::ShapeMismatch, "source dimension " + std::to_string(i) + " (" + std::to_string(x.type.shape[i]) +
                                                     ") is not divisible by the tile dimension (" + std::to_string(tileShape[i]) + ")");
    grid.push_back(x.type.shape[i] / tileShape[i]);
  }
  const Value &index = *a[extract ? 1 : 2];
  SourceRange indexRange = where[extract ? 1 : 2];
  bool runtimeIndex = index.isRuntime() || (index.kind == Value::Kind::Tuple &&
                                            std::any_of(index.elements.begin(), index.elements.end(), [](const Value &e) { return e.isRuntime(); }));
  std::vector<int64_t> offsets(rank, 0);
  std::vector<mlir::Value> dynamicOffsets;
  if (runtimeIndex) {
    dynamicOffsets = runtimeTileOffsets(cx, index, indexRange, grid, tileShape);
  } else {
    std::vector<int64_t> coords = tileCoordinates(cx, index, indexRange, grid);
    for (size_t i = 0; i < rank; ++i) offsets[i] = coords[i] * tileShape[i];
  }
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(c.at);
  if (extract) {
    TType t = x.type.withShape(tileShape);
    auto op = b.create<tle::ir::ExtractTileOp>(l, cx.irType(t), x.ir, dynamicOffsets, b.getDenseI64ArrayAttr(offsets));
    return Value::ofRuntime(op.getResult(), t);
  }
  auto op = b.create<tle::ir::InsertTileOp>(l, x.ir.getType(), x.ir, tile.ir, dynamicOffsets, b.getDenseI64ArrayAttr(offsets));
  return Value::ofRuntime(op.getResult(), x.type);
}

}  // namespace

void registerShapeBuiltins(BuiltinRegistry &r) {
  r.addTlOrMethod("trans", transpose);
  r.addTlOrMethod("permute", transpose);
  r.addTlOrMethod("reshape", reshape);
  r.addTlOrMethod("view", reshape);
  r.addTlOrMethod("broadcast_to", broadcastTo);
  r.addTlOrMethod("expand_dims", expandDims);
  r.add("tle.extract_tile", extractOrInsertTile);
  r.add("tle.insert_tile", extractOrInsertTile);
}

}  // namespace tle::sema
