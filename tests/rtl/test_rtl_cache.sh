#!/usr/bin/env bash
# The on-demand build of Verilated models (tb/rtl/rtl_cache.h), in a cache of its own:
# two processes asking for one new model at once build it once and both run; a second run builds
# nothing; entries of other sources or another Verilator are marked by `rtl list` and removed by
# `rtl clean --unusable`, which keeps the rest; a corrupt entry is reported by `rtl list` and rebuilt,
# never loaded; Verilator missing
# from PATH and a failed build are exit 2 with one line (the log named), and leave nothing loadable;
# a build stopped by a signal stops its tools and removes its temporary directory; `rtl clean`
# removes the cache's own entries only, and none that a running build holds (a model's build holds
# the runtime it links against too) and the logs of failed builds; a cache moved under a path with
# a comma, a colon and a quote loads its models without a rebuild and builds new ones.
# Usage: test_rtl_cache.sh WORMCAST
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export WORMCAST_RTL_CACHE=$work/cache
fail=0
net=(--net torus:3x3 --vcs 1 --buf 2)
run() { "$bin" traffic "${net[@]}" --rate 0.1 --warmup 0 --measure 500 --seed 3 "$@" >/dev/null; }
builds() { grep -c "built the RTL model torus" "$@" | awk -F: '{s += $NF} END {print s + 0}'; }

# Two first uses at once: one build, both runs identical to SystemC.
run --router sc --deliveries "$work/sc.csv" || { echo "FAIL: the SystemC run"; fail=1; }
run --router rtl --deliveries "$work/a.csv" 2>"$work/a.err" & pa=$!
run --router rtl --deliveries "$work/b.csv" 2>"$work/b.err" & pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
[ $ra -eq 0 ] && [ $rb -eq 0 ] || { echo "FAIL: concurrent first uses exited $ra and $rb: $(cat "$work"/a.err "$work"/b.err)"; fail=1; }
n=$(builds "$work/a.err" "$work/b.err")
[ "$n" -eq 1 ] || { echo "FAIL: two concurrent first uses built the model $n times, want 1"; fail=1; }
for f in a b; do
  cmp -s "$work/sc.csv" "$work/$f.csv" || { echo "FAIL: run $f differs from SystemC"; fail=1; }
done
ls "$WORMCAST_RTL_CACHE" | grep -q '^\.tmp-' && { echo "FAIL: a temporary directory is left in the cache"; fail=1; }
echo "concurrent first uses: $n build, both traces equal to SystemC ($(($(wc -l <"$work/sc.csv") - 1)) flits)"

# A second run builds nothing.
run --router rtl --deliveries "$work/c.csv" 2>"$work/c.err" || { echo "FAIL: the second run"; fail=1; }
[ "$(builds "$work/c.err")" -eq 0 ] || { echo "FAIL: the second run built the model again"; fail=1; }

# Entries this program never loads: copies of the model whose keys name other Verilog sources and
# another Verilator (each under its key's own name, so that it passes the check a load makes) are
# listed with the reason; `rtl clean --unusable` removes them and keeps the model and the runtime,
# which then load without a rebuild.
model=$(ls -d "$WORMCAST_RTL_CACHE"/torus-*/ | head -1)
model=${model%/}
python3 - "$model" <<'PY' >"$work/crafted.txt" || { echo "FAIL: crafting entries of other sources"; fail=1; }
import json, os, shutil, sys
def fnv(text):  # tb/rtl/rtl_cache.cpp's Hash::add(std::string): the text, then one zero byte
    h, m, b = 1469598103934665603, (1 << 64) - 1, text.encode()
    i = 0
    while i + 8 <= len(b):
        h = ((h ^ int.from_bytes(b[i:i + 8], "little")) * 1099511628211) & m
        h ^= h >> 29
        i += 8
    for c in b[i:] + b"\0":
        h = ((h ^ c) * 1099511628211) & m
    return "%016x" % h
src = sys.argv[1]
meta = json.load(open(os.path.join(src, "meta.json")))
assert os.path.basename(src) == "torus-" + fnv(meta["key"]), "the test's hash is not the cache's"
for tag, old, new in (("sources", "\nrtl ", "\nrtl 0:"), ("verilator", "\nverilator ", "\nverilator 0.0 ")):
    m = dict(meta, key=meta["key"].replace(old, new, 1))
    dst = os.path.join(os.path.dirname(src), "torus-" + fnv(m["key"]))
    shutil.copytree(src, dst)
    json.dump(m, open(os.path.join(dst, "meta.json"), "w"))
    print(tag, os.path.basename(dst))
