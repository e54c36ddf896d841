# CTest entries beyond the unit tests (included from tests/CMakeLists.txt):
# - study_<name>: the quick tier of every study in studies/, recomputed (--force) so that a physics
#   regression fails CI; results go to <build>/study-results, not to the user's results/.
#   A study whose experiment is not in this build reports "not run" and passes.
# - claims_audit: the claim coverage of those results (grainlab report --claims): fails on a check citing
#   an unknown claim, a stale validation/claim_verdicts.csv, or one claim passed and failed by two checks
#   without a contradicts_ok reason.
# - report_renders: the pages rendered by headless Chromium, their text checked (tools/check_report.sh;
#   skipped only when Chromium is absent or cannot start).
file(GLOB GRAINLAB_STUDY_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/studies/*.toml)
set(GRAINLAB_STUDY_RESULTS ${PROJECT_BINARY_DIR}/study-results)
foreach(study ${GRAINLAB_STUDY_FILES})
  get_filename_component(name ${study} NAME_WE)
  add_test(NAME study_${name}
           COMMAND grainlab run ${study} --tier quick --force --jobs 2 --results ${GRAINLAB_STUDY_RESULTS})
  set_tests_properties(study_${name} PROPERTIES LABELS study TIMEOUT 900 FIXTURES_SETUP study_results)
endforeach()
add_test(NAME claims_audit COMMAND grainlab report --claims --results ${GRAINLAB_STUDY_RESULTS})
set_tests_properties(claims_audit PROPERTIES LABELS study FIXTURES_REQUIRED study_results RESOURCE_LOCK study_results)
add_test(NAME report_renders
         COMMAND ${PROJECT_SOURCE_DIR}/tools/check_report.sh $<TARGET_FILE:grainlab> ${GRAINLAB_STUDY_RESULTS}
                 ${PROJECT_SOURCE_DIR}/studies)
set_tests_properties(report_renders PROPERTIES LABELS study SKIP_RETURN_CODE 77 FIXTURES_REQUIRED study_results
                     RESOURCE_LOCK study_results TIMEOUT 600)
add_test(NAME cli_help COMMAND grainlab run --help)
set_tests_properties(cli_help PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "--dry-run")
# Bad input through the real CLI: exit code 2 and a message naming file, key and the allowed range.
add_test(NAME cli_bad_study COMMAND grainlab run ${CMAKE_CURRENT_SOURCE_DIR}/pipeline/bad/out_of_range.toml
                                    --results ${PROJECT_BINARY_DIR}/bad-results)
set_tests_properties(cli_bad_study PROPERTIES LABELS unit WILL_FAIL TRUE)
add_test(NAME cli_bad_study_message COMMAND sh -c "$<TARGET_FILE:grainlab> run ${CMAKE_CURRENT_SOURCE_DIR}/pipeline/bad/out_of_range.toml --results ${PROJECT_BINARY_DIR}/bad-results 2>&1; echo rc=$?")
set_tests_properties(cli_bad_study_message PROPERTIES LABELS unit
  PASS_REGULAR_EXPRESSION "out_of_range.toml:6: sweep.grid.tolerance: .*outside \\[1e-09, 1\\].*rc=2")
