-- wrk script for the join throughput row of the capacity benchmark (deploy/bench/README.md).
--
--   wrk -t2 -c64 -d20s -s join.lua URL -- <event> <first visitor index>
--
-- Every request is a brand-new browser: POST /events/<event>/queue with no cookie, its own X-Forwarded-For from
-- 198.19.0.0/16 (the status visitors use 198.18.0.0/16) and its own X-Request-Id. wrk keeps its connections, as a
-- CDN or load balancer in front of the gateway would; what is new per request is the visitor. The cookies the
-- answers set are not kept (wrk's Lua sees one header per name): BenchClient.java joins the visitors the status
-- phases use. done() prints one line: BENCH requests=... rps=... p50_ms=... p99_ms=... non2xx=... statuses=...

local common = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk_common.lua")

setup = common.setup
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
  common.count_status(status)
end

function done(summary, latency, requests)
  io.write(common.bench_line(summary, latency, "edge=0 queue=0 none=0"))
end
