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
# libFuzzer over the study loader for 60 s (tools/fuzz.sh; seeded with studies/ and tests/pipeline/bad/);
# skipped (77) where clang or libFuzzer is missing. Longer on demand: tools/fuzz.sh build 3600.
add_test(NAME fuzz_study_loader COMMAND ${PROJECT_SOURCE_DIR}/tools/fuzz.sh ${PROJECT_BINARY_DIR} 60)
set_tests_properties(fuzz_study_loader PROPERTIES LABELS fuzz SKIP_RETURN_CODE 77 TIMEOUT 900)
# Physics guard through the CLI: an unstable run is a failed run with a diagnosis and exit code 3.
add_test(NAME cli_unstable_run COMMAND sh -c "$<TARGET_FILE:grainlab> run ${CMAKE_CURRENT_SOURCE_DIR}/pipeline/unstable/sdem_impact_dt1.toml --force --results ${PROJECT_BINARY_DIR}/unstable-results 2>&1; echo rc=$?")
set_tests_properties(cli_unstable_run PROPERTIES LABELS unit
  PASS_REGULAR_EXPRESSION "FAILED .*: sdem_impact: unstable at step [0-9]+ .*energy blow-up.*rc=3")
# Argument errors: exit 2 and the offending word named (not CLI11's 104-109).
set(GRAINLAB_CLI_ERRORS
  "unknown_command|frobnicate|unknown command 'frobnicate'"
  "jobs_zero|run x --jobs 0|--jobs: Value 0 not in range"
  "jobs_text|run x --jobs many|--jobs.*many"
  "unknown_option|run x --bogus|--bogus"
  "no_command||a command is required"
  "study_not_found|run nosuch.toml|no study 'nosuch.toml' .neither a file nor [^ ]*studies/nosuch.toml;")
foreach(case ${GRAINLAB_CLI_ERRORS})
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 args)
  list(GET parts 2 expect)
  add_test(NAME cli_error_${name} COMMAND sh -c "$<TARGET_FILE:grainlab> ${args} 2>&1; echo rc=$?")
  set_tests_properties(cli_error_${name} PROPERTIES LABELS unit PASS_REGULAR_EXPRESSION "${expect}.*rc=2"
                       FAIL_REGULAR_EXPRESSION "toml\\.toml")
endforeach()
# Where studies and results live: found from the working directory (a marker file here), overridable.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/root-test/sub/deeper ${PROJECT_BINARY_DIR}/root-test/studies)
file(WRITE ${PROJECT_BINARY_DIR}/root-test/.grainlab-root "")
add_test(NAME cli_list_finds_root COMMAND grainlab list)
set_tests_properties(cli_list_finds_root PROPERTIES LABELS unit WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/root-test/sub/deeper
  PASS_REGULAR_EXPRESSION "Project root: [^\n]*/root-test\nStudies: +[^\n]*/root-test/studies\nResults: +[^\n]*/root-test/results\n")
add_test(NAME cli_list_overrides COMMAND grainlab --studies ${PROJECT_SOURCE_DIR}/studies list --results /tmp/elsewhere)
set_tests_properties(cli_list_overrides PROPERTIES LABELS unit WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/root-test/sub
  PASS_REGULAR_EXPRESSION "Studies: +[^\n]*/studies\nResults: +/tmp/elsewhere\n.*sdem_restitution")