PY
"$bin" rtl list >"$work/list.txt" || { echo "FAIL: rtl list"; fail=1; }
[ "$(grep -c "built from other Verilog sources: never loaded by this program" "$work/list.txt")" -eq 1 ] \
  && [ "$(grep -c "built by another Verilator: never loaded" "$work/list.txt")" -eq 1 ] \
  && [ "$(grep -c "never loaded" "$work/list.txt")" -eq 2 ] && ! grep -q "$(basename "$model").*never loaded" "$work/list.txt" \
  || { echo "FAIL: rtl list does not mark exactly the two entries of other sources: $(cat "$work/list.txt")"; fail=1; }
out=$("$bin" rtl clean --unusable 2>&1) || { echo "FAIL: rtl clean --unusable: $out"; fail=1; }
case "$out" in "removed 2 entries from $WORMCAST_RTL_CACHE; kept 2 entries that this program loads") ;;
  *) echo "FAIL: rtl clean --unusable: $out (want 2 removed, the model and the runtime kept)"; fail=1 ;; esac
[ "$(ls -d "$WORMCAST_RTL_CACHE"/torus-*/ | wc -l)" -eq 1 ] && [ -d "$model" ] \
  || { echo "FAIL: rtl clean --unusable left $(ls "$WORMCAST_RTL_CACHE")"; fail=1; }
run --router rtl --deliveries "$work/kept.csv" 2>"$work/kept.err" || { echo "FAIL: the run after clean --unusable"; fail=1; }
[ "$(builds "$work/kept.err")" -eq 0 ] && cmp -s "$work/sc.csv" "$work/kept.csv" \
  || { echo "FAIL: the kept model was rebuilt or its trace differs"; fail=1; }
# (Their lock files stay, as after any clean: gone, they leave the sections below one model.)
while read -r _ name; do rm -f "$WORMCAST_RTL_CACHE/$name.lock"; done <"$work/crafted.txt"
echo "entries of other sources and another Verilator: marked by rtl list, removed by rtl clean --unusable"

# The cache moved, under a path with a comma, a colon and a quote: its models load from there
# (each finds its runtime beside it) without a rebuild, and a new model builds there.
odd=$work/'c,o:p"y'
entry0=$(ls -d "$WORMCAST_RTL_CACHE"/torus-* | head -1)
mv "$WORMCAST_RTL_CACHE" "$odd"
WORMCAST_RTL_CACHE=$odd run --router rtl --deliveries "$work/moved.csv" 2>"$work/moved.err" \
  || { echo "FAIL: the moved cache: $(cat "$work/moved.err")"; fail=1; }
[ "$(builds "$work/moved.err")" -eq 0 ] || { echo "FAIL: the moved cache rebuilt its model"; fail=1; }
cmp -s "$work/sc.csv" "$work/moved.csv" || { echo "FAIL: the moved cache's trace differs"; fail=1; }
WORMCAST_RTL_CACHE=$odd "$bin" traffic --net torus:3x2 --vcs 1 --buf 2 --rate 0.1 --warmup 0 --measure 300 --router rtl \
  >/dev/null 2>"$work/odd.err" || { echo "FAIL: a build under '$odd': $(cat "$work/odd.err")"; fail=1; }
for e in "$odd"/torus-*; do  # the 3x2 model is not needed further on
  cmp -s <(basename "$e") <(basename "$entry0") || rm -rf "$e" "$odd/logs/$(basename "$e").log" "$e.lock"
done
mv "$odd" "$WORMCAST_RTL_CACHE"
echo "the cache moved under a path with , : and \": loaded without a rebuild, a new model built there"
# A '$' in the path (a token to the dynamic loader): refused up front, exit 2, one line.
err=$(WORMCAST_RTL_CACHE="$work/c\$ORIGIN" "$bin" rtl build --net torus:3x2 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [ ! -e "$work/c\$ORIGIN" ] \
  && case "$err" in *"without '\$'"*) true ;; *) false ;; esac \
  || { echo "FAIL: a cache path with a '\$': exit $rc: $err"; fail=1; }
