# cmake "-DCMD=prog;args" [-DEXPECTED=file] [-DGPU=1] -P check_output.cmake
# Runs CMD; fails if it fails or, given EXPECTED, if its stdout differs.
# With GPU=1 (a ```lua gpu block, CMD = cutelua script) it first asks
# cute.cuda.available() and, where no GPU answers, prints "SKIP: no GPU"
# (the test's SKIP_REGULAR_EXPRESSION) instead of running the block.
if(GPU)
  list(GET CMD 0 prog)
  execute_process(COMMAND ${prog} -e
    "os.exit(require('cute').cuda.available() and 0 or 1)"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    message(NOTICE "SKIP: no GPU")
    return()
  endif()
endif()
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE got
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CMD} exited with ${rc}\n${got}${err}")
endif()
if(EXPECTED)
  file(READ ${EXPECTED} want)
  if(NOT got STREQUAL want)
    message(NOTICE "--- got\n${got}--- expected (the page's text block)\n${want}")
    message(FATAL_ERROR "output differs from the page's text block")
  endif()
endif()
message(NOTICE "${got}")
