# cmake -DIN=a.cpp -DOUT=b.cpp -DLINE="text" -P remove-line.cmake: OUT is IN without the first
# line that contains LINE (a deliberately broken kernel for the hazard tests); an error if
# IN has no such line, so that the test cannot pass vacuously.
file(READ "${IN}" text)
string(FIND "${text}" "${LINE}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${IN} has no line containing '${LINE}'")
endif()
string(SUBSTRING "${text}" 0 ${at} before)
string(FIND "${before}" "\n" line_start REVERSE)
math(EXPR line_start "${line_start} + 1")
string(SUBSTRING "${text}" 0 ${line_start} before)
string(SUBSTRING "${text}" ${line_start} -1 rest)
string(FIND "${rest}" "\n" end)
math(EXPR end "${end} + 1")
string(SUBSTRING "${rest}" ${end} -1 after)
file(WRITE "${OUT}" "${before}${after}")
