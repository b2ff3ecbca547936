# Shared by the RTL network tests (sourced): same LABEL FILE_A FILE_B MIN_LINES compares two
# delivery traces byte for byte and wants at least MIN_LINES rows; a failure sets fail=1.
same() {
  if ! cmp -s "$2" "$3"; then
    echo "FAIL: $1: traces differ"; diff "$2" "$3" | head -5; fail=1
  fi
  local rows
  rows=$(($(wc -l <"$2") - 1))
  if [ "$rows" -lt "$4" ]; then echo "FAIL: $1: only $rows lines, want >= $4"; fail=1; fi
  echo "$1: $rows lines, identical"
}
