// What an expression evaluates to while a kernel is specialized: either a
// compile-time value (Python constants, tuples, dtypes, modules, functions, builtins)
// or a runtime value (an MLIR SSA value with its Triton type).
#pragma once

#include "frontend/Ast.h"
#include "sema/DType.h"
#include "target/MemorySpace.h"

#include "mlir/IR/Value.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tle::sema {

struct ModuleScope;

// The Triton type of a runtime value: a scalar or a block (tensor) of a dtype or of
// pointers to a dtype.
struct TType {
  DType dtype = DType::I32;  // the element; for pointers, what they point to
  bool isPointer = false;
  // Where a pointer points, or where a buffer lives.
  MemorySpace space = MemorySpace::Global;
  std::vector<int64_t> shape;  // empty for a scalar
  // A block pointer (tl.make_block_ptr) is a scalar handle to a block of `blockShape`
  // elements of `dtype`.
  bool isBlockPtr = false;
  std::vector<int64_t> blockShape;
  // An on-chip buffer (tle.gpu.alloc) of `blockShape` elements of `dtype` in `space`.
  bool isBuffer = false;
  // A tensor descriptor (tl.make_tensor_descriptor): a scalar handle read and written in
  // blocks of `blockShape` elements of `dtype`.
  bool isTensorDesc = false;

  // A tensor (or, with an empty shape, a scalar) of plain elements.
  static TType tensor(DType d, std::vector<int64_t> s) {
    TType t;
    t.dtype = d;
    t.shape = std::move(s);
    return t;
  }

  bool isBlock() const { return !shape.empty(); }
  TType scalar() const {
    TType t = *this;
    t.shape.clear();
    return t;
  }
  TType withShape(std::vector<int64_t> s) const {
    TType t = *this;
    t.shape = std::move(s);
    return t;
  }
  TType withDType(DType d) const {
    TType t = *this;
    t.dtype = d;
    t.isPointer = false;
    t.isBlockPtr = false;
    t.isBuffer = false;
    t.isTensorDesc = false;
    t.space = MemorySpace::Global;
    t.blockShape.clear();
    return t;
  }
  bool operator==(const TType &o) const {
    return dtype == o.dtype && isPointer == o.isPointer && space == o.space && shape == o.shape &&
           isBlockPtr == o.isBlockPtr && blockShape == o.blockShape && isBuffer == o.isBuffer &&
           isTensorDesc == o.isTensorDesc;
  }
  bool operator!=(const TType &o) const { return !(*this == o); }
  // "fp32", "pointer<fp16>", "block[64, 32] of fp32"
  std::string str() const;
};

// "a block[16] of fp32", "an i32", "an fp16": a type name with its article.
// "[2, 3]": how diagnostics spell a shape.
std::string shapeText(const std::vector<int64_t> &shape);

inline std::string withArticle(const std::string &typeName) {
  char c = typeName.empty() ? 'x' : typeName[0];
  bool an = c == 'i' || c == 'f' || c == 'e' || c == 'a' || c == 'o' || c == 'L';  // "an L1 buffer"
  return (an ? "an " : "a ") + typeName;
}

class Value {
public:
  enum class Kind {
    None, Bool, Int, Float, Str, Ellipsis, Tuple, DType, Module, Function, Builtin, Runtime,
    Dict,      // compile-time dict: dictKeys[i] -> elements[i]
    Mesh,      // tle.device_mesh: axis `names` with sizes `dims`
    Sharding,  // tle.sharding: per tensor dim the mesh axes it is split over; partial axes
    Lambda,    // a lambda expression with the names it can see where it was written
    Object,    // a TLE object with fields and methods (tle.pipe and its writer, readers, slots):
               // `text` is its class, `names`/`elements` its fields, `ir` its handle
  };

