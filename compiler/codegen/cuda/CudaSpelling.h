// How CUDA C++ spells what the IR holds: C++ identifiers from source names, scalar and
// pointer types, tile types with their layouts, literals and C strings. Pure spelling: no
// decision about what the code does.
#pragma once

#include "ir/GpuDialect.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tle::cuda {

// Something the CUDA printer cannot express (a compiler bug, or an op with no CUDA lowering
// yet); caught at the top and turned into a located error.
struct Unsupported {
  explicit Unsupported(std::string message, std::optional<mlir::Location> where = std::nullopt)
      : message(std::move(message)), where(where) {}
  std::string message;
  std::optional<mlir::Location> where;
};

// C++ keywords and the names the printer and the device library use: no source name becomes one.
const std::set<std::string> &reservedWords();
// A valid C++ identifier for a source name that is no keyword or name the printer uses.
std::string sanitize(llvm::StringRef name);
// The source variable an op's result is named after, when its location records one.
std::optional<std::string> nameFromLocation(mlir::Location loc);

std::string scalarType(mlir::Type t);
// How a kernel parameter is passed to the C launcher (C types only).
std::string hostType(mlir::Type t, bool readonly);
std::string literal(mlir::Attribute value, mlir::Type t);
// A C string literal of printable ASCII.
std::string cString(const std::string &text);

// The device-library function an arith or math op calls, with its template arguments
// ("tle::add", "tle::cast<float>", "tle::lt"); nullopt for other ops.
std::optional<std::string> elementwiseFunction(mlir::Operation *op);
// The device-library atomic a tle.atomic_rmw or tle.atomic_cas calls, with its template
// arguments (operation, memory order, scope).
std::string atomicFunction(mlir::Operation *op);

// Tile types, naming each blocked layout once per kernel (Blocked0, Blocked1, ... in the
// order they are first spelt) in the namespace `layoutsNamespace`.
class TileSpelling {
 public:
  explicit TileSpelling(std::string layoutsNamespace) : namespace_(std::move(layoutsNamespace)) {}
  std::string layout(mlir::Attribute layout);
  std::string tile(mlir::RankedTensorType t, const std::string &element);
  // A scalar, pointer, tile or buffer (a pointer to its first element).
  std::string type(mlir::Type t);
  // `int(sizeof(T)) * Tile::kElements`: a tile's bytes as a C++ constant expression.
  std::string tileBytes(mlir::RankedTensorType t);
  // The `using BlockedN = ...;` lines, in a namespace block.
  std::string namespaceBlock() const;

 private:
  std::string namespace_;
  std::vector<gpu::BlockedLayoutAttr> blocked_;
};

}  // namespace tle::cuda