# An option and a --set of the same key with different values: refused before any build, as wormcast
# traffic refuses them (the --set won silently).
err=$(WORMCAST_RTL_CACHE="$work/conflict" "$bin" rtl build --net torus:3x2 --vcs 2 --set router.vcs_per_class=3 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$work/conflict" ] && case "$err" in *"conflicts with router.vcs_per_class = '2'"*) true ;; *) false ;; esac \
  || { echo "FAIL: rtl build --vcs 2 --set router.vcs_per_class=3: exit $rc: $err"; fail=1; }
mkdir -p "$work/d\$ORIGIN"  # a relative path under such a working directory: refused the same way
err=$(cd "$work/d\$ORIGIN" && WORMCAST_RTL_CACHE=rel "$bin" rtl build --net torus:3x2 2>&1); rc=$?
[ $rc -eq 2 ] && [ ! -e "$work/d\$ORIGIN/rel" ] || { echo "FAIL: a relative cache path under a '\$': exit $rc: $err"; fail=1; }

# An entry copied under another entry's name (its files whole, its key another directory's): listed
# as failing its check, the original still as valid.
cp -r "$entry0" "$WORMCAST_RTL_CACHE/torus-0123456789abcdef"
"$bin" rtl list >"$work/list.txt" || { echo "FAIL: rtl list"; fail=1; }
grep -q "torus-0123456789abcdef.*corrupt" "$work/list.txt" && ! grep -q "$(basename "$entry0").*corrupt" "$work/list.txt" \
  || { echo "FAIL: rtl list on an entry under another name: $(cat "$work/list.txt")"; fail=1; }
rm -rf "$WORMCAST_RTL_CACHE/torus-0123456789abcdef"
# An entry whose record's key is not text: listed as failing its check (rtl list aborted).
cp -r "$entry0" "$WORMCAST_RTL_CACHE/torus-0123456789abcdef"
sed -i -E 's/"key": "([^"\\]|\\.)*"/"key": 5/' "$WORMCAST_RTL_CACHE/torus-0123456789abcdef/meta.json"
grep -q '"key": 5' "$WORMCAST_RTL_CACHE/torus-0123456789abcdef/meta.json" || { echo "FAIL: the test's key edit"; fail=1; }
"$bin" rtl list >"$work/list.txt" 2>&1 && grep -q "torus-0123456789abcdef.*corrupt" "$work/list.txt" \
  || { echo "FAIL: rtl list on an entry with a numeric key: $(cat "$work/list.txt")"; fail=1; }
rm -rf "$WORMCAST_RTL_CACHE/torus-0123456789abcdef"
# Without WORMCAST_RTL_CACHE, XDG_CACHE_HOME and HOME the cache is under the user's home directory
# from the password database, never a shared one such as /tmp.
home=$(getent passwd "$(id -u)" | cut -d: -f6)
if [ -n "$home" ] && [ "${home#/}" != "$home" ]; then
  out=$(env -u WORMCAST_RTL_CACHE -u XDG_CACHE_HOME -u HOME "$bin" rtl list 2>&1) \
    && case "$out" in *"$home/.cache/wormcast/rtl"*) true ;; *) false ;; esac \
    || { echo "FAIL: rtl list without HOME: $out"; fail=1; }
fi

# A corrupt entry (the shared object truncated): listed as such, rebuilt on use, never loaded.
entry=$(ls -d "$WORMCAST_RTL_CACHE"/torus-* | head -1)
truncate -s 4096 "$entry/model.so"
"$bin" rtl list >"$work/list.txt" || { echo "FAIL: rtl list"; fail=1; }
grep -q "$(basename "$entry").*corrupt" "$work/list.txt" || { echo "FAIL: rtl list does not flag the corrupt entry: $(cat "$work/list.txt")"; fail=1; }
run --router rtl --deliveries "$work/d.csv" 2>"$work/d.err" || { echo "FAIL: the run after corruption: $(cat "$work/d.err")"; fail=1; }
[ "$(builds "$work/d.err")" -eq 1 ] || { echo "FAIL: the corrupt entry was not rebuilt"; fail=1; }
cmp -s "$work/sc.csv" "$work/d.csv" || { echo "FAIL: the rebuilt model's trace differs"; fail=1; }
# A record of another format: rebuilt too (checked through rtl list, which loads nothing).
sed -i -E 's/"format": [0-9]+/"format": 0/' "$entry/meta.json"
"$bin" rtl list | grep -q "$(basename "$entry") .*torus.*(another cache format: never loaded, rebuilt if a run asks for it" \
  || { echo "FAIL: a record of another format is not flagged with its description"; fail=1; }
