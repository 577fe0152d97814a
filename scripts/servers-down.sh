#!/usr/bin/env bash
# Stops the embedded OpenSearch. PostgreSQL and NATS are system services and are left running.
set -euo pipefail
exec "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/opensearch.sh" stop
