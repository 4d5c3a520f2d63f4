-- wrk script for the status phases of the capacity benchmark (deploy/bench/README.md).
--
--   wrk -t2 -c64 -d20s -s status.lua URL -- <visitors file> <edge|forward> <event> <out file|-> <threads>
--
-- Each thread polls GET /events/<event>/queue/status for its share of the visitors (index % threads), round robin,
-- each request with that visitor's own cookies and X-Forwarded-For. "edge" sends wr_vid and wr_qt, as the waiting
-- page does; "forward" sends only wr_vid, so the gateway must ask the queue-service (reason no-ticket).
-- The gateway echoes X-Request-Id (bench-v<index>), which names the visitor a response belongs to: a Set-Cookie of
-- wr_qt (or wr_vid) replaces that visitor's cookie, as a browser would, in both modes; the cookies are written back
-- to <out file> (same format as the visitors file) at the end. wrk's Lua sees one header per name: status answers set at most the ticket, so nothing
-- is lost here (joins, which set two cookies, are run by BenchClient.java).
-- done() prints one line: BENCH requests=... rps=... p50_ms=... p99_ms=... non2xx=... edge=... queue=... none=...

local common = dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "wrk_common.lua")

setup = common.setup

vids, qts, polls = {}, {}, {}  -- by visitor index (globals: done() reads them)
local order = {}                      -- this thread's visitor indices
local cached = {}                     -- formatted request by visitor index
local cursor = 0
local mode, path, host

statuses = {}
sources = { edge = 0, queue = 0, none = 0 }
refreshed = 0
unknown = 0
out_file = nil

function init(args)
  local file, event = args[1], args[3]
  mode = args[2]
  out_file = (args[4] and args[4] ~= "-") and args[4] or nil
  local nthreads = tonumber(args[5])
  if mode ~= "edge" and mode ~= "forward" then
    error("mode must be edge or forward")
  end
  path = "/events/" .. event .. "/queue/status"
  for line in io.lines(file) do
    local i, vid, qt, poll = line:match("^(%d+) (%S+) (%S+) (%S+)")
    if i then
      i = tonumber(i)
      if i % nthreads == tid then
        vids[i] = vid
        qts[i] = (qt ~= "-") and qt or nil
        polls[i] = poll
        order[#order + 1] = i
      end
    end
  end
  if #order == 0 then
    error("no visitors for thread " .. tid)
  end
end

local function forwarded_for(i)
  return string.format("198.%d.%d.%d", 18 + math.floor(i / 65536) % 2, math.floor(i / 256) % 256, i % 256)
end

local function build(i)
  local cookie = "wr_vid=" .. vids[i]
  if mode == "edge" and qts[i] then
    cookie = cookie .. "; wr_qt=" .. qts[i]
  end
  return wrk.format("GET", path, {
    ["Cookie"] = cookie,
    ["X-Forwarded-For"] = forwarded_for(i),
    ["X-Request-Id"] = string.format("bench-v%06d", i),
  })
end

function request()
  cursor = cursor % #order + 1
  local i = order[cursor]
  local r = cached[i]
  if not r then
    r = build(i)
    cached[i] = r
  end
  return r
end

function response(status, headers, body)
  common.count_status(status)
  local id, source, setcookie
  for k, v in pairs(headers) do
    local name = string.lower(k)
    if name == "x-request-id" then
      id = v
    elseif name == "x-waitroom-status-source" then
      source = v
    elseif name == "set-cookie" then
      setcookie = v
    end
  end
  if source == "edge" or source == "queue" then
    sources[source] = sources[source] + 1
  else
    sources.none = sources.none + 1
  end
  if setcookie then
    local i = id and tonumber(id:match("^bench%-v(%d+)$"))
    if not i or not vids[i] then
      unknown = unknown + 1
      return
    end
    local name, value = setcookie:match("^%s*([^=]+)=([^;]*)")
    local cleared = value == "" or string.lower(setcookie):find("max%-age=0", 1, false) ~= nil
    if name == "wr_qt" then
      qts[i] = (not cleared) and value or nil
      refreshed = refreshed + 1
    elseif name == "wr_vid" and not cleared then
      vids[i] = value
    else
      return
    end
    local poll = body and body:match('"pollAfterSeconds"%s*:%s*(%d+)')
    if poll then
      polls[i] = poll
    end
    cached[i] = nil
  end
end

function done(summary, latency, requests)
  local total = { edge = 0, queue = 0, none = 0 }
  local refreshes, unknowns = 0, 0
  local file = common.threads()[1]:get("out_file")
  for _, t in ipairs(common.threads()) do
    for k, v in pairs(t:get("sources")) do
      total[k] = total[k] + v
    end
    refreshes = refreshes + t:get("refreshed")
    unknowns = unknowns + t:get("unknown")
  end
  io.write(common.bench_line(summary, latency, string.format(
    "edge=%d queue=%d none=%d refreshed=%d unattributed=%d out=%s",
    total.edge, total.queue, total.none, refreshes, unknowns, file or "-")))
  if file then
    local f = assert(io.open(file, "w"))
    for _, t in ipairs(common.threads()) do
      local v, q, p = t:get("vids"), t:get("qts"), t:get("polls")
      for i, vid in pairs(v) do
        f:write(i, " ", vid, " ", q[i] or "-", " ", p[i] or "-", "\n")
      end
    end
    f:close()
  end
end
