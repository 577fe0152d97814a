#!/usr/bin/env bash
# Embedded single-node OpenSearch for local development (no Docker).
#
#   scripts/opensearch.sh start|stop|restart|status|run|build
#
# Env:
#   OPENSEARCH_HTTP_PORT       (9200)
#   OPENSEARCH_TRANSPORT_PORT  (9300)
#   OPENSEARCH_DATA_DIR        (<repo>/var/opensearch)  data/, logs/, opensearch.pid, opensearch.log
#   OPENSEARCH_HEAP            ("-Xms512m -Xmx1g")
#   OPENSEARCH_JAVA_OPTS       extra JVM flags
#   OPENSEARCH_START_TIMEOUT   seconds to wait for yellow (180)
#   OPENSEARCH_JAVA_HOME       JDK to use (default: JDK 17 if installed, else $JAVA_HOME, else java on PATH)
#   A node of a cluster on this machine instead of a single node (each with its own ports/data dir):
#   OPENSEARCH_SEED_HOSTS      transport addresses of the cluster's nodes, comma-separated (127.0.0.1:9300,127.0.0.1:9301)
#   OPENSEARCH_NODE_NAME       this node's name (unique in the cluster)
#   OPENSEARCH_INITIAL_MANAGERS  node names that bootstrap a new cluster, comma-separated (all cluster-manager nodes)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL_DIR="$ROOT/tools/opensearch"
JAR="$TOOL_DIR/target/opensearch-launcher.jar"
HTTP_PORT="${OPENSEARCH_HTTP_PORT:-9200}"
TRANSPORT_PORT="${OPENSEARCH_TRANSPORT_PORT:-9300}"
DATA_DIR="${OPENSEARCH_DATA_DIR:-$ROOT/var/opensearch}"
mkdir -p "$DATA_DIR"
DATA_DIR="$(cd "$DATA_DIR" && pwd)"
PID_FILE="$DATA_DIR/opensearch.pid"
LOG_FILE="$DATA_DIR/opensearch.log"
HEAP="${OPENSEARCH_HEAP:--Xms512m -Xmx1g}"
START_TIMEOUT="${OPENSEARCH_START_TIMEOUT:-180}"
URL="http://127.0.0.1:$HTTP_PORT"
MAIN_CLASS="lookup.opensearch.EmbeddedOpenSearch"

# OpenSearch 2.19 is built/tested for JDK 17/21; don't pick up a newer default JDK by accident.
if [[ -n "${OPENSEARCH_JAVA_HOME:-}" ]]; then
  JDK="$OPENSEARCH_JAVA_HOME"
elif [[ -x /usr/lib/jvm/java-17-openjdk-amd64/bin/java ]]; then
  JDK=/usr/lib/jvm/java-17-openjdk-amd64
elif [[ -n "${JAVA_HOME:-}" ]]; then
  JDK="$JAVA_HOME"
else
  JDK="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
fi
JAVA="$JDK/bin/java"

log() { echo "opensearch: $*"; }

health() { # prints cluster status (green/yellow/red) or nothing
  curl -s -m 5 "$URL/_cluster/health?wait_for_status=yellow&timeout=1s" 2>/dev/null \
    | grep -o '"status":"[a-z]*"' | cut -d'"' -f4 || true
}

answers() { curl -s -o /dev/null -m 3 "$URL/" 2>/dev/null; }

managed_pid() { # pid from the pid file, only if that process is still our launcher
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(cat "$PID_FILE")"
  [[ -n "$pid" ]] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "$MAIN_CLASS" || return 1
  echo "$pid"
}

build() {
  # Rebuild only when the jar is missing or older than the sources; try offline first (fast, no network).
  if [[ -f "$JAR" && -d "$TOOL_DIR/target/lib" ]] && [[ -z "$(find "$TOOL_DIR/pom.xml" "$TOOL_DIR/src" -newer "$JAR" -print -quit)" ]]; then
    return 0
  fi
  log "building launcher (mvn package)..."
  # clean: copy-dependencies never deletes stale jars from target/lib (two versions = jar hell).
  local mvn=(mvn -q -B -Dstyle.color=never -f "$TOOL_DIR/pom.xml" clean package)
  JAVA_HOME="$JDK" "${mvn[@]}" -o >/dev/null 2>&1 || JAVA_HOME="$JDK" "${mvn[@]}"
}