echo "corrupt entries: flagged and rebuilt"
# A cache the user cannot write (a shared one): a corrupt entry there is refused with that reason,
# and `rtl clean` finds nothing to remove beside a lone lock file. (As root: run as nobody.)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
  ro=$(mktemp -d /tmp/wc-ro.XXXXXX)
  cp -a "$WORMCAST_RTL_CACHE/." "$ro/"
  ro_entry=$(ls -d "$ro"/torus-* | head -1)
  truncate -s 4096 "$ro_entry/model.so"
  chmod -R a+rX,go-w "$ro"
  if nobody test -x "$bin"; then
    err=$(WORMCAST_RTL_CACHE=$ro nobody "$bin" traffic "${net[@]}" --rate 0.1 --warmup 0 --measure 100 --router rtl 2>&1); rc=$?
    [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] \
      && case "$err" in *"fails its check and is to be rebuilt"*"writable cache"*) true ;; *) false ;; esac \
      || { echo "FAIL: a corrupt entry in a read-only cache: exit $rc: $err"; fail=1; }
    mkdir "$ro/lone" && touch "$ro/lone/torus-22fe25f868532a48.lock" && chmod -R a+rX,go-w "$ro/lone"
    err=$(WORMCAST_RTL_CACHE=$ro/lone nobody "$bin" rtl clean 2>&1); rc=$?
    [ $rc -eq 0 ] && case "$err" in *"cannot remove"*) false ;; *) true ;; esac \
      || { echo "FAIL: rtl clean of a read-only cache with a lone lock file: exit $rc: $err"; fail=1; }
    echo "a read-only cache: its corrupt entry refused with its reason, a lone lock file left alone"
  else
    echo "skipped: the program is not reachable as another user"
  fi
  rm -rf "$ro"
fi

# Verilator missing from PATH: exit 2, one line saying so, no entry.
mkdir -p "$work/nopath"
err=$(PATH=$work/nopath WORMCAST_RTL_CACHE=$work/cache2 "$bin" traffic --net torus:4x3 --router rtl --measure 100 \
  --json "$work/none.json" 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || { echo "FAIL: without Verilator exited $rc, want 2"; fail=1; }
case "$err" in *"needs Verilator"*"not on PATH"*"apt-get install verilator"*) ;;
  *) echo "FAIL: the error does not say Verilator is missing and how to install it: $err"; fail=1 ;; esac
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "FAIL: more than one line: $err"; fail=1; }
[ ! -e "$work/none.json" ] || { echo "FAIL: output left behind"; fail=1; }

