#!/usr/bin/env bash
# Bring up local dev services: OpenSearch (embedded, via scripts/opensearch.sh), PostgreSQL, NATS.
# Postgres/NATS are only started if their port is closed. SKIP_OPENSEARCH=1 skips OpenSearch.
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
failed=0

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

wait_port() { # host port seconds
  local i
  for ((i = 0; i < $3 * 2; i++)); do port_open "$1" "$2" && return 0; sleep 0.5; done
  return 1
}

# $1 name, $2 port, $3... start command
ensure() {
  local name="$1" port="$2"; shift 2
  if port_open 127.0.0.1 "$port"; then
    printf '%-10s up       127.0.0.1:%s\n' "$name" "$port"
    return
  fi
  local out
  if out="$("$@" 2>&1)" && wait_port 127.0.0.1 "$port" 30; then
    printf '%-10s started  127.0.0.1:%s\n' "$name" "$port"
  else
    [[ -n "$out" ]] && echo "$out" >&2
    printf '%-10s FAILED   127.0.0.1:%s (start: %s)\n' "$name" "$port" "$*"
    failed=1
  fi
}

if [[ "${SKIP_OPENSEARCH:-0}" == 1 ]]; then
  printf '%-10s skipped  (SKIP_OPENSEARCH=1)\n' opensearch
elif out="$("$ROOT/scripts/opensearch.sh" start 2>&1)"; then
  printf '%-10s up       %s\n' opensearch "$(echo "$out" | tail -n 1 | sed 's/^opensearch: up at //')"
else
  echo "$out" >&2
  printf '%-10s FAILED   see %s\n' opensearch "${OPENSEARCH_DATA_DIR:-$ROOT/var/opensearch}/opensearch.log"
  failed=1
fi

pg_version="$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)"
ensure postgres 5432 pg_ctlcluster --skip-systemctl-redirect "$pg_version" main start
ensure nats 4222 start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- \
  -a 127.0.0.1 -p 4222 -js -sd /var/lib/nats-server -l /var/log/nats-server.log

exit "$failed"
