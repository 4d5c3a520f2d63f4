#!/usr/bin/env bash
# The opening minute (deploy/bench/README.md, "The opening minute"), normally run as ./waitroom bench --opening-minute.
# Starts a fresh stack as ./waitroom run --demo does (its own data dir, its own ports), waits until it is ready, sends
# N brand-new browsers over S seconds (OpeningMinute.java), measures the same client against a constant-answer nginx,
# stops everything it started and exits. Loopback only; every step is bounded in time.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=nginx.sh
. "$here/nginx.sh"

usage() {
  cat >&2 <<'EOF'
usage: ./waitroom bench --opening-minute [--visitors N] [--seconds S] [--connections C] [--jitter J] [--seed X]
                        [--admission-rate R] [--max-active M] [--nginx-seconds S] [--client-threads T]
  --visitors N          distinct browsers (default 200000), each joining once, then polling
  --seconds S           the phase (default 60): N/3 arrive in the first S/6 (twice the average), the rest after
  --connections C       the client's connections to the gateway (default 512); arrivals never wait for them
  --jitter J            added to each pollAfterSeconds, up to J times it (default 0.3, as the waiting page)
  --seed X              the arrival schedule's seed (default 29)
  --admission-rate R    the event's maxAdmissionsPerSecond (default 20): the front moves, offers are made
  --max-active M        the event's maxActiveSessions (default 200)
  --nginx-seconds S     the client against the constant nginx, closed loop (default 10)
  --client-threads T    the client's event-loop threads (default 1)
environment: WAITROOM_JVM_FLAGS and every other launcher variable pass to the stack as to ./waitroom run;
  WAITROOM_PORT_OFFSET (default: the first free set of ports from offset 1000 up)
EOF
}

visitors=200000; seconds=60; connections=512; jitter=0.3; seed=29; rate=20; active=200; nginx_seconds=10; threads=1
while [ $# -gt 0 ]; do
  case "$1" in
    --opening-minute) ;;
    --visitors) visitors="${2:?}"; shift ;;
    --seconds) seconds="${2:?}"; shift ;;
    --connections) connections="${2:?}"; shift ;;
    --jitter) jitter="${2:?}"; shift ;;
    --seed) seed="${2:?}"; shift ;;
    --admission-rate) rate="${2:?}"; shift ;;
    --max-active) active="${2:?}"; shift ;;
    --nginx-seconds) nginx_seconds="${2:?}"; shift ;;
    --client-threads) threads="${2:?}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "opening-minute: unknown option $1" >&2; usage; exit 64 ;;
  esac
  shift
