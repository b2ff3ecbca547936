# write_if_changed(PATH TEXT): writes TEXT to PATH only when PATH does not hold it already, so that
# a generated file's time stamp moves (and what depends on it rebuilds) only when it changes.
function(write_if_changed path text)
  set(old "")
  if(EXISTS ${path})
    file(READ ${path} old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${path} "${text}")
  endif()
endfunction()