# A failed build (Verilator fails): exit 2, one line naming the log; nothing loadable left.
cat >"$work/nopath/verilator" <<SH
#!/bin/sh
[ "\$1" = --version ] && exec "$(command -v verilator)" "\$@"
[ "\$1" = --getenv ] && exec "$(command -v verilator)" "\$@"
echo "%Error: a failure of this test"; exit 1
SH
chmod +x "$work/nopath/verilator"
err=$(WORMCAST_VERILATOR=$work/nopath/verilator "$bin" traffic --net torus:4x3 --router rtl --measure 100 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] || { echo "FAIL: a failed build exited $rc, want 2"; fail=1; }
case "$err" in *"failed at Verilator"*"a failure of this test"*"log: "*) ;;
  *) echo "FAIL: the error does not name the step, the cause and the log: $err"; fail=1 ;; esac
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || { echo "FAIL: more than one line: $err"; fail=1; }
log=${err##*log: }
[ -s "$log" ] || { echo "FAIL: the log $log is missing"; fail=1; }
n=$(find "$WORMCAST_RTL_CACHE" -mindepth 1 -maxdepth 1 -type d \( -name '.tmp-*' -o -name 'torus-*' \) | wc -l)
[ "$n" -eq 1 ] || { echo "FAIL: the failed build left $n entries or temporaries (want only the 3x3 model)"; ls -a "$WORMCAST_RTL_CACHE"; fail=1; }
echo "missing Verilator and a failed build: exit 2, one line, nothing loadable left"

# A build stopped by SIGTERM sent to the program alone (not to its process group): its tools stop
# with it (none runs on in the cache afterwards) and its temporary directory goes.
"$bin" rtl build --net torus:5x3 --vcs 2 >"$work/stop.out" 2>&1 & ps_main=$!
tools() { ps -eo args= | grep -F -- "$WORMCAST_RTL_CACHE" | grep -v -e grep -e "rtl build" | wc -l; }
for _ in $(seq 600); do [ "$(tools)" -gt 0 ] && break; kill -0 $ps_main 2>/dev/null || break; sleep 0.1; done
if [ "$(tools)" -gt 0 ]; then
  kill -TERM $ps_main
  wait $ps_main; rc=$?
  [ $rc -eq 143 ] || { echo "FAIL: a stopped build exited $rc, want 143"; fail=1; }
  sleep 1
  [ "$(tools)" -eq 0 ] || { echo "FAIL: tools of a stopped build still run: $(ps -eo args= | grep -F -- "$WORMCAST_RTL_CACHE" | head -3)"; fail=1; }
  ls -a "$WORMCAST_RTL_CACHE" | grep -q '^\.tmp-' && { echo "FAIL: a stopped build left its temporary directory"; fail=1; }
  echo "a build stopped by SIGTERM: its tools stopped, its temporary directory removed"
else
  wait $ps_main
  echo "FAIL: no build tool was seen running"; fail=1
fi

# The same with a stand-in for Verilator that never ends on its own: the stop must reach the tool
# itself (a tool started with every signal blocked ran on, and the program waited for it).
# (A Python script: a shell would reset its own signal mask, as a compiler does not.)
printf '#!/usr/bin/python3\nimport time\nwhile True:\n    time.sleep(1)\n' >"$work/endless-verilator"
chmod +x "$work/endless-verilator"
endless() { ps -eo args= | grep -F -- "$work/endless-verilator" | grep -v grep | wc -l; }
WORMCAST_VERILATOR="$work/endless-verilator" "$bin" rtl build --net torus:5x4 --vcs 2 >"$work/endless.out" 2>&1 & ps_end=$!
for _ in $(seq 600); do [ "$(endless)" -gt 0 ] && break; kill -0 $ps_end 2>/dev/null || break; sleep 0.1; done
if [ "$(endless)" -gt 0 ]; then
  kill -TERM $ps_end
  # A hang detector, not a speed bound: without the stop reaching it the tool runs for ever.
  for _ in $(seq 300); do kill -0 $ps_end 2>/dev/null || break; sleep 0.1; done
  if kill -0 $ps_end 2>/dev/null; then
    echo "FAIL: 30 s after SIGTERM the program still waits for a tool that did not get the stop"; fail=1
    kill -KILL $ps_end
  fi
  wait $ps_end; rc=$?
  [ $rc -eq 143 ] || { echo "FAIL: a build stopped in an endless tool exited $rc, want 143"; fail=1; }
  sleep 1
  [ "$(endless)" -eq 0 ] || { echo "FAIL: the endless tool runs on after the stop"; fail=1; }
  pkill -KILL -f -- "$work/endless-verilator" 2>/dev/null
  echo "a build stopped in a tool that never ends: the tool stopped, the program ended"
else
  kill -KILL $ps_end 2>/dev/null; wait $ps_end 2>/dev/null
  echo "FAIL: the stand-in tool was never seen running: $(cat "$work/endless.out")"; fail=1
fi

# `rtl clean` while a model builds: the runtime the model links against and loads is held too,
# so the clean leaves it and the build ends well (it once removed the runtime, and the link failed).
"$bin" rtl build --net torus:5x3 --vcs 2 >"$work/held.out" 2>&1 & pb=$!
for _ in $(seq 1200); do
  ls -a "$WORMCAST_RTL_CACHE" | grep -q '^\.tmp-torus-' && break
  kill -0 $pb 2>/dev/null || break
  sleep 0.1
done
runtime=$(find "$WORMCAST_RTL_CACHE" -mindepth 1 -maxdepth 1 -type d -name 'runtime-*' | head -1)
out=$("$bin" rtl clean 2>&1)
wait $pb; rc=$?
[ -n "$runtime" ] && [ -d "$runtime" ] || { echo "FAIL: rtl clean removed the runtime a model build uses ($out)"; fail=1; }
[ $rc -eq 0 ] || { echo "FAIL: a model build with rtl clean beside it exited $rc: $(tail -2 "$work/held.out")"; fail=1; }
case "$out" in *"left 2 entries that a running build holds"*"; removed what 1 failed build left") ;;
  *) echo "FAIL: rtl clean during a model build: $out (want the model and the runtime held, one failed build's log counted)"; fail=1 ;; esac