java_cmd() {
  # Flags mirror the relevant parts of the OpenSearch distribution's jvm.options.
  # shellcheck disable=SC2206
  local heap=($HEAP) extra=(${OPENSEARCH_JAVA_OPTS:-})
  CMD=("$JAVA" "${heap[@]}"
    -XX:+ExitOnOutOfMemoryError
    -Djava.awt.headless=true -Dfile.encoding=UTF-8 -Djna.nosys=true
    -Dio.netty.noUnsafe=true -Dio.netty.noKeySetOptimization=true
    -Dio.netty.recycler.maxCapacityPerThread=0 -Dio.netty.allocator.numDirectArenas=0
    -Dlog4j.shutdownHookEnabled=false -Dlog4j2.disable.jmx=true
    "${extra[@]}"
    -cp "$JAR:$TOOL_DIR/target/lib/*" "$MAIN_CLASS"
    "--data-dir=$DATA_DIR" "--http-port=$HTTP_PORT" "--transport-port=$TRANSPORT_PORT")
  if [[ -n "${OPENSEARCH_SEED_HOSTS:-}" ]]; then
    CMD+=(-Ediscovery.type=zen "-Ediscovery.seed_hosts=$OPENSEARCH_SEED_HOSTS"
      "-Enode.name=${OPENSEARCH_NODE_NAME:?OPENSEARCH_NODE_NAME is needed with OPENSEARCH_SEED_HOSTS}"
      "-Ecluster.initial_cluster_manager_nodes=${OPENSEARCH_INITIAL_MANAGERS:-$OPENSEARCH_NODE_NAME}")
  fi
}

wait_ready() { # $1 = pid
  local pid="$1" deadline=$((SECONDS + START_TIMEOUT)) status
  while ((SECONDS < deadline)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      log "process $pid exited during startup; last log lines ($LOG_FILE):"
      tail -n 40 "$LOG_FILE" >&2 || true
      rm -f "$PID_FILE"
      return 1
    fi
    status="$(health)"
    if [[ "$status" == green || "$status" == yellow ]]; then
      log "up at $URL (cluster $status, pid $pid, ${SECONDS}s)"
      return 0
    fi
    sleep 1
  done
  log "not yellow after ${START_TIMEOUT}s; last log lines ($LOG_FILE):"
  tail -n 40 "$LOG_FILE" >&2 || true
  return 1
}

start() {
  local pid
  if pid="$(managed_pid)"; then
    answers || log "pid $pid is already starting, waiting..."
    wait_ready "$pid"
    return
  fi
  if answers; then
    log "something already answers on $URL (not started by this script); leaving it alone"
    return 0
  fi
  build
  [[ -f "$LOG_FILE" ]] && mv -f "$LOG_FILE" "$LOG_FILE.1"
  java_cmd
  nohup "${CMD[@]}" >"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$PID_FILE"
  log "started pid $pid, log $LOG_FILE; waiting for yellow (max ${START_TIMEOUT}s)..."
  wait_ready "$pid"
}

stop() {
  local pid
  if ! pid="$(managed_pid)"; then
    rm -f "$PID_FILE"
    if answers; then
      log "something answers on $URL but was not started by this script (no live pid file); not stopping it"
    else
      log "not running"
    fi
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$PID_FILE"; log "stopped (pid $pid)"; return 0; }
    sleep 0.5
  done
  log "pid $pid did not exit after 30s, sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$PID_FILE"
}

status() {
  local pid s
  s="$(health)"
  if pid="$(managed_pid)"; then
    log "running (pid $pid) at $URL, cluster ${s:-not ready}"
  elif answers; then
    log "running at $URL (not managed by this script), cluster ${s:-unknown}"
  else
    log "stopped"
    return 3
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  restart) stop && start ;;
  status) status ;;
  build) build ;;
  run) build && java_cmd && exec "${CMD[@]}" ;; # foreground, logs to the terminal
  *) echo "usage: $0 {start|stop|restart|status|run|build}" >&2; exit 2 ;;
esac
