# The comparison server of every bench (deploy/bench/README.md), sourced by bench.sh and opening-minute.sh: nginx on
# a free loopback port, answering every request 200 {"state":"WAITING"}, keep-alive without a request limit, no access
# log, everything it writes in one directory. Each script's cleanup calls stop_nginx.
#
#   start_nginx <nginx binary> <directory> <worker_processes> <name for messages>
#     sets nginx_pid, nginx_port, nginx_url and nginx_version, or exits 2 with the reason
#   stop_nginx

nginx_pid=""

start_nginx() {
  local bin=$1 dir=$2 workers=$3 who=$4 p
  nginx_port=""
  for _ in $(seq 1 50); do
    p=$((20000 + RANDOM % 25000))
    if [ -z "$(ss -Htln "sport = :$p")" ]; then nginx_port=$p; break; fi
  done
  [ -n "$nginx_port" ] || { echo "$who: no free loopback port for nginx" >&2; exit 2; }
  mkdir -p "$dir"
  cat > "$dir/nginx.conf" <<EOF
worker_processes $workers;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  keepalive_requests 100000000;
  keepalive_timeout 300s;
  server {
    listen 127.0.0.1:$nginx_port;
    default_type application/json;
    location / { return 200 '{"state":"WAITING"}'; }
  }
}
EOF
  "$bin" -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" &
  nginx_pid=$!
  for _ in $(seq 1 50); do
    curl -s -m 1 "http://127.0.0.1:$nginx_port/" 2>/dev/null | grep -q WAITING && break
    kill -0 "$nginx_pid" 2>/dev/null || { echo "$who: nginx did not start:" >&2; cat "$dir/error.log" >&2; nginx_pid=""; exit 2; }
    sleep 0.1
  done
  curl -s -m 1 "http://127.0.0.1:$nginx_port/" | grep -q WAITING || { echo "$who: nginx does not answer" >&2; exit 2; }
  nginx_version="$("$bin" -v 2>&1 | sed 's/.*nginx\///')"
  nginx_url="http://127.0.0.1:$nginx_port"
}

stop_nginx() {
  [ -n "$nginx_pid" ] || return 0
  kill -QUIT "$nginx_pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$nginx_pid" 2>/dev/null || true
  wait "$nginx_pid" 2>/dev/null || true
  nginx_pid=""
}
