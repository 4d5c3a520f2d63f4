#!/usr/bin/env bash
# Capacity benchmark of the gateway (deploy/bench/README.md), normally run as ./waitroom bench [options].
# Loopback only; every client run is bounded in time; nginx (and the stack, with --with-stack) is stopped at the end.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
# shellcheck source=nginx.sh
. "$here/nginx.sh"
# --opening-minute is a phase of its own, on a stack of its own (opening-minute.sh)
for a in "$@"; do [ "$a" != --opening-minute ] || exec "$here/opening-minute.sh" "$@"; done

usage() {
  cat >&2 <<'EOF'
usage: ./waitroom bench [--with-stack] [--quick] [--visitors N] [--connections C] [--seconds S]
                        [--join-warmup S] [--realistic-seconds S] [--threads T] [--nginx-workers W]
       ./waitroom bench --opening-minute [--visitors N] [--seconds S] ... (--opening-minute --help)
  --with-stack           start the launcher's stack in a temp data dir (and stop it); otherwise use the
                         running stack on 127.0.0.1:8080 (plus WAITROOM_PORT_OFFSET)
  --visitors N           distinct visitors (default 10000, at most 131072)
  --connections C        connections / client threads (default 64)
  --seconds S            length of each throughput phase (default 20)
  --join-warmup S        unmeasured joins before phase 1a (default 60, 5 with --quick); 0: none, so with
                         --with-stack phase 1a measures the first S seconds of joins of a stack just started
  --realistic-seconds S  length of the realistic-interval phase (default 200)
  --quick                smoke run: 2000 visitors, 5 s phases, 30 s realistic
  --threads T            wrk threads (default 2)
  --nginx-workers W      worker_processes of the comparison nginx (default 1)
environment: WAITROOM_JVM_FLAGS (with --with-stack; default the launcher's own, docs/operating/running.md#jvm),
  WAITROOM_DATA_DIR (where secrets.properties is, without --with-stack), WAITROOM_PORT_OFFSET (moves every port, with or without --with-stack), WAITROOM_BENCH_MANAGEMENT_URL
  (the gateway's management port, default http://127.0.0.1:9080 plus WAITROOM_PORT_OFFSET)
EOF
}

visitors=10000; connections=64; seconds=20; realistic=200; threads=2; nginx_workers=1; with_stack=false; join_warmup=""
while [ $# -gt 0 ]; do
  case "$1" in
    --with-stack) with_stack=true ;;
    --quick) visitors=2000; seconds=5; realistic=30 ;;
    --visitors) visitors="${2:?}"; shift ;;
    --connections) connections="${2:?}"; shift ;;
    --seconds) seconds="${2:?}"; shift ;;
    --join-warmup) join_warmup="${2:?}"; shift ;;
    --realistic-seconds) realistic="${2:?}"; shift ;;
    --threads) threads="${2:?}"; shift ;;
    --nginx-workers) nginx_workers="${2:?}"; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "bench: unknown option $1" >&2; usage; exit 64 ;;
  esac
  shift
done
for v in visitors connections seconds realistic threads nginx_workers; do
  [[ "${!v}" =~ ^[1-9][0-9]*$ ]] || { echo "bench: --${v//_/-} must be a positive integer" >&2; exit 64; }
done
# C2 needs about a minute of joins (README, Performance); a smoke run warms for 5 s
[ -n "$join_warmup" ] || join_warmup=$(( seconds < 10 ? 5 : 60 ))
[[ "$join_warmup" =~ ^[0-9]+$ ]] || { echo "bench: --join-warmup must be 0 or a positive integer" >&2; exit 64; }
[ "$visitors" -le 131072 ] || { echo "bench: at most 131072 visitors (one X-Forwarded-For each in 198.18.0.0/15)" >&2; exit 64; }
[ "$visitors" -ge $((4 * connections)) ] || { echo "bench: need at least 4 visitors per connection" >&2; exit 64; }
[ "$connections" -ge "$threads" ] || { echo "bench: need at least one connection per wrk thread" >&2; exit 64; }

