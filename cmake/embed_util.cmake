# embed_util.cmake -- what the build's embedding scripts share (included by
# vm/embed.cmake, cuda/embed_device.cmake, docs/reference.cmake, each a
# cmake -P script, so the build needs no xxd and no helper program).
#
#   embed_array(out "static const char" h0 path)   appends to ${out}:
#     static const char h0[] = {
#       0x2f,0x2a,... (16 bytes a line), 0};
#   and sets ${out}_size to the file's size in bytes; the trailing 0 keeps
#   an empty file a valid array and a text a C string.
#   embed_write(path text)   writes text only when it changed, so an
#     unrelated rebuild recompiles nothing.

# CMake's regexes have no {n}: spell out one line of 16 bytes.
string(REPEAT "0x..," 16 embed_line16)

function(embed_array out decl name path)
  file(READ "${path}" hex HEX)
  string(LENGTH "${hex}" len)
  math(EXPR size "${len} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(${embed_line16})" "\\1\n  " bytes "${bytes}")
  set(${out} "${${out}}${decl} ${name}[] = {\n  ${bytes}0};\n\n" PARENT_SCOPE)
  set(${out}_size ${size} PARENT_SCOPE)
endfunction()

function(embed_write path text)
  set(old "")
  if(EXISTS "${path}")
    file(READ "${path}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${path}" "${text}")
  endif()
endfunction()
