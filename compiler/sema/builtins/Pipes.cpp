// tle.pipe: a ring of `capacity` shared-memory slots between a writer and named readers
// (FlagTree's pipe MVP), its writer's and readers' steps, and buffer.slot(stage), the view of
// one slot of a buffer.
#include "sema/builtins/Builtins.h"
#include "sema/builtins/Registry.h"

#include "ir/Dialect.h"

#include <algorithm>
#include <set>

namespace tle::sema {

namespace {

Value makeObject(std::string cls, std::vector<std::string> names, std::vector<Value> elements) {
  Value v;
  v.kind = Value::Kind::Object;
  v.text = std::move(cls);
  v.names = std::move(names);
  v.elements = std::move(elements);
  return v;
}

std::string listText(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names) s += (s.empty() ? "'" : ", '") + n + "'";
  return s;
}

// The view of slot `stage` of a buffer: its leading dimension dropped.
Value slotOf(LoweringContext &cx, const Value &buffer, const Value &stage, mlir::Location l) {
  TType t = buffer.type;
  t.blockShape.erase(t.blockShape.begin());
  return Value::ofRuntime(cx.builder().create<tle::ir::BufferSlotOp>(l, cx.irType(t), buffer.ir, stage.ir).getResult(), t);
}

}  // namespace

Value objectAttribute(LoweringContext &cx, const Value &object, const std::string &attr, SourceRange at) {
  const std::string &cls = object.text;
  static const std::map<std::string, std::set<std::string>> kMethods = {
      {"tle.pipe", {"writer", "reader"}},
      {"tle.pipe_writer", {"acquire", "commit", "close"}},
      {"tle.pipe_reader", {"wait", "release"}}};
  if (auto it = kMethods.find(cls); it != kMethods.end() && it->second.count(attr))
    return Value::ofBuiltin("pipe." + cls.substr(4) + "." + attr, {object});
  if (cls == "tle.pipe" && attr == "capacity") return Value::ofInt(object.intValue);
  if (cls == "tle.pipe_slot" || cls == "tle.pipe_wait_result") {
    for (size_t i = 0; i < object.names.size(); ++i)
      if (object.names[i] == attr) return object.elements[i];
  }
  cx.fail(at, DiagId::UnknownAttribute, cls + " has no attribute '" + attr + "'" +
                                            (cls == "tle.pipe_slot" ? " (its fields: " + listText(object.names) + ")" : ""));
}

namespace {

Value bufferSlot(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "buffer.slot", {{"self", true}, {"stage", true}}, c.args, at, &where);
  const Value &buf = *a[0];
  if (buf.type.space != MemorySpace::Shared) cx.fail(at, DiagId::TypeMismatch, "buffer.slot supports only shared-memory buffers, got " + withArticle(buf.type.str()));
  if (buf.type.blockShape.size() < 2) cx.fail(at, DiagId::ShapeMismatch, "buffer.slot needs a buffer of rank 2 or more, got " + withArticle(buf.type.str()));
  Value stage = cx.integerScalarI32(*a[1], where[1], "the stage");
  if (!a[1]->isRuntime()) {
    int64_t s = cx.requireInt(*a[1], where[1], "the stage");
    if (s < 0 || s >= buf.type.blockShape[0])
      cx.fail(where[1], DiagId::ShapeMismatch, "stage " + std::to_string(s) + " is out of range for " + withArticle(buf.type.str()));
  }
  return slotOf(cx, buf, stage, cx.loc(at));
}

