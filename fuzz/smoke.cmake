# smoke.cmake -- one short libFuzzer run for ctest (fuzz.smoke.<target>).
#   cmake -DFUZZER=bin -DWORK=dir -DCORPUS=dir -DREGRESSIONS=dir -DDICT=file
#         -DSECONDS=n -DMAXLEN=n -P smoke.cmake
# New units go to WORK/new (recreated empty each run), never into the
# source tree; the seed corpus and the regressions are read only.  A crash
# input is written to WORK/ (artifact_prefix) and fails the test.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/new)
execute_process(
  COMMAND ${FUZZER} ${WORK}/new ${CORPUS} ${REGRESSIONS}
          -dict=${DICT} -max_total_time=${SECONDS} -timeout=10
          -rss_limit_mb=2048 -max_len=${MAXLEN} -print_final_stats=1
          -artifact_prefix=${WORK}/
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (${rc}); crash input under ${WORK}/")
endif()