done
for v in visitors seconds connections seed rate active nginx_seconds threads; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "opening-minute: --${v//_/-} must be a positive integer" >&2; exit 64; }
done
[[ "$jitter" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "opening-minute: --jitter must be a number such as 0.3" >&2; exit 64; }
[ "$seconds" -ge 6 ] || { echo "opening-minute: --seconds must be at least 6 (the rush is the first sixth)" >&2; exit 64; }
[ "$visitors" -le 2000000 ] || { echo "opening-minute: at most 2000000 visitors" >&2; exit 64; }
log() { echo "opening-minute: $*" >&2; }

# --- tools -------------------------------------------------------------------------------------------------------
nginx_bin="$(command -v nginx || true)"; [ -n "$nginx_bin" ] || { [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx; }
if [ -z "$nginx_bin" ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    log "installing nginx-light (apt-get) ..."
    { apt-get install -y nginx-light || { apt-get update && apt-get install -y nginx-light; }; } >&2 \
      || { echo "opening-minute: could not install nginx-light" >&2; exit 2; }
    nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
  else
    echo "opening-minute: needs nginx; install it with: sudo apt-get install -y nginx-light" >&2; exit 2
  fi
fi
for t in java javac jar curl ss timeout; do
  command -v "$t" >/dev/null || { echo "opening-minute: needs $t on PATH" >&2; exit 2; }
done
launcher="$root/deploy/target/waitroom-launcher.jar"
gateway_jar="$(ls "$root"/gateway-service/target/gateway-service-*.jar 2>/dev/null | grep -v -- '-plain.jar' | head -n1 || true)"
[ -f "$launcher" ] && [ -n "$gateway_jar" ] \
  || { echo "opening-minute: not built; run ./waitroom bench --opening-minute (it builds first)" >&2; exit 2; }

# --- ports: the launcher moves every port by WAITROOM_PORT_OFFSET; take a set nobody listens on -------------------
# Redis memory of the event's keys by kind (the part of the key after wr:{event}:, without its bucket number), from
# MEMORY USAGE of every key: where the bytes per visitor go. Needs redis-cli (Debian's redis-tools); skipped without.
redis_by_kind() {
  command -v redis-cli > /dev/null || { log "no redis-cli: Redis memory by key kind not measured"; return 0; }
  local port pass
  port="$(awk '$1 == "store" && $2 ~ /^redis/ { print $5; exit }' "$data/stack.txt" 2>/dev/null)"
  pass="$(sed -n 's/^WAITROOM_REDIS_PASSWORD=//p' "$data/secrets.properties" 2>/dev/null)"
  [ -n "$port" ] || { log "no Redis port in $data/stack.txt: memory by key kind not measured"; return 0; }
  REDISCLI_AUTH="$pass" redis-cli -p "$port" --scan --pattern "wr:{$event}:*" > "$work/keys.txt" 2>/dev/null
  awk '{ print "MEMORY USAGE " $0 }' "$work/keys.txt" | REDISCLI_AUTH="$pass" redis-cli -p "$port" > "$work/usage.txt" 2>/dev/null
  paste "$work/keys.txt" "$work/usage.txt" \
    | awk -v n="$visitors" -v e="wr:{$event}:" '{ k = substr($1, length(e) + 1); sub(/:[0-9]+$/, ":", k); b[k] += $2; c[k]++ }
        END { for (k in b) printf "%-6s %6d keys %12d B %8.1f B per visitor\n", k, c[k], b[k], b[k] / n }' \
    | sort -k4 -n -r | tee "$1" | sed 's/^/opening-minute: redis /' >&2
}

ports_of() {  # offset -> every port the stack listens on (services, their management ports, PostgreSQL, Redis)
  local o=$1
  echo "$((8080 + o)) $((8081 + o)) $((8082 + o)) $((8083 + o)) $((9080 + o)) $((9081 + o)) $((9082 + o)) $((9083 + o)) $((15432 + o)) $((16379 + o))"
}
ports_free() { local p; for p in $(ports_of "$1"); do [ -z "$(ss -Htln "sport = :$p")" ] || return 1; done; }
if [ -n "${WAITROOM_PORT_OFFSET:-}" ]; then
  offset="$WAITROOM_PORT_OFFSET"
  [[ "$offset" =~ ^[0-9]+$ ]] && [ "$offset" -le 20000 ] || { echo "opening-minute: WAITROOM_PORT_OFFSET must be 0..20000" >&2; exit 64; }
  ports_free "$offset" || { echo "opening-minute: a port of offset $offset is in use ($(ports_of "$offset")); choose another WAITROOM_PORT_OFFSET" >&2; exit 2; }
else
  offset=""
  for o in $(seq 1000 100 20000); do
    if ports_free "$o"; then offset=$o; break; fi
  done
  [ -n "$offset" ] || { echo "opening-minute: no free set of stack ports at offsets 1000..20000" >&2; exit 2; }
fi
gateway="http://127.0.0.1:$((8080 + offset))"

# --- clean-up: everything this script started, nothing else ------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/waitroom-opening.XXXXXX")"
stack_pid=""; failed_cleanup=false
stop_stack() {
  [ -n "$stack_pid" ] || return 0
  log "stopping the stack (launcher pid $stack_pid) ..."
  kill -TERM "$stack_pid" 2>/dev/null || true
  for _ in $(seq 1 120); do kill -0 "$stack_pid" 2>/dev/null || break; sleep 0.5; done
  if kill -0 "$stack_pid" 2>/dev/null; then
    log "the launcher did not stop in 60 s; killing it"; kill -KILL "$stack_pid" 2>/dev/null || true; failed_cleanup=true
  fi
  wait "$stack_pid" 2>/dev/null || true
  stack_pid=""
  for p in $(ports_of "$offset"); do
    if [ -n "$(ss -Htln "sport = :$p")" ]; then log "port $p still in use after the stack stopped"; failed_cleanup=true; fi
  done
}
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  stop_nginx
  if [ -n "$stack_pid" ] && [ "$code" -ne 0 ] && [ -d "$work/data/logs" ]; then
    mkdir -p "$here/target" && cp -r "$work/data/logs" "$here/target/opening-logs-$(date +%Y%m%d-%H%M%S)" || true
    log "stack logs kept in $here/target/"
  fi
  stop_stack
  rm -rf "$work"
  if $failed_cleanup && [ "$code" -eq 0 ]; then code=1; fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the client: compiled against the gateway's own Reactor Netty and Netty, taken from its jar -------------------
mkdir -p "$work/lib" "$work/classes"
names="$(jar tf "$gateway_jar" | grep -E '^BOOT-INF/lib/(netty-|reactor-core-|reactor-netty-|reactive-streams-)' \
  | grep -Ev 'quic|http3|macos|osx|windows|aarch_64|riscv' || true)"
[ -n "$names" ] || { echo "opening-minute: no Reactor Netty in $gateway_jar" >&2; exit 2; }
# shellcheck disable=SC2086
(cd "$work/lib" && jar xf "$gateway_jar" $names && mv BOOT-INF/lib/*.jar . && rm -rf BOOT-INF)
javac -nowarn -d "$work/classes" -cp "$work/lib/*" "$here/OpeningMinute.java" "$here/OpeningSchedule.java" "$here/OpeningReport.java"

# --- the comparison server: nginx, constant answer -----------------------------------------------------------------
start_nginx "$nginx_bin" "$work/nginx" 1 opening-minute
for _ in 1 2 3; do   # nginx took its port after the stack's were chosen: never one of them
  case " $(ports_of "$offset") " in *" $nginx_port "*) stop_nginx; start_nginx "$nginx_bin" "$work/nginx" 1 opening-minute ;; *) break ;; esac
done

# --- a fresh stack, as ./waitroom run --demo starts it ---------------------------------------------------------------
data="$work/data"; mkdir -p "$data/logs"
log "starting a fresh stack (./waitroom run --demo) in $data, ports offset by $offset, JVM flags: ${WAITROOM_JVM_FLAGS:-launcher default}"
t0=$(date +%s%N)
WAITROOM_PORT_OFFSET="$offset" WAITROOM_DATA_DIR="$data" \
  java -Dwaitroom.root="$root" -jar "$launcher" run --demo > "$data/logs/launcher.log" 2>&1 &
stack_pid=$!
for _ in $(seq 1 6000); do   # 300 s: JVMs starting on two cores that others build on take long
  grep -q "Waitroom is running" "$data/logs/launcher.log" 2>/dev/null && break
  kill -0 "$stack_pid" 2>/dev/null || { echo "opening-minute: the stack did not start:" >&2; tail -n 20 "$data/logs/launcher.log" >&2; exit 2; }
  sleep 0.05
done
grep -q "Waitroom is running" "$data/logs/launcher.log" || { echo "opening-minute: the stack did not start in 300 s" >&2; exit 2; }
ready_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
log "ready in $(awk -v m="$ready_ms" 'BEGIN { printf "%.1f", m / 1000 }') s (launcher start to \"Waitroom is running\")"
gateway_pid="$(ss -Htlnp "sport = :$((8080 + offset))" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n1)"
if [ "$(ps -o ppid= -p "${gateway_pid:-0}" 2>/dev/null | tr -d ' ')" != "$stack_pid" ]; then
  echo "opening-minute: the process on $((8080 + offset)) (pid ${gateway_pid:-?}) is not the gateway this run started" >&2; exit 2
fi

ops="$(sed -n 's/^WAITROOM_SECURITY_OPSTOKEN=//p' "$data/secrets.properties" 2>/dev/null || true)"
[ -n "$ops" ] || { echo "opening-minute: no ops token in $data/secrets.properties" >&2; exit 2; }
event="opening-$(date +%s)"
api() { curl -sS -m 10 -H "Authorization: Bearer $ops" -H 'Content-Type: application/json' "$@"; }
created="$(api -o "$work/event.json" -w '%{http_code}' -X POST "$gateway/admin/events" -d "{\"eventId\":\"$event\",
  \"name\":\"The opening minute\",\"opensAt\":null,\"maxActiveSessions\":$active,\"maxAdmissionsPerSecond\":$rate,
  \"offerTtlSeconds\":60,\"sessionTtlSeconds\":120,\"sessionMaxSeconds\":600}")" || created=000
[ "$created" = 201 ] || { echo "opening-minute: creating event $event answered $created: $(cat "$work/event.json" 2>/dev/null)" >&2; exit 1; }
for _ in $(seq 1 60); do
  api "$gateway/admin/events/$event" | grep -q '"phase":"OPEN"' && break
  sleep 0.5
done
api "$gateway/admin/events/$event" | grep -q '"phase":"OPEN"' || { echo "opening-minute: event $event did not open in 30 s" >&2; exit 1; }
log "event $event open: $rate admissions/s, $active live sessions"

stamp="$(date -u +%Y%m%d-%H%M%S)"
mkdir -p "$here/target"
out="$here/target/opening-minute-$stamp"
commit="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
dirty="$(git -C "$root" status --porcelain 2>/dev/null | grep -qv '^??' && echo " (with local changes)" || true)"
cat > "$work/meta.txt" <<EOF
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
commit=$commit$dirty
command=./waitroom bench --opening-minute --visitors $visitors --seconds $seconds --connections $connections --jitter $jitter --seed $seed --admission-rate $rate --max-active $active
stack=./waitroom run --demo, fresh data dir, ports offset by $offset, WAITROOM_JVM_FLAGS=${WAITROOM_JVM_FLAGS:-(launcher default)}
startToReadySeconds=$(awk -v m="$ready_ms" 'BEGIN { printf "%.2f", m / 1000 }')
limits=launcher defaults, none raised: per-address limits see at most $(( (visitors + 131071) / 131072 )) browsers per X-Forwarded-For (burst 100); per-visitor limits see one join and polls at >= 2 s; no join ceiling; Redis maxmemory ${WAITROOM_REDIS_MAXMEMORY:-1gb}
event=$event: opens now, maxAdmissionsPerSecond $rate, maxActiveSessions $active, offers not claimed
nginx=nginx $nginx_version, worker_processes 1, return 200 constant, 127.0.0.1:$nginx_port
EOF

limit=$((seconds + 35 + nginx_seconds + 3 + 120))
code=0
timeout --kill-after=10 "$limit" java -XX:+UseSerialGC -Xms512m -Xmx1536m -cp "$work/classes:$work/lib/*" OpeningMinute \
  --url "$gateway" --event "$event" --data-dir "$data" --visitors "$visitors" --seconds "$seconds" \
  --connections "$connections" --jitter "$jitter" --seed "$seed" --client-threads "$threads" \
  --nginx-url "http://127.0.0.1:$nginx_port" --nginx-seconds "$nginx_seconds" --meta "$work/meta.txt" \
  --date "$(date -u +%Y-%m-%d)" --out "$out" || code=$?
if [ "$code" -gt 1 ]; then
  echo "opening-minute: the client failed or ran over ${limit}s (exit $code)" >&2; exit 1
fi
[ -f "$out.json" ] && [ -f "$out.html" ] || { echo "opening-minute: no report written" >&2; exit 1; }
redis_by_kind "$out.redis.txt"
log "report: $out.html, figures: $out.json"
exit "$code"
