#!/bin/sh
# A statusLine command for tests: `sh statusline-recorder.sh DIR [COMMAND ARGS...]`.
# Saves the JSON Claude Code writes to its stdin as DIR/in-<id>.json, then either runs COMMAND on
# that JSON or (no COMMAND) prints a known line, `GI-STATUSLINE <id>`; what it printed is also saved
# as DIR/out-<id>.txt, so a test can compare the screen with it. <id> is nanoseconds-pid: the names
# sort in call order, and two calls at once (Claude Code does not wait for the previous one) never
# share a file.
dir=$1
shift
mkdir -p "$dir"
id=$(date +%s%N)-$$
cat >"$dir/in-$id.json.part"
mv "$dir/in-$id.json.part" "$dir/in-$id.json"
if [ $# -gt 0 ]; then
  "$@" <"$dir/in-$id.json" >"$dir/out-$id.txt.part"
  status=$?
else
  printf 'GI-STATUSLINE %s\n' "$id" >"$dir/out-$id.txt.part"
  status=0
fi
mv "$dir/out-$id.txt.part" "$dir/out-$id.txt"
cat "$dir/out-$id.txt"
exit $status
