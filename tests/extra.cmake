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