[ ! -e "$log" ] || { echo "FAIL: rtl clean left the log of a failed build ($log)"; fail=1; }
echo "rtl clean during a model build: the runtime held, the build done; a failed build's log removed"

# `rtl clean` removes the cache's entries only: a file of the user's in the directory stays, an
# entry whose lock a running build holds stays (its build goes on), and the count is what went.
echo mine >"$WORMCAST_RTL_CACHE/notes.txt"
mkdir -p "$WORMCAST_RTL_CACHE/sub"
held=$(find "$WORMCAST_RTL_CACHE" -mindepth 1 -maxdepth 1 -type d -name 'torus-*' | head -1)
n_before=$(find "$WORMCAST_RTL_CACHE" -mindepth 1 -maxdepth 1 -type d -name '*-????????????????' | wc -l)
flock "$held.lock" sleep 30 & holder=$!
sleep 0.5
out=$("$bin" rtl clean 2>&1); rc=$?
kill $holder 2>/dev/null; wait $holder 2>/dev/null
[ $rc -eq 0 ] || { echo "FAIL: rtl clean exited $rc: $out"; fail=1; }
[ -s "$WORMCAST_RTL_CACHE/notes.txt" ] && [ -d "$WORMCAST_RTL_CACHE/sub" ] || { echo "FAIL: rtl clean removed files that are not the cache's"; fail=1; }
[ -d "$held" ] || { echo "FAIL: rtl clean removed an entry a build holds"; fail=1; }
case "$out" in "removed $((n_before - 1)) entr"*"left 1 entry that a running build holds; left 2 other files alone") ;;
  *) echo "FAIL: rtl clean's line (of $n_before entries, 1 held): $out"; fail=1 ;; esac
"$bin" rtl list | grep -q "^sub " && { echo "FAIL: rtl list names a directory that is not an entry"; fail=1; }
echo x >"$work/afile"
err=$(WORMCAST_RTL_CACHE=$work/afile "$bin" rtl clean 2>&1); rc=$?
[ $rc -eq 2 ] || { echo "FAIL: rtl clean of a cache that is a file exited $rc: $err"; fail=1; }
echo "rtl clean: only the cache's own entries, none a build holds"
# An m-way parameter set has no traced variant: rtl build --trace says so instead of building another.
err=$("$bin" rtl build --net mway:3x3 --trace 2>&1); rc=$?
[ $rc -eq 2 ] && case "$err" in *"--trace is invalid for an m-way"*) true ;; *) false ;; esac \
  || { echo "FAIL: rtl build --trace of an m-way set: exit $rc: $err"; fail=1; }

# A program refuses to build a model against headers other than the ones it was built with: laid
# out as an installation whose header snapshot carries another identity, exit 2 naming them; with
# its own identity the same installation loads the cached model.
prefix=$work/prefix
mkdir -p "$prefix/bin" "$prefix/share/wormcast" "$prefix/include"
cp "$bin" "$prefix/bin/wormcast"
cp -r "$(dirname "$0")/../../rtl" "$prefix/share/wormcast/rtl"
cp -r "$(dirname "$bin")/../rtl-include" "$prefix/include/wormcast"
"$prefix/bin/wormcast" rtl build "${net[@]}" >"$work/own.txt" 2>&1 || { echo "FAIL: an installation with its own headers: $(cat "$work/own.txt")"; fail=1; }
echo 0000 >"$prefix/include/wormcast/.snapshot-id"
err=$("$prefix/bin/wormcast" rtl build "${net[@]}" 2>&1); rc=$?
[ $rc -eq 2 ] && case "$err" in *"are not the ones this program was built with"*) true ;; *) false ;; esac \
  || { echo "FAIL: headers of another build: exit $rc: $err"; fail=1; }
echo "headers of another build: refused"

[ $fail -eq 0 ] && echo "all RTL cache checks passed"
exit $fail
