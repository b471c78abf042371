# check_layers: the build's guard that generic code sees a game only through engine/game.h.
#
#   cmake -DROOT=<source dir> [-DFILES=a.c;b.h] -P tools/check_layers.cmake
#
# Every quoted #include in the generic layers must name a header (no path) that lives in a
# folder that layer may read: engine/ (the generic game code, never a game's own folder),
# search/, protocol/, and tools/arena/ for the arena. A game's headers (engine/<game>/) are out
# of reach, so search, protocol and the arena cannot depend on one game. Fails with one line a
# violation. FILES, when given, checks those files instead of the tree (the test of this check).
if(NOT ROOT)
  message(FATAL_ERROR "check_layers: give -DROOT=<source dir>")
endif()
set(layers
  "engine/*.[ch]|engine"
  "search/*.[ch]|engine,search"
  "protocol/*.[ch]|engine,search,protocol"
  "tools/arena/*.[ch]|engine,search,protocol,tools/arena"
  "tools/picket-arena.c|engine,search,protocol,tools/arena"
  "tools/picket-engine.c|engine,search,protocol")
set(bad 0)
foreach(layer ${layers})
  string(REPLACE "|" ";" parts "${layer}")
  list(GET parts 0 pattern)
  list(GET parts 1 allowed)
  string(REPLACE "," ";" allowed "${allowed}")
  if(FILES)
    set(files ${FILES})
  else()
    file(GLOB files RELATIVE ${ROOT} ${ROOT}/${pattern})
  endif()
  foreach(f ${files})
    if(FILES)
      # The test names each file with the layer it stands for, as "layer-glob=path".
      string(FIND "${f}" "=" eq)
      string(SUBSTRING "${f}" 0 ${eq} fpattern)
      if(NOT fpattern STREQUAL pattern)
        continue()
      endif()
      math(EXPR from "${eq} + 1")
      string(SUBSTRING "${f}" ${from} -1 path)
    else()
      set(path ${ROOT}/${f})
    endif()
    file(STRINGS ${path} includes REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    foreach(line ${includes})
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]*)\".*" "\\1" header "${line}")
      set(found 0)
      if(NOT header MATCHES "/")
        foreach(dir ${allowed})
          if(EXISTS ${ROOT}/${dir}/${header})
            set(found 1)
          endif()
        endforeach()
      endif()
      if(NOT found)
        message(SEND_ERROR "check_layers: ${path} includes \"${header}\", outside what its layer may see (${allowed})")
        set(bad 1)
      endif()
    endforeach()
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "check_layers: generic code must see games only through engine/game.h")
endif()