offset="${WAITROOM_PORT_OFFSET:-0}"
[[ "$offset" =~ ^[0-9]+$ ]] && [ "$offset" -le 20000 ] || { echo "bench: WAITROOM_PORT_OFFSET must be 0..20000" >&2; exit 64; }
gateway_port=$((8080 + offset))
stack_ports="$((8080 + offset)) $((8081 + offset)) $((8082 + offset)) $((8083 + offset)) $((15432 + offset)) $((16379 + offset))"
# each process's management port is its own port + 1000, on loopback (docs/reference/contracts.md)
stack_ports="$stack_ports $((9080 + offset)) $((9081 + offset)) $((9082 + offset)) $((9083 + offset))"
gateway="http://127.0.0.1:$gateway_port"
management="${WAITROOM_BENCH_MANAGEMENT_URL:-http://127.0.0.1:$((9080 + offset))}"
default_jvm_flags="" # the launcher's own: what the README's run command starts
log() { echo "bench: $*" >&2; }

# --- tools -------------------------------------------------------------------------------------------------------
nginx_bin="$(command -v nginx || true)"; [ -n "$nginx_bin" ] || { [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx; }
if ! command -v wrk >/dev/null || [ -z "$nginx_bin" ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    log "installing wrk and nginx-light (apt-get) ..."
    { apt-get install -y nginx-light wrk || { apt-get update && apt-get install -y nginx-light wrk; }; } >&2 \
      || { echo "bench: could not install wrk and nginx-light" >&2; exit 2; }
    nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
  else
    echo "bench: needs wrk and nginx; install them with: sudo apt-get install -y nginx-light wrk" >&2; exit 2
  fi
fi
for t in java javac curl ss timeout; do
  command -v "$t" >/dev/null || { echo "bench: needs $t on PATH" >&2; exit 2; }
done

# --- clean-up: everything this script started, nothing else ------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/waitroom-bench.XXXXXX")"
stack_pid=""; event=""; ops=""; failed_cleanup=false
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
  for p in $stack_ports; do
    if [ -n "$(ss -Htln "sport = :$p")" ]; then log "port $p still in use after the stack stopped"; failed_cleanup=true; fi
  done
}
cleanup() {
  local code=$?
  trap - EXIT INT TERM
  stop_nginx
  if [ -n "$event" ] && [ -z "$stack_pid" ] && ! $with_stack; then
    # the bench's own event on a stack we leave running: end it so nobody is offered a place in it
    for e in "$event" "$event-warm"; do
      curl -sS -o /dev/null -m 10 -X POST -H "Authorization: Bearer $ops" -H 'Content-Type: application/json' \
        "$gateway/admin/events/$e/end" -d '{"reason":"capacity benchmark done"}' || true
    done
  fi
  if [ -n "$stack_pid" ]; then
    if [ "$code" -ne 0 ] && [ -d "$work/data/logs" ]; then
      mkdir -p "$here/target" && cp -r "$work/data/logs" "$here/target/logs-$(date +%Y%m%d-%H%M%S)" || true
      log "stack logs kept in $here/target/"
    fi
    stop_stack
  fi
  rm -rf "$work"
  if $failed_cleanup && [ "$code" -eq 0 ]; then code=1; fi
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the stack -----------------------------------------------------------------------------------------------------
if $with_stack; then
  for p in $stack_ports; do
    if [ -n "$(ss -Htln "sport = :$p")" ]; then
      echo "bench: port $p is in use: a stack is already running (use it without --with-stack, or stop it)" >&2
      exit 2
    fi
  done
  [ -f "$root/deploy/target/waitroom-launcher.jar" ] || { echo "bench: not built; run ./waitroom bench --with-stack (it builds first)" >&2; exit 2; }
  data="$work/data"; mkdir -p "$data/logs"
  jvm_flags="${WAITROOM_JVM_FLAGS:-$default_jvm_flags}"
  log "starting the stack in $data with JVM flags: ${jvm_flags:-the launcher defaults}"
  # WAITROOM_PORT_OFFSET moves every port of the stack the bench starts (and measures), beside another stack
  WAITROOM_PORT_OFFSET="$offset" WAITROOM_DATA_DIR="$data" WAITROOM_JVM_FLAGS="$jvm_flags" \
    java -Dwaitroom.root="$root" -jar "$root/deploy/target/waitroom-launcher.jar" run > "$data/logs/launcher.log" 2>&1 &
  stack_pid=$!
  for _ in $(seq 1 360); do
    grep -q "Waitroom is running" "$data/logs/launcher.log" 2>/dev/null && break
    kill -0 "$stack_pid" 2>/dev/null || { echo "bench: the stack did not start:" >&2; tail -n 20 "$data/logs/launcher.log" >&2; exit 2; }
    sleep 0.5
  done
  grep -q "Waitroom is running" "$data/logs/launcher.log" || { echo "bench: the stack did not start in 180 s" >&2; exit 2; }
else
  data="${WAITROOM_DATA_DIR:-$root/.waitroom}"
fi
ops="$(sed -n 's/^WAITROOM_SECURITY_OPSTOKEN=//p' "$data/secrets.properties" 2>/dev/null || true)"
[ -n "$ops" ] || { echo "bench: no ops token in $data/secrets.properties (start the stack with ./waitroom run, or use --with-stack)" >&2; exit 2; }
curl -s -o /dev/null -m 5 "$gateway/" \
  || { echo "bench: nothing answers on $gateway (start ./waitroom run, or use --with-stack)" >&2; exit 2; }

gateway_pid="$(ss -Htlnp "sport = :$gateway_port" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n1)"
gateway_flags="unknown"; gateway_java="unknown"
if $with_stack && [ "$(ps -o ppid= -p "${gateway_pid:-0}" 2>/dev/null | tr -d ' ')" != "$stack_pid" ]; then
  echo "bench: the process on $gateway_port (pid ${gateway_pid:-?}) is not the gateway the bench started" >&2; exit 2
fi
if [ -n "$gateway_pid" ] && [ -r "/proc/$gateway_pid/cmdline" ]; then
  gateway_flags="$(tr '\0' '\n' < "/proc/$gateway_pid/cmdline" | sed -n '2,$p' | sed '/^-jar$/,$d' | tr '\n' ' ' | sed 's/ $//')"
  gateway_java="$(readlink "/proc/$gateway_pid/exe" || echo unknown)"
fi

rss_kib() { [ -n "$gateway_pid" ] && sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$gateway_pid/status" 2>/dev/null || true; }
heap_bytes() {
  curl -s -m 10 "$management/actuator/prometheus" \
    | awk '/^jvm_memory_used_bytes\{/ && /area="heap"/ { s += $NF; n++ } END { if (n) printf "%.0f", s }' || true
}
gc_how="jcmd GC.run"
full_gc() {
  if [ -n "$gateway_pid" ] && command -v jcmd >/dev/null && jcmd "$gateway_pid" GC.run >/dev/null 2>&1; then return 0; fi
  gc_how="not possible here: raw figures"
}
polls_metrics() {  # answered/reason count, one per line
  curl -s -m 10 "$management/actuator/prometheus" | awk '/^waitroom_gateway_status_polls_total\{/ {
    a = $0; sub(/.*answered="/, "", a); sub(/".*/, "", a); r = $0; sub(/.*reason="/, "", r); sub(/".*/, "", r)
    printf "%s/%s %.0f\n", a, r, $NF }' | sort || true
}
reasons_delta() {  # before-file after-file -> "forwarded: reason n, ..." (edge answers left out)
  [ -s "$2" ] || { printf 'n/a (no metrics from %s)' "$management"; return; }
  join -a2 -e0 -o 0,1.2,2.2 "$1" "$2" | awk '$1 !~ /^edge\// && $3 - $2 > 0 { sub(/^forwarded\//, "", $1);
    printf "%s%s %d", (n++ ? ", " : ""), $1, $3 - $2 } END { if (!n) printf "none" }'
}
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"; }
alive() {  # after-which-phase: the gateway process the bench measures must still be the one listening
  local now; now="$(ss -Htlnp "sport = :$gateway_port" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -n1)"
  if [ -n "$gateway_pid" ] && { [ ! -d "/proc/$gateway_pid" ] || [ "$now" != "$gateway_pid" ]; }; then
    echo "bench: the gateway (pid $gateway_pid) is gone or replaced after $1 (now listening: ${now:-nobody}); no table" >&2
    exit 1
  fi
}

# --- the comparison server: nginx, constant answer -----------------------------------------------------------------
start_nginx "$nginx_bin" "$work/nginx" "$nginx_workers" bench
wrk_version="$(wrk -v 2>&1 | sed -n 's/^wrk \([^ ]*\).*/\1/p' | head -n1 || true)"
log "nginx $nginx_version (worker_processes $nginx_workers) on $nginx_url, pid $nginx_pid"

# --- the load clients ----------------------------------------------------------------------------------------------
mkdir -p "$work/classes"
javac -d "$work/classes" "$here/BenchClient.java"
client() {  # limit-seconds args...
  local limit=$1; shift
  timeout --kill-after=10 "$limit" java -Xss512k -cp "$work/classes" BenchClient "$@" | grep '^BENCH ' \
    || { echo "bench: the Java client failed or ran over ${limit}s: $*" >&2; return 1; }
}
wrk_run() {  # url mode out-file [seconds]
  local url=$1 mode=$2 out=$3 secs=${4:-$seconds}
  timeout --kill-after=10 $((secs + 60)) wrk -t"$threads" -c"$connections" -d"${secs}s" --timeout 10s \
    -s "$here/status.lua" "$url/events/$event/queue/status" -- "$work/visitors.txt" "$mode" "$event" "$out" "$threads" \
    | grep '^BENCH ' || { echo "bench: wrk failed ($mode against $url)" >&2; return 1; }
}

wrk_join() {  # url event seconds first-index
  timeout --kill-after=10 $(($3 + 60)) wrk -t"$threads" -c"$connections" -d"${3}s" --timeout 10s \
    -s "$here/join.lua" "$1/events/$2/queue" -- "$2" "$4" \
    | grep '^BENCH ' || { echo "bench: wrk failed (joins against $1)" >&2; return 1; }
}

# --- the events ----------------------------------------------------------------------------------------------------
api() { curl -sS -m 10 -H "Authorization: Bearer $ops" -H 'Content-Type: application/json' "$@"; }
open_event() {  # id: opens now, 1 admission/s, 1 live session
  local id=$1 created
  created="$(api -o "$work/event.json" -w '%{http_code}' -X POST "$gateway/admin/events" -d "{\"eventId\":\"$id\",
    \"name\":\"Capacity benchmark\",\"opensAt\":null,\"maxActiveSessions\":1,\"maxAdmissionsPerSecond\":1,
    \"offerTtlSeconds\":60,\"sessionTtlSeconds\":60,\"sessionMaxSeconds\":600}")" || created=000
  [ "$created" = 201 ] || { echo "bench: creating event $id answered $created: $(cat "$work/event.json" 2>/dev/null)" >&2; return 1; }
  for _ in $(seq 1 60); do
    api "$gateway/admin/events/$id" | grep -q '"phase":"OPEN"' && return 0
    sleep 0.5
  done
  echo "bench: event $id did not open in 30 s" >&2; return 1
}
event="bench-$(date +%s)-$RANDOM"
open_event "$event" || { event=""; exit 1; }
log "event $event open (1 admission/s, 1 live session: nearly everybody stays far from the front)"

loadavg_start="$(cut -d' ' -f1-3 /proc/loadavg)"
full_gc; sleep 1
rss_before="$(rss_kib)"; heap_before="$(heap_bytes)"
start_time="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
warmup=$(( seconds < 10 ? 2 : 10 ))   # unmeasured polls before phases 2 and 3: the JIT compiles the path first
join_limit=$((120 + visitors / 10))   # at least 10 joins a second, or the phase stops and says so

# --- warm-up, then phase 1a: join throughput with wrk ----------------------------------------------------------------
# A JVM answers a path at full speed only after the JIT has compiled it (C2 takes tens of seconds of load): the
# services first see unmeasured joins on an event of their own, so the figures are of a warm process, as in a sale
# that has been running for a minute. --join-warmup 0 leaves it out: the figures are then of the first joins after
# ready, with only the services' own warm-up before it (with --with-stack, of a stack started the README's way a
# moment before), issue #29's first target.
warm_event="$event-warm"
if [ "$join_warmup" -gt 0 ]; then
  open_event "$warm_event" || exit 1
  log "warm-up: ${join_warmup}s of joins (wrk) on $warm_event, unmeasured ..."
  wrk_join "$gateway" "$warm_event" "$join_warmup" 0 > /dev/null
  warmed="after ${join_warmup} s of unmeasured joins on $warm_event"
else
  warmed="no join warm-up (--join-warmup 0): the first joins after ready, with only the services' own warm-up before"
fi
log "phase 1a: ${seconds}s of joins, each a new browser (wrk), then nginx ..."
w0="$(wrk_join "$gateway" "$event" "$seconds" 1000000000)"
n0="$(wrk_join "$nginx_url" "$event" "$seconds" 0)"
alive "phase 1a"

# --- phase 1b: joins, each a brand-new browser, keeping their cookies ----------------------------------------------
log "phase 1b: $visitors joins against nginx, then the gateway (Java client, $connections threads) ..."
n1="$(client $((join_limit + 30)) join --url "$nginx_url" --event "$event" --visitors "$visitors" \
  --concurrency "$connections" --max-seconds "$join_limit" --warmup-url "$nginx_url" --warmup-seconds 3)"
w1="$(client $((join_limit + 30)) join --url "$gateway" --event "$event" --visitors "$visitors" \
  --concurrency "$connections" --max-seconds "$join_limit" --warmup-url "$nginx_url" --warmup-seconds 3 \
  --out "$work/visitors.txt")"
recorded="$(field "$w1" recorded)"
log "joined: $(field "$w1" requests) answered, $recorded visitors with cookies, statuses $(field "$w1" statuses)"
if [ "$recorded" -lt $((visitors * 99 / 100)) ]; then
  echo "bench: only $recorded of $visitors joins gave a visitor cookie; statuses $(field "$w1" statuses)" >&2; exit 1
fi
missing_tickets="$(awk '$3 == "-"' "$work/visitors.txt" | wc -l)"
alive "phase 1"

# --- phases 2 and 3: status polls (wrk), each after an unmeasured warm-up, then the same polls against nginx ---------
status_phase() {  # phase mode label: sets w<phase> and n<phase>; metrics before and after in $work/m<phase>a|b
  local phase=$1 mode=$2 line
  log "phase $phase: $3, ${warmup}s warm-up, ${seconds}s against the gateway, then nginx (wrk) ..."
  wrk_run "$gateway" "$mode" "$work/visitors.next" "$warmup" > /dev/null; mv "$work/visitors.next" "$work/visitors.txt"
  polls_metrics > "$work/m${phase}a"
  line="$(wrk_run "$gateway" "$mode" "$work/visitors.next")"; mv "$work/visitors.next" "$work/visitors.txt"
  printf -v "w$phase" '%s' "$line"
  polls_metrics > "$work/m${phase}b"
  line="$(wrk_run "$nginx_url" "$mode" -)"
  printf -v "n$phase" '%s' "$line"
  alive "phase $phase"
}
# phase 2: each visitor's own cookies (answered at the edge where the gateway can)
status_phase 2 edge "edge status"
# phase 3: the same polls without a ticket: every one forwarded to the queue-service
status_phase 3 forward "forwarded status"
full_gc; sleep 1
rss_peak="$(rss_kib)"; heap_peak="$(heap_bytes)"   # every visitor has just polled hard: its edge state is live

# --- phase 4: every visitor at the server's pollAfterSeconds + up to 30 % jitter --------------------------------------
log "phase 4: realistic intervals, ${realistic}s (Java client) ..."
polls_metrics > "$work/m4a"
w4="$(client $((realistic + 90)) realistic --url "$gateway" --event "$event" --visitors-file "$work/visitors.txt" \
  --concurrency "$connections" --seconds "$realistic" --jitter 0.3 --out "$work/visitors.txt")"
polls_metrics > "$work/m4b"
alive "phase 4"

full_gc; sleep 1
rss_after="$(rss_kib)"; heap_after="$(heap_bytes)"
loadavg_end="$(cut -d' ' -f1-3 /proc/loadavg)"
stop_nginx

# --- the report ----------------------------------------------------------------------------------------------------
share() {  # BENCH line -> edge share
  local e q; e="$(field "$1" edge)"; q="$(field "$1" queue)"
  if [ -z "$e" ] || [ $((e + q)) -eq 0 ]; then echo "-"; else awk -v e="$e" -v q="$q" 'BEGIN { printf "%.1f %%", 100 * e / (e + q) }'; fi
}
row() {  # label waitroom-line nginx-line duration
  local w=$1 n=$2 label=$3 dur=$4 nr="-" np="-" ratio="-"
  if [ -n "$n" ]; then
    nr="$(field "$n" rps)"; np="$(field "$n" p50_ms) / $(field "$n" p99_ms)"
    ratio="$(awk -v a="$(field "$w" rps)" -v b="$nr" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')"
  fi
  printf '%-24s %8s %5s %8s %9s %9s %8s %8s %7s %10s %11s %17s %7s\n' "$label" "$visitors" "$connections" "$dur" \
    "$(field "$w" requests)" "$(field "$w" rps)" "$(field "$w" p50_ms)" "$(field "$w" p99_ms)" "$(field "$w" non2xx)" \
    "$(share "$w")" "$nr" "$np" "$ratio"
}
mib() { [ -n "$1" ] && awk -v k="$1" -v d="$2" 'BEGIN { printf "%.1f MiB", k / d }' || echo "n/a"; }
per_visitor="n/a"
if [ -n "$heap_before" ] && [ -n "$heap_peak" ]; then
  per_visitor="$(awk -v a="$heap_peak" -v b="$heap_before" -v n="$visitors" 'BEGIN { printf "%.0f B", (a - b) / n }')"
fi
mkdir -p "$here/target"
report="$here/target/bench-$(date +%Y%m%d-%H%M%S).txt"
{
  echo "Waitroom capacity benchmark, $start_time, $(nproc) cores, load average $loadavg_start at start, $loadavg_end at end"
  echo "gateway $gateway (pid ${gateway_pid:-?}, $gateway_java): $gateway_flags"
  $with_stack && echo "stack started by the bench (--with-stack), WAITROOM_JVM_FLAGS=\"$jvm_flags\"" \
    || echo "stack already running (flags above as the launcher started it)"
  echo "event $event: 1 admission/s, 1 live session; $visitors visitors, X-Forwarded-For 198.18.0.0/15, one per visitor"
  echo "clients: joins and realistic = BenchClient.java (JDK HttpClient, $connections threads); status = wrk $wrk_version, $threads threads, $connections connections, status.lua"
  echo "warm-up: each Java client run first sends 3 s of the same requests to nginx, unmeasured; wrk phases 2 and 3 follow ${warmup} s of the same polls, unmeasured"
  echo "comparison: nginx $nginx_version, worker_processes $nginx_workers, 127.0.0.1:$nginx_port, return 200 '{\"state\":\"WAITING\"}', same client, same run, right after each gateway phase (joins: right before)"
  echo
  printf '%-24s %8s %5s %8s %9s %9s %8s %8s %7s %10s %11s %17s %7s\n' phase visitors conns duration requests "req/s" \
    "p50 ms" "p99 ms" non-2xx "edge share" "nginx req/s" "nginx p50/p99 ms" ratio
  row "$w0" "$n0" "1a joins (wrk)" "${seconds} s"
  row "$w1" "$n1" "1b joins (Java, cookies)" "$(field "$w1" duration_s | cut -d. -f1) s"
  row "$w2" "$n2" "2 status, own cookies" "${seconds} s"
  row "$w3" "$n3" "3 status, forwarded" "${seconds} s"
  row "$w4" "" "4 status, realistic" "${realistic} s"
  echo
  echo "1a joins (wrk): statuses $(field "$w0" statuses); each request a new browser (no cookie, own X-Forwarded-For); $warmed"
  echo "1b joins (Java): statuses $(field "$w1" statuses), $recorded visitors kept wr_vid, $missing_tickets without a wr_qt ticket"
  echo "2 status, own cookies: statuses $(field "$w2" statuses); forwarded because: $(reasons_delta "$work/m2a" "$work/m2b"); tickets refreshed $(field "$w2" refreshed)"
  echo "3 status, forwarded:   statuses $(field "$w3" statuses); forwarded because: $(reasons_delta "$work/m3a" "$work/m3b"); tickets refreshed $(field "$w3" refreshed)"
  echo "4 status, realistic:   statuses $(field "$w4" statuses); edge $(field "$w4" edge), queue $(field "$w4" queue); forwarded because: $(reasons_delta "$work/m4a" "$work/m4b"); tickets refreshed $(field "$w4" refreshed); schedule lateness p99 $(field "$w4" late_p99_ms) ms, max $(field "$w4" late_max_ms) ms"
  echo "gateway RSS: $(mib "$rss_before" 1024) before, $(mib "$rss_peak" 1024) after phase 3, $(mib "$rss_after" 1024) at the end"
  echo "gateway heap used after a full GC ($gc_how): $(mib "$heap_before" 1048576) before, $(mib "$heap_peak" 1048576) after phase 3, $(mib "$heap_after" 1048576) at the end; (after phase 3 - before) / visitors = $per_visitor per visitor"
  echo "the per-visitor status limit (2/s, burst 20) caps phases 2-3 at about $((visitors * 2)) req/s for $visitors visitors: above it, 429s show in non-2xx"
} > "$report"
cat "$report"
log "saved $report"

# the tool failed if a phase measured nothing or lost more than 1 % of its requests to connection errors
for line in "$w0" "$n0" "$w1" "$n1" "$w2" "$n2" "$w3" "$n3" "$w4"; do
  requests="$(field "$line" requests)"; errors="$(field "$line" errors)"
  [ "$requests" -gt 0 ] 2>/dev/null || { echo "bench: a phase measured no requests: $line" >&2; exit 1; }
  if [ "$errors" -gt $((requests / 100)) ]; then echo "bench: a phase lost $errors requests to errors: $line" >&2; exit 1; fi
done
