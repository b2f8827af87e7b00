#!/usr/bin/env bash
# The whole suite: generated types, types, lint, layer rules, unit and component tests, server tests on SQLite
# and PostgreSQL, then the built panel driven in Chromium against the real server.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsx scripts/build/manifest-types.ts
npx tsc --noEmit -p tsconfig.json
npx eslint .
npx depcruise kernel server src overrides scripts tests bench vite.config.ts
npx vite build --logLevel warn
npx vitest run
