# Writes the AppStream metadata from quantscope.metainfo.xml.in, in script mode: at build time
# for packaging/CMakeLists.txt, and by the packaging test (to validate the screenshot form as well):
#   cmake -DTEMPLATE=... -DOUTPUT=... -DAPP_ID=... -DMODEL_FORMATS=.../model_format_list.cmake
#         [-DSCREENSHOT_URL=https://.../docs/] -P metainfo.cmake
# MODEL_FORMATS is what qs_model_formats wrote (the formats the description lists, see
# model_formats.cmake).
# AppStream wants a web address for every screenshot image; the images are docs/*.png of the
# source tree. With SCREENSHOT_URL (where docs/ is published) they are listed as screenshots;
# without, the captions are kept in a comment and the metadata has no screenshots.
set(QS_METAINFO_DOCS_DIR "${CMAKE_CURRENT_LIST_DIR}/../docs")

function(qs_write_metainfo template output app_id screenshot_url)
  # docs/ file and caption, the default first.
  set(shots
      "screenshot-transfer.png|The explorer: QuantizeV2 SCALED qint8 on one million normal samples"
      "screenshot-per-channel.png|Per-channel ranges with one outlier channel"
      "screenshot-bit-sweep.png|Bit-width sweep: SQNR and MSE against the theory for the op's step"
      "screenshot-calibration.png|Calibration by min-max, percentile, MSE-optimal and KL divergence"
      "screenshot-lesson.png|A guided lesson and its live check"
      "screenshot-workbench-table.png|The TPU embedding workbench")
  foreach(shot IN LISTS shots)  # a renamed or deleted picture fails here, not on a web page
    string(REGEX REPLACE "[|].*" "" file "${shot}")
    if(NOT EXISTS "${QS_METAINFO_DOCS_DIR}/${file}")
      message(FATAL_ERROR "metainfo: docs/${file} does not exist")
    endif()
  endforeach()
  set(xml "")
  if(screenshot_url)
    if(NOT screenshot_url MATCHES "/$")
      string(APPEND screenshot_url "/")
    endif()
    set(xml "  <screenshots>\n")
    set(type " type=\"default\"")
    foreach(shot IN LISTS shots)
      string(REPLACE "|" ";" parts "${shot}")
      list(GET parts 0 file)
      list(GET parts 1 caption)
      string(APPEND xml "    <screenshot${type}>\n      <caption>${caption}</caption>\n"
                        "      <image>${screenshot_url}${file}</image>\n    </screenshot>\n")
      set(type "")
    endforeach()
    string(APPEND xml "  </screenshots>")
  else()
    set(xml "  <!-- Screenshots (docs/ of the source; configure with -DQS_SCREENSHOT_URL=<where docs/ is\n       published> to list them):\n")
    foreach(shot IN LISTS shots)
      string(REPLACE "|" ": " line "${shot}")
      string(APPEND xml "       ${line}\n")
    endforeach()
    string(APPEND xml "  -->")
  endif()
  set(QS_APP_ID "${app_id}")
  set(QS_METAINFO_SCREENSHOTS "${xml}")
  configure_file("${template}" "${output}" @ONLY)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  include("${CMAKE_CURRENT_LIST_DIR}/model_formats.cmake")
  qs_read_model_formats("${MODEL_FORMATS}")
  qs_write_metainfo("${TEMPLATE}" "${OUTPUT}" "${APP_ID}" "${SCREENSHOT_URL}")
endif()