  Kind kind = Kind::None;
  bool boolValue = false;
  int64_t intValue = 0;
  double floatValue = 0;
  std::string text;            // Str: the string; Module: canonical name; Builtin: qualified name
  std::vector<Value> elements; // Tuple (also lists)
  sema::DType dtype = sema::DType::I32;  // DType
  bool dtypeIsPointer = false;           // DType: pointer_type(dtype), as `ptr.dtype` answers
  const ast::FunctionDef *function = nullptr;  // Function
  ModuleScope *scope = nullptr;  // Function: the module it is defined in; Module: a user .tle module
  std::vector<Value> boundArgs;  // Builtin: a method's `self`
  std::vector<Value> dictKeys;   // Dict
  std::vector<std::string> names;  // Mesh: axis names; Sharding: partial axes
  std::vector<int64_t> dims;       // Mesh: axis sizes
  std::vector<std::string> levels; // Mesh: the topology level of each axis ("node", "device",
                                   // "block_cluster", "block"; "" when a reshape lost it)
  std::vector<std::string> launchNames;  // Mesh: the axes of the mesh it was derived from (the
  std::vector<int64_t> launchDims;       // launch view, as FlagTree keeps for sub-meshes)
  std::vector<std::string> launchLevels;
  std::vector<std::vector<std::string>> splits;  // Sharding: axes per tensor dimension
  std::vector<std::string> readers;  // Object (a pipe): the declared reader names
  std::string objectName;            // Object (a pipe reader): its name
  const ast::Lambda *lambda = nullptr;  // Lambda
  std::shared_ptr<const std::map<std::string, Value>> captured;  // Lambda: the enclosing locals
  mlir::Value ir;                // Runtime
  TType type;                    // Runtime

  static Value none() { return {}; }
  static Value ofBool(bool b) {
    Value v;
    v.kind = Kind::Bool;
    v.boolValue = b;
    return v;
  }
  static Value ofInt(int64_t i) {
    Value v;
    v.kind = Kind::Int;
    v.intValue = i;
    return v;
  }
  static Value ofFloat(double f) {
    Value v;
    v.kind = Kind::Float;
    v.floatValue = f;
    return v;
  }
  static Value ofStr(std::string s) {
    Value v;
    v.kind = Kind::Str;
    v.text = std::move(s);
    return v;
  }
  static Value ofTuple(std::vector<Value> elems) {
    Value v;
    v.kind = Kind::Tuple;
    v.elements = std::move(elems);
    return v;
  }
  static Value ofDType(sema::DType d) {
    Value v;
    v.kind = Kind::DType;
    v.dtype = d;
    return v;
  }
  static Value ofModule(std::string name) {
    Value v;
    v.kind = Kind::Module;
    v.text = std::move(name);
    return v;
  }
  static Value ofFunction(const ast::FunctionDef *f, ModuleScope *scope) {
    Value v;
    v.kind = Kind::Function;
    v.function = f;
    v.scope = scope;
    return v;
  }
  static Value ofUserModule(std::string name, ModuleScope *scope) {
    Value v = ofModule(std::move(name));
    v.scope = scope;
    return v;
  }
  static Value ofBuiltin(std::string name, std::vector<Value> self = {}) {
    Value v;
    v.kind = Kind::Builtin;
    v.text = std::move(name);
    v.boundArgs = std::move(self);
    return v;
  }
  static Value ofRuntime(mlir::Value ir, TType type) {
    Value v;
    v.kind = Kind::Runtime;
    v.ir = ir;
    v.type = std::move(type);
    return v;
  }

  bool isConstexpr() const { return kind != Kind::Runtime; }
  bool isRuntime() const { return kind == Kind::Runtime; }
  bool isNumber() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  // What the user would call it: "int", "tuple", "block[128] of fp32", "module 'tl'".
  std::string describe() const;
};

// For a diagnostic's "got ...": a runtime value's type with its article ("a block[16] of
// fp32"), a compile-time value as describe() says it.
inline std::string describeWithArticle(const Value &v) { return v.isRuntime() ? withArticle(v.type.str()) : v.describe(); }

}  // namespace tle::sema
