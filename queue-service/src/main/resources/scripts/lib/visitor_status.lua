-- Shared by join.lua and status.lua (prepended, after declared_keys.lua and the state letters generated from the Java
-- EntryState, when the script is loaded).
-- The status of the entry with sequence `existing` (KEYS[1] is the event hash), in one atomic read; refreshes its
-- last-seen when older than the liveness interval. Never touches order.
-- Returns: 'OK', phase, mode, announcement, rate, waiting, entry seq, state, order key, ahead (-1 unknown),
-- offer deadline (epoch millis or ''), measured pace (Pace.encode or ''), when the coordinator last pushed the event
-- (epoch millis or ''), why offers are held back (AdmissionHold.encode or ''), lane ('general' when the entry stands
-- in no declared lane)
-- The first time a WAITING entry is given an estimate (ahead known, admissions running), the estimate's inputs are
-- kept beside its last-seen time, field 'j<n>' of 's:<seq/128>': ahead|now|rate|pace, so that its offer can be scored
-- against the range it was shown (docs/design/estimates.md, EstimateScores); beyond an event's first ESTIMATE_RECORD_ALL
-- entries only a sample is kept (ESTIMATE_RECORD_ALL and ESTIMATE_RECORD_EVERY are generated from EstimateScores).

-- Names every key visitor_status touches for the entry with sequence seq.
local function status_keys(seq)
  K('cnt'); K('w'); K('of'); K('lane'); K('lq'); B('e:', seq); B('s:', seq)
end

local function visitor_status(existing, now, liveness)
  local ev = redis.call('HMGET', KEYS[1], 'phase', 'mode', 'ann', 'rate', 'presale', 'drawAt', 'pace', 'updatedAt', 'hold')
  local phase = ev[1]
  local waiting = redis.call('HGET', K('cnt'), 'waiting') or '0'
  local seq = tonumber(existing)
  local bucket = math.floor(seq / 128)
  local field = seq % 128
  local rec = redis.call('HGET', K('e:' .. bucket), field)
  local state, key = string.match(rec, '^(%u)|(%d+)|')
  key = tonumber(key)

  -- positions are known once the pre-sale group is drawn (or there was none)
  local drawn = (tonumber(ev[5] or '0') == 0) or (ev[6] and true or false)
  local ahead = -1
  local lane = redis.call('HGET', K('lane'), seq)
  if lane and state == WAITING and key > 0 and phase ~= 'SCHEDULED' and drawn then
    -- a lane member is counted among its lane only, by order key
    ahead = redis.call('ZLEXCOUNT', K('lq'), '[' .. lane .. ':', '(' .. lane_member(lane, key, seq))
  elseif state == WAITING and key > 0 and phase ~= 'SCHEDULED' and drawn then
    local w = K('w')
    local byte = math.floor(key / 8)
    local c = 0
    if byte > 0 then c = redis.call('BITCOUNT', w, 0, byte - 1) end
    local r = key % 8
    if r > 0 then
      local s = redis.call('GETRANGE', w, byte, byte)
      if #s == 1 then
        local b = bit.rshift(string.byte(s), 8 - r)
        while b > 0 do
          c = c + bit.band(b, 1)
          b = bit.rshift(b, 1)
        end
      end
    end
    ahead = c
  end

  local offerExpires = ''
  if state == OFFERED then
    local offer = redis.call('HGET', K('of'), seq)
    if offer then offerExpires = string.match(offer, '|(%d+)$') or '' end
  end

  local seenKey = K('s:' .. bucket)
  local seen = tonumber(redis.call('HGET', seenKey, field) or '0')
  if tonumber(now) - seen >= tonumber(liveness) then
    -- best effort: refused only when Redis is out of memory, and the status is worth more than the refresh
    redis.pcall('HSET', seenKey, field, now)
  end
  local recorded = seq <= ESTIMATE_RECORD_ALL or seq % ESTIMATE_RECORD_EVERY == 0
  if recorded and ahead >= 0 and (ev[2] or 'QUEUEING') == 'QUEUEING' and tonumber(ev[4] or '0') > 0 then
    -- best effort, as the refresh: a lost record only leaves this entry out of the live accuracy figure; beyond the
    -- event's first ESTIMATE_RECORD_ALL entries one in ESTIMATE_RECORD_EVERY is recorded (EstimateScores)
    redis.pcall('HSETNX', seenKey, 'j' .. field, ahead .. '|' .. now .. '|' .. ev[4] .. '|' .. (ev[7] or ''))
  end
  return {'OK', phase, ev[2] or '', ev[3] or '', ev[4] or '0', waiting, tostring(existing), state, tostring(key),
    tostring(ahead), offerExpires, ev[7] or '', ev[8] or '', ev[9] or '', lane or 'general'}
end
