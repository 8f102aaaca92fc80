// Parser for .tle files: the Python subset used by Triton and TLE kernels, plus the rest
// of Python's statements (`class`, `try`, `raise`, `yield`, ...) so that a .py file with
// host code parses; those are host code only and are rejected inside @jit functions.
//
// The rules follow the structure of Python's own grammar (one rule per precedence
// level), so that precedence, comparison chains and `**` binding are exactly Python's.
// Rule names are what diagnostics and the AST builder key on; keep them stable.
parser grammar TleParser;

options { tokenVocab = TleLexer; }

// ---- module and statements -----------------------------------------------------------
file_input
  : ( NEWLINE | stmt )* EOF
  ;

stmt
  : simple_stmts
  | compound_stmt
  ;

simple_stmts
  : simple_stmt ( ';' simple_stmt )* ';'? NEWLINE
  ;

simple_stmt
  : expr_stmt
  | return_stmt
  | import_stmt
  | pass_stmt
  | break_stmt
  | continue_stmt
  | assert_stmt
  | raise_stmt
  | global_stmt
  | nonlocal_stmt
  | del_stmt
  ;

// `x = y`, `a, b = f()`, `x += 1`, `x: tl.constexpr = 4`, or a bare expression.
expr_stmt
  : testlist_star_expr annassign                                  # AnnAssignStmt
  | testlist_star_expr augassign testlist                         # AugAssignStmt
  | testlist_star_expr ( '=' testlist_star_expr )+                # AssignStmt
  | testlist_star_expr                                            # ExprOnlyStmt
  ;

annassign
  : ':' test ( '=' testlist_star_expr )?
  ;

augassign
  : '+=' | '-=' | '*=' | '@=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=' | '**=' | '//='
  ;

return_stmt   : 'return' testlist_star_expr? ;
pass_stmt     : 'pass' ;
break_stmt    : 'break' ;
continue_stmt : 'continue' ;
assert_stmt   : 'assert' test ( ',' test )? ;
// Host code only (rejected inside @jit functions):
raise_stmt    : 'raise' ( test ( 'from' test )? )? ;
global_stmt   : 'global' NAME ( ',' NAME )* ;
nonlocal_stmt : 'nonlocal' NAME ( ',' NAME )* ;
del_stmt      : 'del' exprlist ;

import_stmt
  : 'import' dotted_as_name ( ',' dotted_as_name )*                          # ImportName
  | 'from' import_dots* dotted_name 'import' import_targets                 # ImportFrom
  | 'from' import_dots+ 'import' import_targets                             # ImportFromRelative
  ;

import_dots    : '.' | '...' ;
import_targets : '*' | '(' import_as_names ','? ')' | import_as_names ;
import_as_name : NAME ( 'as' NAME )? ;
import_as_names: import_as_name ( ',' import_as_name )* ;
dotted_as_name : dotted_name ( 'as' NAME )? ;
dotted_name    : NAME ( '.' NAME )* ;

compound_stmt
  : if_stmt
  | while_stmt
  | for_stmt
  | with_stmt
  | funcdef
  | decorated
  | try_stmt
  | classdef
  | async_stmt
  ;

if_stmt
  : 'if' test ':' suite elif_clause* else_clause?
  ;
elif_clause : 'elif' test ':' suite ;
else_clause : 'else' ':' suite ;

while_stmt
  : 'while' test ':' suite else_clause?
  ;

for_stmt
  : 'for' exprlist 'in' testlist ':' suite else_clause?
  ;

with_stmt
  : 'with' with_item ( ',' with_item )* ':' suite
  ;
with_item : test ( 'as' expr )? ;

decorated : decorator+ ( funcdef | classdef | async_stmt ) ;
decorator : '@' test NEWLINE ;

funcdef
  : 'def' NAME parameters ( '->' test )? ':' suite
  ;

// Host code only (rejected inside @jit functions):
try_stmt
  : 'try' ':' suite ( except_clause+ else_clause? finally_clause? | finally_clause )
  ;
except_clause  : 'except' '*'? ( test ( 'as' NAME )? )? ':' suite ;
finally_clause : 'finally' ':' suite ;
classdef       : 'class' NAME ( '(' arglist? ')' )? ':' suite ;
async_stmt     : 'async' ( funcdef | with_stmt | for_stmt ) ;

