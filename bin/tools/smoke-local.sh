#!/usr/bin/env bash
# `npm run smoke:local`: `npm start` on a free port with a fresh in-memory database, then
# `npm run smoke` against it with company 1's admin key, then the stage stops. CI runs it.
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
port=$(node -e "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})")
PORT=$port LOCAL_DIR="$dir" setsid npm start > "$dir/stage.log" 2>&1 &
stage=$!
trap 'kill -- -$stage 2>/dev/null || true; wait $stage 2>/dev/null || true; rm -rf "$dir"' EXIT
for _ in $(seq 1 120); do
  grep -q 'serving at' "$dir/stage.log" && break
  kill -0 $stage 2>/dev/null || { cat "$dir/stage.log"; exit 1; }
  sleep 1
done
grep -q 'serving at' "$dir/stage.log" || { echo 'the local stage did not start in 120 s'; cat "$dir/stage.log"; exit 1; }
key=$(node -p "require('$dir/dev-keys.json').companies[0].keys.admin")
npm run smoke --silent -- "http://127.0.0.1:$port" "$key"
