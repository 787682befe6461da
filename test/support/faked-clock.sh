#!/bin/sh
# Runs a command with the clock moved: every process it starts (npm, Node and its workers,
# DynamoDB Local's JVM) reads the time TEST_CLOCK names (default 2027-06-01 09:00 UTC; anything
# `date -d` reads), ticking on from there. Needs Debian's faketime (apt-get install faketime);
# installs nothing. `npm run test:future` runs the suite this way; docs/testing.md says why.
set -eu
when=${TEST_CLOCK:-2027-06-01 09:00:00 UTC}
if ! command -v faketime >/dev/null 2>&1; then
  echo "faked-clock.sh: faketime is not installed (Debian: apt-get install faketime)" >&2
  exit 1
fi
target=$(date -d "$when" +%s)
now=$(date +%s)
[ "$target" -gt "$now" ] || echo "faked-clock.sh: note: $when is in the past (when the default is, move it forward)" >&2
# An offset, not a start time: each process, whenever it starts, reads the same moved clock.
offset=$((target - now))
spec=$([ "$offset" -ge 0 ] && echo "+${offset}s" || echo "${offset}s")
# The monotonic clocks move with it (libfaketime's default). Left alone (FAKETIME_DONT_FAKE_MONOTONIC),
# the JVM's timed waits return at once and spin: DynamoDB Local then takes minutes to start.
unset FAKETIME_DONT_FAKE_MONOTONIC DONT_FAKE_MONOTONIC
seen=$(faketime -f "$spec" date +%s)
if [ $((seen - target)) -gt 60 ] || [ $((target - seen)) -gt 60 ]; then
  echo "faked-clock.sh: faketime did not move the clock (date says $(date -u -d "@$seen"))" >&2
  exit 1
fi
echo "faked-clock.sh: the clock reads $(date -u -d "@$target" '+%Y-%m-%d %H:%M:%S UTC') (real time ${spec})" >&2
exec faketime -f "$spec" "$@"
