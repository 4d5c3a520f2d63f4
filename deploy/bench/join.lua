-- wrk script for the join throughput row of the capacity benchmark (deploy/bench/README.md).
--
--   wrk -t2 -c64 -d20s -s join.lua URL -- <event> <first visitor index>
--
-- Every request is a brand-new browser: POST /events/<event>/queue with no cookie, its own X-Forwarded-For from
-- 198.19.0.0/16 (the status visitors use 198.18.0.0/16) and its own X-Request-Id. wrk keeps its connections, as a
-- CDN or load balancer in front of the gateway would; what is new per request is the visitor. The cookies the
-- answers set are not kept (wrk's Lua sees one header per name): BenchClient.java joins the visitors the status
-- phases use. done() prints one line: BENCH requests=... rps=... p50_ms=... p99_ms=... non2xx=... statuses=...

local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  table.insert(threads, thread)
  counter = counter + 1
end

statuses = {}
local n, path

function init(args)
  path = "/events/" .. args[1] .. "/queue"
  n = tonumber(args[2] or "0") + (tid or 0) * 10000000
end

function request()
  n = n + 1
  return wrk.format("POST", path, {
    ["Content-Type"] = "application/json",
    ["X-Forwarded-For"] = "198.19." .. (math.floor(n / 256) % 256) .. "." .. (n % 256),
    ["X-Request-Id"] = "bench-j" .. n,
  }, "{}")
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local by_status, non2xx = {}, 0
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do
      by_status[k] = (by_status[k] or 0) + v
      if k < 200 or k > 299 then
        non2xx = non2xx + v
      end
    end
  end
  local e = summary.errors
  local socket_errors = e.connect + e.read + e.write + e.timeout
  local codes = {}
  for k, v in pairs(by_status) do
    codes[#codes + 1] = k .. ":" .. v
  end
  table.sort(codes)
  io.write(string.format(
    "BENCH requests=%d duration_s=%.3f rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d errors=%d edge=0 queue=0 none=0"
      .. " statuses=%s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, non2xx + socket_errors, socket_errors,
    #codes > 0 and table.concat(codes, ",") or "-"))
end
