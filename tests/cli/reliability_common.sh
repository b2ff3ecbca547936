# Shared by the reliability tests (sourced; arguments of the test: BINARY SECTION): a scratch
# directory removed on exit, and the checks of a user error and of a JSON value.
set -u
bin=$1
section=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fail=0
cd "$work"

# expect_user_error WANT ARGS...: exit 2, one line on stderr containing WANT, nothing on stdout
# (each run at most ${user_error_timeout:-60} seconds).
expect_user_error() {
  local want=$1
  shift
  local out err rc
  out=$(timeout "${user_error_timeout:-60}" "$bin" "$@" 2>"$work/err")
  rc=$?
  err=$(cat "$work/err")
  if [ $rc -ne 2 ]; then echo "FAIL: $* exited $rc, want 2 ($err)"; fail=1; return; fi
  if [ -n "$out" ]; then echo "FAIL: $* wrote to stdout: $out"; fail=1; fi
  if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: $* error is not one line: $err"; fail=1; fi
  case "$err" in *"$want"*) ;; *) echo "FAIL: $* error does not say '$want': $err"; fail=1 ;; esac
}

json_value() { /usr/bin/python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(eval("j"+sys.argv[2]))' "$@"; }

# expect_refused WANT ARGS...: expect_user_error in an empty directory refused/ (a file named in
# ARGS is relative to it; files put there beforehand by the caller are kept), the line also names
# what is allowed, and no file is added there (no output, no temporary).
expect_refused() {
  mkdir -p "$work/refused"
  local before after
  before=$(ls -A "$work/refused" | tr '\n' ' ')
  cd "$work/refused"
  expect_user_error "$@"
  cd "$work"
  case "$(cat "$work/err")" in *allowed*) ;; *) echo "FAIL: ${*:2}: the line does not name what is allowed: $(cat "$work/err")"; fail=1 ;; esac
  after=$(ls -A "$work/refused" | tr '\n' ' ')
  [ "$after" = "$before" ] || { echo "FAIL: ${*:2} left files: before '$before', after '$after'"; fail=1; }
  rm -rf "$work/refused"
}
