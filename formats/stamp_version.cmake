# Writes the project version and the git commit (with -dirty for uncommitted changes) into
# OUT, at every build, rewriting OUT only when it changes (so nothing relinks needlessly).
# Run by formats/CMakeLists.txt: cmake -DSOURCE_DIR=... -DVERSION=... -DOUT=... -P this file.
execute_process(COMMAND git describe --always --dirty --abbrev=12 --exclude=*
                WORKING_DIRECTORY ${SOURCE_DIR} OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR NOT commit)
  set(commit unknown)
endif()
set(text "// Generated at build time by formats/stamp_version.cmake.\n#define IRRCOLL_VERSION \"${VERSION}\"\n#define IRRCOLL_GIT_COMMIT \"${commit}\"\n")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
