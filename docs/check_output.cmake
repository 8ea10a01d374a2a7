# cmake "-DCMD=prog;args" [-DEXPECTED=file] -P check_output.cmake
# Runs CMD; fails if it fails or, given EXPECTED, if its stdout differs.
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE got
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CMD} exited with ${rc}\n${got}${err}")
endif()
if(EXPECTED)
  file(READ ${EXPECTED} want)
  if(NOT got STREQUAL want)
    message(NOTICE "--- got\n${got}--- expected (the page's text block)\n${want}")
    message(FATAL_ERROR "output differs from README.md")
  endif()
endif()
message(NOTICE "${got}")
