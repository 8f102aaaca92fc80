// Lexer for .tle files: the Python subset that Triton and TLE kernels are written in.
//
// NEWLINE, INDENT and DEDENT are not decided here. This lexer emits every physical
// NEWLINE; compiler/frontend/LogicalLines.cpp then drops the ones inside brackets and
// on blank lines and synthesizes INDENT/DEDENT from the indentation of each logical
// line, as Python's tokenizer does. Malformed literals get their own token types
// (UNTERMINATED_*, BAD_NUMBER, ERROR_CHAR) so that the diagnostic can say what is wrong
// instead of a generic "mismatched input".
lexer grammar TleLexer;

tokens { INDENT, DEDENT }

// ---- keywords (before NAME) ----------------------------------------------------------
AND      : 'and';
AS       : 'as';
ASSERT   : 'assert';
BREAK    : 'break';
CONTINUE : 'continue';
DEF      : 'def';
ELIF     : 'elif';
ELSE     : 'else';
FALSE    : 'False';
FOR      : 'for';
FROM     : 'from';
IF       : 'if';
IMPORT   : 'import';
IN       : 'in';
IS       : 'is';
LAMBDA   : 'lambda';
NONE     : 'None';
NOT      : 'not';
OR       : 'or';
PASS     : 'pass';
RETURN   : 'return';
TRUE     : 'True';
WHILE    : 'while';
WITH     : 'with';

// Python keywords that .tle files do not support. They are tokens so that the parser
// can name them in a diagnostic instead of treating them as identifiers.
ASYNC    : 'async';
AWAIT    : 'await';
CLASS    : 'class';
DEL      : 'del';
EXCEPT   : 'except';
FINALLY  : 'finally';
GLOBAL   : 'global';
NONLOCAL : 'nonlocal';
RAISE    : 'raise';
TRY      : 'try';
YIELD    : 'yield';

// ---- literals ------------------------------------------------------------------------
STRING
  : STRING_PREFIX? ( LONG_STRING | SHORT_STRING )
  ;

FLOAT
  : POINT_FLOAT EXPONENT?
  | DIGIT_PART EXPONENT
  ;

INTEGER
  : '0' ( '_'? '0' )*
  | [1-9] ( '_'? [0-9] )*
  | '0' [xX] ( '_'? [0-9a-fA-F] )+
  | '0' [oO] ( '_'? [0-7] )+
  | '0' [bB] ( '_'? [01] )+
  ;

NAME
  : ID_START ID_CONTINUE*
  ;

// ---- operators and delimiters --------------------------------------------------------
ELLIPSIS     : '...';
DOT          : '.';
COMMA        : ',';
COLON        : ':';
SEMI         : ';';
ARROW        : '->';
WALRUS       : ':=';
LPAREN       : '(';
RPAREN       : ')';
LBRACK       : '[';
RBRACK       : ']';
LBRACE       : '{';
RBRACE       : '}';
POWER        : '**';
STAR         : '*';
FLOORDIV     : '//';
SLASH        : '/';
PERCENT      : '%';
AT           : '@';
PLUS         : '+';
MINUS        : '-';
TILDE        : '~';
LSHIFT       : '<<';
RSHIFT       : '>>';
AMP          : '&';
PIPE         : '|';
CARET        : '^';
LT           : '<';
GT           : '>';
LE           : '<=';
GE           : '>=';
EQ           : '==';
NE           : '!=';
ASSIGN       : '=';
ADD_ASSIGN   : '+=';
SUB_ASSIGN   : '-=';
MUL_ASSIGN   : '*=';
DIV_ASSIGN   : '/=';
FLOORDIV_ASSIGN : '//=';
MOD_ASSIGN   : '%=';
MATMUL_ASSIGN: '@=';
AND_ASSIGN   : '&=';
OR_ASSIGN    : '|=';
XOR_ASSIGN   : '^=';
LSHIFT_ASSIGN: '<<=';
RSHIFT_ASSIGN: '>>=';
POWER_ASSIGN : '**=';

// ---- layout --------------------------------------------------------------------------
NEWLINE   : '\r'? '\n' | '\r';
COMMENT   : '#' ~[\r\n]* -> skip;
LINE_JOIN : '\\' ( '\r'? '\n' | '\r' ) -> skip;
WS        : [ \t\f]+ -> skip;

// ---- malformed input, reported by the frontend ---------------------------------------
// A quote that is never closed on its line (a terminated string always matches STRING,
// which is longer, first).
UNTERMINATED_STRING
  : STRING_PREFIX? ( '\'' ( STRING_ESCAPE | ~[\\\r\n'] )* | '"' ( STRING_ESCAPE | ~[\\\r\n"] )* )
  ;
// A triple quote that is never closed.
UNTERMINATED_LONG_STRING
  : STRING_PREFIX? ( '\'\'\'' ( STRING_ESCAPE | ~['\\] | '\'' ~['\\] | '\'\'' ~['\\] )*
                   | '"""' ( STRING_ESCAPE | ~["\\] | '"' ~["\\] | '""' ~["\\] )* )
  ;
// Digits run into letters (`0x`, `1e`, `123abc`, `0777`, `1__0`): longer than any valid
// number it starts with, so it wins; a valid number of equal length wins by rule order.
BAD_NUMBER
  : [0-9] [0-9a-zA-Z_]* ( '.' [0-9a-zA-Z_]* )?
  ;
// A backslash that does not end the line.
STRAY_BACKSLASH : '\\';
ERROR_CHAR      : .;

// ---- fragments -----------------------------------------------------------------------
fragment STRING_PREFIX
  : [rRuUfFbB] | [fF] [rR] | [rR] [fF] | [bB] [rR] | [rR] [bB]
  ;
fragment SHORT_STRING
  : '\'' ( STRING_ESCAPE | ~[\\\r\n'] )* '\''
  | '"' ( STRING_ESCAPE | ~[\\\r\n"] )* '"'
  ;
fragment LONG_STRING
  : '\'\'\'' ( STRING_ESCAPE | ~'\\' )*? '\'\'\''
  | '"""' ( STRING_ESCAPE | ~'\\' )*? '"""'
  ;
fragment STRING_ESCAPE : '\\' ( '\r\n' | . );
fragment DIGIT_PART    : [0-9] ( '_'? [0-9] )*;
fragment POINT_FLOAT   : DIGIT_PART? '.' DIGIT_PART | DIGIT_PART '.';
fragment EXPONENT      : [eE] [+-]? DIGIT_PART;
fragment ID_START      : '_' | [\p{L}\p{Nl}];
fragment ID_CONTINUE   : [\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}];   // Pc has '_', Nd has 0-9
