#!/usr/bin/env bash
# The published JSON Schemas (issue 41) read by Python's jsonschema from
# PyPI, in a venv kept between runs: the served demo's exported match
# results and game records validate, and broken records do not. Run after
# the tests, which built target/debug/boneyard.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${HOME}/.cache/boneyard-ci/venv"
if ! "$venv/bin/python" -c 'import jsonschema' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check jsonschema
fi
binary="${CARGO_TARGET_DIR:-target}/debug/boneyard"
[ -x "$binary" ] || cargo build -q
work=$(mktemp -d)
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --demo --listen "127.0.0.1:$port" --database "sqlite://$work/demo.db" >"$work/log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 240); do
  timeout 1 bash -c "</dev/tcp/127.0.0.1/$port" 2>/dev/null && break
  kill -0 $server 2>/dev/null || { cat "$work/log" >&2; exit 1; }
  sleep 0.5
done
"$venv/bin/python" .ci/schemas.py "http://127.0.0.1:$port" "$work/demo.db" examples
