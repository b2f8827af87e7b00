#!/usr/bin/env bash
# The whole suite: generated types, types, lint, layer rules, unit and component tests, server tests on SQLite
# and PostgreSQL, then the built panel driven in Chromium against the real server.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsx scripts/build/manifest-types.ts

# The server files start at once and run beside everything else, one file at a time: they need neither the build
# nor the browser, and they spend much of their time waiting on sockets and databases. The browser files run after
# the build, one at a time: never two browser files (two Chromiums and two servers on two cores made MUI menus miss
# their 30 s). Every file has its own port, data directory and PostgreSQL database. The server files' report is
# printed when all is done, after the browser files' report.
server_log="$(mktemp)"
e2e_log="$(mktemp)"
server_pid=""
stop_server_files() {
  if [ -n "$server_pid" ]; then kill -- "-$server_pid" 2>/dev/null || true; fi
  rm -f "$server_log" "$e2e_log"
}
trap stop_server_files EXIT
# A process group of its own, so a failed step stops the whole of it.
setsid npx vitest run --project server >"$server_log" 2>&1 &
server_pid=$!
echo "Server files run alongside the other steps; their report follows at the end."

npx tsc --noEmit -p tsconfig.json
npx eslint .
npx depcruise kernel server src overrides scripts tests bench vite.config.ts
# The API document read from the routes: Spectral and Redocly, 0 errors and 0 warnings.
npx tsx scripts/lint-openapi.ts
npx vite build --logLevel warn
npx vitest run --project unit

e2e_status=0
npx vitest run --project e2e 2>&1 | tee "$e2e_log" || e2e_status=$?
server_status=0
wait "$server_pid" || server_status=$?
server_pid=""
cat "$server_log"
# A run's last lines are what a reader of a CI log sees first: when a browser file failed, its failures are
# printed again after the server files' report.
if [ "$e2e_status" -ne 0 ] && grep -q "Failed Tests" "$e2e_log"; then
  echo "Browser files' failures, again:"
  sed -n '/Failed Tests/,$p' "$e2e_log"
fi
if [ "$e2e_status" -ne 0 ] || [ "$server_status" -ne 0 ]; then
  echo "Failed: browser files exit $e2e_status, server files exit $server_status" >&2
  exit 1
fi
