-- What join.lua and status.lua share (deploy/bench/README.md). Each loads it from its own directory:
--
--   local common = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk_common.lua")
--
-- wrk runs a script in one Lua state per thread plus one for setup() and done(); each state loads this file again.
-- A thread's counters are globals of its state, so that done() can read them with thread:get(name).

local common = {}

local threads = {}
local counter = 0

-- wrk's setup(thread): numbers the threads (the global tid of each) and keeps them for done().
function common.setup(thread)
  thread:set("tid", counter)
  table.insert(threads, thread)
  counter = counter + 1
end

-- The threads setup() saw, in order; for done().
function common.threads()
  return threads
end

-- Counts one answer by HTTP status in this thread's global statuses table.
function common.count_status(status)
  statuses[status] = (statuses[status] or 0) + 1
end

-- The one line bench.sh reads (BenchClient.java prints the same): BENCH requests=... duration_s=... rps=...
-- p50_ms=... p99_ms=... non2xx=... errors=... <extra> statuses=...; non2xx counts socket errors too.
function common.bench_line(summary, latency, extra)
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
  return string.format(
    "BENCH requests=%d duration_s=%.3f rps=%.1f p50_ms=%.2f p99_ms=%.2f non2xx=%d errors=%d %s statuses=%s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, non2xx + socket_errors, socket_errors,
    extra, #codes > 0 and table.concat(codes, ",") or "-")
end

return common