parameters : '(' paramlist? ')' ;
paramlist  : param ( ',' param )* ','? ;
param
  : NAME ( ':' test )? ( '=' test )?      # NamedParam
  | '*' ( NAME ( ':' test )? )?           # StarParam
  | '**' NAME ( ':' test )?               # DoubleStarParam
  | '/'                                   # PositionalOnlyMarker
  ;

suite
  : simple_stmts
  | NEWLINE INDENT stmt+ DEDENT
  ;

// ---- expressions ---------------------------------------------------------------------
test
  : or_test ( 'if' or_test 'else' test )?
  | lambdef
  | host_expr
  ;

// Host code only (rejected inside @jit functions); Python allows these in fewer places.
host_expr
  : NAME ':=' test
  | 'yield' ( 'from' test | testlist_star_expr )?
  ;

test_nocond
  : or_test
  | lambdef_nocond
  ;

lambdef        : 'lambda' lambda_params? ':' test ;
lambdef_nocond : 'lambda' lambda_params? ':' test_nocond ;
lambda_params  : lambda_param ( ',' lambda_param )* ','? ;
lambda_param
  : NAME ( '=' test )?
  | '*' NAME?
  | '**' NAME
  | '/'
  ;

or_test  : and_test ( 'or' and_test )* ;
and_test : not_test ( 'and' not_test )* ;
not_test
  : 'not' not_test
  | comparison
  ;

comparison : expr ( comp_op expr )* ;
comp_op
  : '<' | '>' | '==' | '>=' | '<=' | '!=' | 'in' | 'not' 'in' | 'is' 'not' | 'is'
  ;

star_expr : '*' expr ;

expr       : xor_expr ( '|' xor_expr )* ;
xor_expr   : and_expr ( '^' and_expr )* ;
and_expr   : shift_expr ( '&' shift_expr )* ;
shift_expr : arith_expr ( shift_op arith_expr )* ;
shift_op   : '<<' | '>>' ;
arith_expr : term ( arith_op term )* ;
arith_op   : '+' | '-' ;
term       : factor ( term_op factor )* ;
term_op    : '*' | '/' | '%' | '//' | '@' ;
factor
  : ( '+' | '-' | '~' ) factor
  | power
  ;
// `**` binds tighter than a unary operator on its left and looser on its right:
// -x**2 is -(x**2), and 2**-1 is 2**(-1).
power      : atom_expr ( '**' factor )? ;
atom_expr  : 'await'? atom trailer* ;

atom
  : '(' ( testlist_comp )? ')'             # ParenAtom
  | '[' ( testlist_comp )? ']'             # ListAtom
  | '{' ( dictorsetmaker )? '}'            # BraceAtom
  | NAME                                   # NameAtom
  | INTEGER                                # IntegerAtom
  | FLOAT                                  # FloatAtom
  | STRING+                                # StringAtom
  | '...'                                  # EllipsisAtom
  | 'None'                                 # NoneAtom
  | 'True'                                 # TrueAtom
  | 'False'                                # FalseAtom
  ;

testlist_comp
  : ( test | star_expr ) comp_for
  | ( test | star_expr ) ( ',' ( test | star_expr ) )* ','?
  ;

trailer
  : '(' arglist? ')'                       # CallTrailer
  | '[' subscriptlist ']'                  # SubscriptTrailer
  | '.' NAME                               # AttributeTrailer
  ;

subscriptlist : subscript ( ',' subscript )* ','? ;
subscript
  : test
  | star_expr
  | test? ':' test? ( ':' test? )?
  ;

exprlist : ( expr | star_expr ) ( ',' ( expr | star_expr ) )* ','? ;
testlist : test ( ',' test )* ','? ;
testlist_star_expr : ( test | star_expr ) ( ',' ( test | star_expr ) )* ','? ;

dictorsetmaker
  : dict_item comp_for                                            # DictComp
  | dict_item ( ',' dict_item )* ','?                              # DictDisplay
  | ( test | star_expr ) comp_for                                 # SetComp
  | ( test | star_expr ) ( ',' ( test | star_expr ) )* ','?       # SetDisplay
  ;
dict_item
  : test ':' test
  | '**' expr
  ;

arglist  : argument ( ',' argument )* ','? ;
argument
  : test comp_for                          # GeneratorArgument
  | NAME '=' test                          # KeywordArgument
  | '**' test                              # DoubleStarArgument
  | '*' test                               # StarArgument
  | test                                   # PositionalArgument
  ;

comp_for  : 'for' exprlist 'in' or_test comp_iter? ;
comp_if   : 'if' test_nocond comp_iter? ;
comp_iter : comp_for | comp_if ;