// tle.pipe(*, capacity, scope="cta", name=None, readers=None, one_shot=False, **fields)
Value createPipe(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  CallArgs &args = c.args;
  if (!args.positional.empty()) cx.fail(args.positionalRanges[0], DiagId::ArgumentMismatch, "tle.pipe takes keyword arguments only");
  std::optional<Value> capacity, scope, pipeName, readers, oneShot;
  std::vector<std::string> fieldNames;
  std::vector<Value> fields;
  std::vector<SourceRange> fieldRanges;
  SourceRange capacityRange = at, scopeRange = at, readersRange = at;
  for (size_t k = 0; k < args.keywords.size(); ++k) {
    const auto &[key, v] = args.keywords[k];
    SourceRange r = args.keywordRanges[k];
    if (key == "capacity") capacity = v, capacityRange = r;
    else if (key == "scope") scope = v, scopeRange = r;
    else if (key == "name") pipeName = v;
    else if (key == "readers") readers = v, readersRange = r;
    else if (key == "one_shot") oneShot = v;
    else {
      if (key[0] == '_' || key == "fields")
        cx.fail(r, DiagId::ConstantError, "pipe field names must not start with '_' and must not be 'fields', got '" + key + "'");
      if (!v.isRuntime() || !v.type.isBuffer || v.type.space != MemorySpace::Shared || v.type.blockShape.size() < 2)
        cx.fail(r, DiagId::TypeMismatch, "pipe field '" + key + "' must be a shared-memory buffer (tle.gpu.alloc) of rank 2 or more, got " +
                                             (v.isRuntime() ? withArticle(v.type.str()) : v.describe()));
      fieldNames.push_back(key);
      fields.push_back(v);
      fieldRanges.push_back(r);
    }
  }
  if (!capacity || capacity->isRuntime() || capacity->kind != Value::Kind::Int)
    cx.fail(capacityRange, DiagId::NotConstexpr, "tle.pipe capacity must be a compile-time int");
  if (capacity->intValue <= 0) cx.fail(capacityRange, DiagId::ConstantError, "tle.pipe capacity must be positive");
  int64_t cap = capacity->intValue;
  if (scope && scope->kind != Value::Kind::None && (scope->kind != Value::Kind::Str || scope->text != "cta"))
    cx.fail(scopeRange, DiagId::NotImplemented, "tle.pipe supports only scope='cta', got " +
                                                    (scope->kind == Value::Kind::Str ? "'" + scope->text + "'" : scope->describe()));
  if (fields.empty()) cx.fail(at, DiagId::ArgumentMismatch, "tle.pipe requires at least one payload field (name=buffer)");
  for (size_t i = 0; i < fields.size(); ++i)
    if (fields[i].type.blockShape[0] != cap)
      cx.fail(fieldRanges[i], DiagId::ShapeMismatch, "pipe field '" + fieldNames[i] + "' has leading dimension " +
                                                         std::to_string(fields[i].type.blockShape[0]) + " but the capacity is " +
                                                         std::to_string(cap));
  std::vector<std::string> readerNames;
  if (readers && readers->kind != Value::Kind::None) {
    std::vector<Value> items = readers->kind == Value::Kind::Tuple ? readers->elements : std::vector<Value>{*readers};
    if (items.empty()) cx.fail(readersRange, DiagId::ConstantError, "readers must name at least one reader");
    for (const Value &r : items) {
      if (r.kind != Value::Kind::Str) cx.fail(readersRange, DiagId::TypeMismatch, "reader names must be strings");
      if (std::find(readerNames.begin(), readerNames.end(), r.text) != readerNames.end())
        cx.fail(readersRange, DiagId::ConstantError, "reader '" + r.text + "' is declared twice");
      readerNames.push_back(r.text);
    }
  }
  bool once = oneShot && cx.truthy(*oneShot, at);
  std::vector<mlir::Value> fieldIr;
  for (const Value &f : fields) fieldIr.push_back(f.ir);
  std::vector<llvm::StringRef> fieldRefs(fieldNames.begin(), fieldNames.end()), readerRefs(readerNames.begin(), readerNames.end());
  mlir::StringAttr nameAttr;
  mlir::OpBuilder &b = cx.builder();
  if (pipeName && pipeName->kind == Value::Kind::Str) nameAttr = b.getStringAttr(pipeName->text);
  auto op = b.create<tle::ir::PipeCreateOp>(cx.loc(at), tle::ir::PipeType::get(b.getContext()), fieldIr,
                                            b.getI32IntegerAttr(static_cast<int32_t>(cap)),
                                            b.getStrArrayAttr(fieldRefs), b.getStrArrayAttr(readerRefs),
                                            b.getStringAttr("cta"), nameAttr, once ? b.getUnitAttr() : mlir::UnitAttr());
  Value pipe = makeObject("tle.pipe", fieldNames, fields);
  pipe.ir = op.getResult();
  pipe.intValue = cap;
  pipe.boolValue = once;
  pipe.readers = readerNames;
  return pipe;
}

Value pipeWriter(LoweringContext &cx, BuiltinCall &c) {
  const Value &self = c.args.positional.at(0);
  bindArgs(cx, "pipe.writer", {{"self", true}}, c.args, c.at);
  return makeObject("tle.pipe_writer", {}, {self});
}

