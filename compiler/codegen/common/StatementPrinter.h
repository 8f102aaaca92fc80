// What both printers print alike: C++ statements, one a line at the current indentation, into
// one body; names claimed once per kernel; and the structured control flow (scf.for, scf.if,
// scf.while), whose carried values are variables declared before the construct and assigned
// by its yields. Each printer says how it spells a value and a type, prints a block's ops,
// and adds its own lines around a for loop.
#pragma once

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace tle::codegen {

class StatementPrinter {
 public:
  virtual ~StatementPrinter() = default;

 protected:
  StatementPrinter(const std::set<std::string> &reservedWords, int indent) : reserved_(reservedWords), indent_(indent) {}

  // ---- what each printer spells its own way ----
  virtual std::string expr(mlir::Value v) = 0;
  // The C++ type of a variable holding `v`.
  virtual std::string variableType(mlir::Value v) = 0;
  virtual void block(mlir::Block &b) = 0;
  // Lines before a for loop's header (after its carried variables), and at the end of each
  // iteration (after the carried values are assigned).
  virtual void beforeLoop(mlir::scf::ForOp) {}
  virtual void endOfIteration(mlir::scf::ForOp) {}

  // ---- names ----
  // `name`, or `name_2`, `name_3`, ... if taken.
  std::string claim(std::string name);
  // A fresh name for `v`, after its source variable when its location records one.
  std::string newName(mlir::Value v, llvm::StringRef fallback);

  // ---- output ----
  std::ostringstream &line();

  // ---- control flow ----
  // One variable per carried value, initialised from `inits` (a null init: declared only).
  std::vector<std::string> declareCarried(mlir::ValueRange inits, mlir::ValueRange carried, llvm::StringRef fallback);
  void assignCarried(const std::vector<std::string> &vars, mlir::ValueRange values);
  void forLoop(mlir::scf::ForOp f);
  void ifElse(mlir::scf::IfOp i);
  void whileLoop(mlir::scf::WhileOp w);

  const std::set<std::string> &reserved_;
  std::ostringstream body_;
  int indent_;
  llvm::DenseMap<mlir::Value, std::string> names_;
  std::set<std::string> used_;
};

}  // namespace tle::codegen
