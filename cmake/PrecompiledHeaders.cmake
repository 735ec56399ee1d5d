# Precompiled Qt headers. In a file that includes Qt Widgets and QCustomPlot, parsing their
# headers takes more of its compile time than its own code, and a few hundred files do, in
# both of CI's builds. Two precompiled sets, each compiled once per build and reused by the
# targets that name it with qs_precompiled_headers(TARGET SET):
#   qtcore   Qt Core (the widget-free floor, the CLI, their tests)
#   widgets  Qt Core, Qt Widgets and QCustomPlot (the widgets, the window, their tests)
# GCC uses a precompiled header only where every macro defined when it was built is defined
# the same way, so each set's holder links the Qt modules that all of its users link (each
# module defines QT_<MODULE>_LIB) and no other. ccache caches the headers and the files built
# with them across clones (scripts/setup.sh sets the sloppiness that needs).
# -DQS_PCH=OFF builds without them (e.g. to check that every file includes what it uses).
option(QS_PCH "Precompile the Qt and QCustomPlot headers" ON)

if(QS_PCH AND NOT QS_FUZZ)
  set(qs_pch_anchor ${CMAKE_CURRENT_LIST_DIR}/pch_anchor.cpp)
  add_library(qs_pch_qtcore STATIC ${qs_pch_anchor})
  target_link_libraries(qs_pch_qtcore PRIVATE Qt6::Core)
  target_precompile_headers(qs_pch_qtcore PRIVATE <QtCore>)
  add_library(qs_pch_widgets STATIC ${qs_pch_anchor})
  target_link_libraries(qs_pch_widgets PRIVATE Qt6::Widgets)
  # qcustomplot.h includes Qt Print Support's headers: their folder, not the module's define.
  target_include_directories(qs_pch_widgets SYSTEM PRIVATE
      $<TARGET_PROPERTY:Qt6::PrintSupport,INTERFACE_INCLUDE_DIRECTORIES>)
  target_precompile_headers(qs_pch_widgets PRIVATE <QtCore> <QtWidgets> <qcustomplot.h>)
endif()

# qs_precompiled_headers(TARGET qtcore|widgets): TARGET's files start with that set.
function(qs_precompiled_headers target set)
  if(TARGET qs_pch_${set})
    target_precompile_headers(${target} REUSE_FROM qs_pch_${set})
  endif()
endfunction()