// pipe.reader(name=None, fields=None): a named reader that sees some or all of the fields.
Value pipeReader(LoweringContext &cx, BuiltinCall &c) {
  SourceRange at = c.at;
  const Value &self = c.args.positional.at(0);
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, "pipe.reader", {{"self", true}, {"name", false}, {"fields", false}}, c.args, at, &where);
  std::string readerName;
  if (a[1] && a[1]->kind != Value::Kind::None) {
    if (a[1]->kind != Value::Kind::Str) cx.fail(where[1], DiagId::TypeMismatch, "a reader name must be a string");
    readerName = a[1]->text;
  }
  if (!self.readers.empty() && readerName.empty())
    cx.fail(at, DiagId::ArgumentMismatch, "this pipe declares its readers (" + listText(self.readers) + "): name the reader with reader(name=...)");
  if (!readerName.empty() && std::find(self.readers.begin(), self.readers.end(), readerName) == self.readers.end())
    cx.fail(where[1], DiagId::ArgumentMismatch, "reader '" + readerName + "' is not declared by the pipe" +
                                                    (self.readers.empty() ? " (it declares no readers)" : " (its readers: " + listText(self.readers) + ")"));
  std::vector<std::string> visible = self.names;
  std::vector<Value> buffers = self.elements;
  if (a[2] && a[2]->kind != Value::Kind::None) {
    std::vector<Value> items = a[2]->kind == Value::Kind::Tuple ? a[2]->elements : std::vector<Value>{*a[2]};
    visible.clear();
    buffers.clear();
    for (const Value &f : items) {
      if (f.kind != Value::Kind::Str) cx.fail(where[2], DiagId::TypeMismatch, "reader fields must be field names (strings)");
      auto it = std::find(self.names.begin(), self.names.end(), f.text);
      if (it == self.names.end())
        cx.fail(where[2], DiagId::ArgumentMismatch, "the pipe has no field '" + f.text + "' (its fields: " + listText(self.names) + ")");
      if (std::find(visible.begin(), visible.end(), f.text) != visible.end())
        cx.fail(where[2], DiagId::ConstantError, "reader field '" + f.text + "' is listed twice");
      visible.push_back(f.text);
      buffers.push_back(self.elements[static_cast<size_t>(it - self.names.begin())]);
    }
  }
  Value reader = makeObject("tle.pipe_reader", visible, buffers);
  reader.objectName = readerName;
  reader.boundArgs = {self};
  return reader;
}

// Writer and reader steps, each at an iteration: slot = iteration % capacity. The writer
// acquires, commits and closes; a reader waits and releases.
Value pipeStep(LoweringContext &cx, BuiltinCall &c) {
  const std::string &name = c.name;
  SourceRange at = c.at;
  const Value &self = c.args.positional.at(0);
  const std::string &method = c.member;
  std::vector<SourceRange> where;
  auto a = bindArgs(cx, name.substr(5), {{"self", true}, {"iteration", true}}, c.args, at, &where);
  const Value &pipe = name.rfind("pipe.pipe_writer.", 0) == 0 ? self.elements[0] : self.boundArgs[0];
  Value iteration = cx.integerScalarI32(*a[1], where[1], "the iteration");
  mlir::OpBuilder &b = cx.builder();
  mlir::Location l = cx.loc(at);
  mlir::StringAttr reader = b.getStringAttr(self.objectName);
  auto slot = [&](const std::vector<std::string> &names, const std::vector<Value> &buffers) {
    Value stage = cx.binary(ast::BinaryOp::Mod, iteration, Value::ofInt(pipe.intValue), at, at, at);
    std::vector<Value> views;
    for (const Value &buffer : buffers) views.push_back(slotOf(cx, buffer, stage, l));
    return makeObject("tle.pipe_slot", names, views);
  };
  if (method == "acquire") {
    b.create<tle::ir::PipeAcquireOp>(l, pipe.ir, iteration.ir, reader);
    return slot(pipe.names, pipe.elements);
  }
  if (method == "commit") {
    b.create<tle::ir::PipeCommitOp>(l, pipe.ir, iteration.ir, reader);
    return Value::none();
  }
  if (method == "close") {
    if (pipe.boolValue) cx.fail(at, DiagId::UnsupportedInKernel, "tle.pipe one_shot pipes do not support close");
    b.create<tle::ir::PipeCloseOp>(l, pipe.ir, iteration.ir, reader);
    return Value::none();
  }
  if (method == "release") {
    b.create<tle::ir::PipeReleaseOp>(l, pipe.ir, iteration.ir, reader);
    return Value::none();
  }
  // wait
  TType i1;
  i1.dtype = DType::I1;
  auto op = b.create<tle::ir::PipeWaitOp>(l, b.getI1Type(), pipe.ir, iteration.ir, reader);
  Value closed = Value::ofRuntime(op.getResult(), i1);
  return makeObject("tle.pipe_wait_result", {"slot", "is_closed"}, {slot(self.names, self.elements), closed});
}

}  // namespace

void registerPipeBuiltins(BuiltinRegistry &r) {
  r.add("buffer.slot", bufferSlot);
  r.add("tle.pipe", createPipe);
  r.add("pipe.pipe.writer", pipeWriter);
  r.add("pipe.pipe.reader", pipeReader);
  r.addFamily("pipe.", pipeStep);
}

}  // namespace tle::sema
