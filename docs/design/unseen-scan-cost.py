#!/usr/bin/env python3
"""Redis time of one waitroom_queue_waiting_unseen scan (docs/reference/metrics.md).

Starts a private redis-server, fills one event with 100,000 entries (every 10th LEFT, the rest WAITING; every 4th
last seen 10 minutes ago), runs unseen.lua over every entry bucket PER buckets per call as GaugeReads does, and reads
each call's server-side time from SLOWLOG. Usage: python3 docs/design/unseen-scan-cost.py [PER] [PORT]
"""
import os, re, subprocess, sys, tempfile, time

PER = int(sys.argv[1]) if len(sys.argv) > 1 else 8
PORT = sys.argv[2] if len(sys.argv) > 2 else "26399"
ROOT = os.path.dirname(os.path.abspath(__file__)) + "/../.."
FILL = """
local now = tonumber(ARGV[1])
for seq = 1, 100000 do
  local b = math.floor(seq / 128)
  local state = (seq % 10 == 0) and 'L' or 'W'
  redis.call('HSET', 'wr:{bench}:e:' .. b, seq % 128, state .. '|' .. seq .. '|v' .. seq .. '|' .. (now - 900) .. '|0')
  redis.call('HSET', 'wr:{bench}:s:' .. b, seq % 128, (seq % 4 == 0) and (now - 600) or now)
end
redis.call('SET', 'wr:{bench}:seq', 100000)
return 'ok'
"""
cli = ["redis-cli", "-p", PORT]
run = lambda *a: subprocess.run(cli + list(a), capture_output=True, text=True).stdout
work = tempfile.mkdtemp()
subprocess.run(["redis-server", "--port", PORT, "--save", "", "--appendonly", "no", "--daemonize", "yes",
                "--dir", work, "--pidfile", work + "/pid", "--logfile", work + "/log"], check=True)
try:
    while run("PING").strip() != "PONG":
        time.sleep(0.1)
    run("EVAL", FILL, "0", str(int(time.time())))
    source = "local WAITING = 'W'\n" + open(ROOT + "/queue-service/src/main/resources/scripts/unseen.lua").read()
    sha = run("SCRIPT", "LOAD", source).strip()
    run("CONFIG", "SET", "slowlog-log-slower-than", "0")
    run("CONFIG", "SET", "slowlog-max-len", "10000")
    run("SLOWLOG", "RESET")
    cutoff = int(time.time()) - 120
    unseen = last = start = calls = 0
    while start <= last:
        keys = ["wr:{bench}:seq"] + [k for b in range(start, start + PER)
                                     for k in (f"wr:{{bench}}:e:{b}", f"wr:{{bench}}:s:{b}")]
        out = run("EVALSHA", sha, str(len(keys)), *keys, str(cutoff)).split()
        unseen += int(out[1]); last = int(out[2]) // 128; start += PER; calls += 1
    log = subprocess.run(cli + ["--no-raw", "SLOWLOG", "GET", "10000"], capture_output=True, text=True).stdout
    us = [int(d) for d, c in re.findall(r"3\) \(integer\) (\d+)\n\s+4\)\s+1\) \"(\w+)\"", log) if c == "EVALSHA"]
    us.sort()
    print(f"entries=100000 unseen={unseen} buckets/call={PER} calls={calls} "
          f"per-call us: median={us[len(us) // 2]} max={us[-1]} scan total us={sum(us)}")
finally:
    run("SHUTDOWN", "NOSAVE")
