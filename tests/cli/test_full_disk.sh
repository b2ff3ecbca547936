#!/usr/bin/env bash
# A file system without room: a waveform (--vcd, --fst) that cannot be written whole is refused
# naming the user's path and the cause (exit 2, one line), and nothing is left behind. Needs a
# small tmpfs, which only root can mount: skipped (77) elsewhere.
set -u
bin=$1
work=$(mktemp -d)
trap 'cd /; umount "$work/small" 2>/dev/null; rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir "$work/small"
mount -t tmpfs -o size=64k tmpfs "$work/small" 2>/dev/null || { echo "SKIP: cannot mount a tmpfs (not root)"; exit 77; }
fail=0
cd "$work/small" || exit 1
for opt in "--vcd w.vcd|--vcd 'w.vcd': cannot write the waveform: No space left on device" \
           "--fst w.fst|--fst 'w.fst': cannot write the waveform: No space left on device"; do
  # shellcheck disable=SC2086
  "$bin" traffic --net torus:4x4 --measure 300 --set sim.progress=off ${opt%%|*} >/dev/null 2>"$work/err.txt"
  rc=$?
  [ $rc -eq 2 ] && [ "$(wc -l <"$work/err.txt")" -eq 1 ] && grep -qF -- "${opt#*|}" "$work/err.txt" \
    && [ -z "$(ls -A .)" ] || { echo "FAIL: [${opt%%|*}] on a full disk: exit $rc, $(cat "$work/err.txt"), left: $(ls -A .)"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: a full disk refuses --vcd and --fst with one line, nothing left"
exit $fail
