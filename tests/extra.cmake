# CTest entries beyond the unit tests (included from tests/CMakeLists.txt):
# - study_<name>: the quick tier of every study in studies/, recomputed (--force) so that a physics
#   regression fails CI; results go to <build>/study-results, not to the user's results/.
#   A study whose experiment is not in this build reports "not run" and passes.
# - report_renders: results index rendered by headless Chromium (skipped when Chromium is absent).
file(GLOB GRAINLAB_STUDY_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/studies/*.toml)
set(GRAINLAB_STUDY_RESULTS ${PROJECT_BINARY_DIR}/study-results)
foreach(study ${GRAINLAB_STUDY_FILES})
  get_filename_component(name ${study} NAME_WE)
  add_test(NAME study_${name}
           COMMAND grainlab run ${study} --tier quick --force --jobs 2 --results ${GRAINLAB_STUDY_RESULTS})
  set_tests_properties(study_${name} PROPERTIES LABELS study TIMEOUT 900 FIXTURES_SETUP study_results)
endforeach()
add_test(NAME report_renders
         COMMAND ${PROJECT_SOURCE_DIR}/tools/screenshot.sh ${GRAINLAB_STUDY_RESULTS}/index.html
                 ${GRAINLAB_STUDY_RESULTS}/index.png)
set_tests_properties(report_renders PROPERTIES LABELS study SKIP_RETURN_CODE 77 FIXTURES_REQUIRED study_results)
add_test(NAME cli_help COMMAND grainlab run --help)
set_tests_properties(cli_help PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "--dry-run")
# Bad input through the real CLI: exit code 2 and a message naming file, key and the allowed range.
add_test(NAME cli_bad_study COMMAND grainlab run ${CMAKE_CURRENT_SOURCE_DIR}/pipeline/bad/out_of_range.toml
                                    --results ${PROJECT_BINARY_DIR}/bad-results)
set_tests_properties(cli_bad_study PROPERTIES LABELS unit WILL_FAIL TRUE)
add_test(NAME cli_bad_study_message COMMAND sh -c "$<TARGET_FILE:grainlab> run ${CMAKE_CURRENT_SOURCE_DIR}/pipeline/bad/out_of_range.toml --results ${PROJECT_BINARY_DIR}/bad-results 2>&1; echo rc=$?")
set_tests_properties(cli_bad_study_message PROPERTIES LABELS unit
  PASS_REGULAR_EXPRESSION "out_of_range.toml:6: sweep.grid.tolerance: .*outside \\[1e-09, 1\\].*rc=2")
# The study corpus (tests/corpus/manifest.txt): bad and odd study files through the real CLI, each with its
# exit code and message (file:line: key), nothing written outside a temporary results folder, no partial results.
add_test(NAME study_corpus COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/corpus/run_corpus.sh $<TARGET_FILE:grainlab>
                                   ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
set_tests_properties(study_corpus PROPERTIES LABELS unit TIMEOUT 900)
