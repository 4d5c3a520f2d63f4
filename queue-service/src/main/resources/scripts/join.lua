-- Join: one entry per event and identity. Creates the entry, or returns the existing one.
-- The identity is the visitor id, or the trusted account for an ACCOUNT-scoped event when one is present.
-- KEYS[1] event hash, KEYS[2] visitor's identity bucket, KEYS[3] account's identity bucket
-- (identity buckets map identity -> entry sequence), then the other keys it touches (lib/declared_keys.lua):
-- 'cnt', 'seq', 'w', 'of', and 'e:', 's:', 'o:' buckets of the existing entry or of the next sequence, and 'jr' (the
-- join ceiling's window) when the event has a ceiling.
-- ARGV[1] key prefix 'wr:{eventId}:', ARGV[2] visitor id, ARGV[3] account identity or '', ARGV[4] now (epoch seconds),
-- ARGV[5] liveness interval (seconds). Answers CREATED or EXISTS followed by the visitor's status, or THROTTLED and
-- the seconds until the ceiling's window ends.
-- Rejoin (docs/design/sale-rules/rejoin-and-published-policy.md): an entry whose place is spent, EXPIRED (an offer expired
-- under DROP, a second missed offer, a session that ran out) or COMPLETED while the event's after-purchase rule
-- (event hash 'after') is not KEEP, does not answer the join: a new entry is made at the back, exactly as a first
-- join (counted by the ceiling, 'joins' and 'rejoins'), and the identity points at it; the old record stays as it
-- is, history counted where it was. When no entry can be made (ENDED, SOLD_OUT) the old one is answered, whose status
-- says why. AFTER_PURCHASE_KEEP is generated from the Java AfterPurchase when the script is loaded.
-- Join ceiling (docs/design/abuse/join-ceiling-and-redis-memory.md): the event hash's 'jn' new entries per window of 'jw'
-- seconds of the Redis server's clock (TIME, one clock for every queue-service instance), counted in 'jr'. A visitor
-- who holds an entry gets it back uncounted; a join over the ceiling writes nothing.
-- Out of memory: Redis refuses the first write of a script without flags when it is over maxmemory, and every path
-- here reads before its first write, so a refused join has changed nothing (the last-seen refresh of an existing
-- entry is best effort, redis.pcall, so a visitor who holds a place still gets it back).
-- Entry record (hash field = seq % 128 in bucket 'e:<seq/128>'): state|orderKey|visitor|joinedAt|requeues; the state
-- letters (WAITING, LEFT, ...) are locals generated from the Java EntryState when the script is loaded.
local ev = redis.call('HMGET', KEYS[1], 'phase', 'mode', 'scope', 'jw', 'jn', 'after')
local phase, mode = ev[1], ev[2]
if not phase then return {'NO_EVENT'} end
local idKey, identity = KEYS[2], ARGV[2]
if ev[3] == 'ACCOUNT' and ARGV[3] ~= '' then idKey, identity = KEYS[3], ARGV[3] end

local function answer(outcome, seq)
  local status = visitor_status(seq, ARGV[4], ARGV[5])
  status[1] = outcome
  return status
end

local existing = redis.call('HGET', idKey, identity)
local cnt, seqKey = K('cnt'), K('seq')
local rejoin = false
if existing then status_keys(existing) end
local m = undeclared()
if m then return m end

if existing then
  local seq = tonumber(existing)
  local ekey = B('e:', seq)
  local field = seq % 128
  local rec = redis.call('HGET', ekey, field)
  local state, key, visitor, joined, rq = string.match(rec, '^(%u)|(%d+)|([^|]*)|(%d+)|(%d+)$')
  local spent = state == EXPIRED or (state == COMPLETED and ev[6] ~= AFTER_PURCHASE_KEEP)
  if spent and (phase == 'ENDED' or mode == 'SOLD_OUT') then
    -- no new place can be had: the old entry's status says why
    return answer('EXISTS', existing)
  end
  if state ~= LEFT and not spent then
    -- An account's place found from another browser stays bound to the visitor id that made it: offers are made
    -- and claimed under that id (docs/integration/accounts.md). Two first joins of one account racing end here too.
    return answer('EXISTS', existing)
  end
  rejoin = spent
  if state == LEFT and phase == 'SCHEDULED' then
    -- pre-sale rejoin gets its old entry back: no second ticket for the draw
    redis.call('HSET', ekey, field, WAITING .. '|' .. key .. '|' .. ARGV[2] .. '|' .. joined .. '|' .. rq)
    redis.call('HINCRBY', cnt, 'left', -1)
    redis.call('HINCRBY', cnt, 'waiting', 1)
    return answer('EXISTS', existing)
  end
end

if phase == 'ENDED' then return {'ENDED'} end
if mode == 'SOLD_OUT' then return {'SOLD_OUT'} end

-- the INCR below answers exactly this: the script runs alone
local seq = tonumber(redis.call('GET', seqKey) or '0') + 1
local key = 0
if phase ~= 'SCHEDULED' then key = seq end
status_keys(seq)
local perWindow = tonumber(ev[5] or '0')
local jr
if perWindow > 0 then
  jr = K('jr')
end
local okey
if key > 0 then
  okey = B('o:', key)
end
m = undeclared()
if m then return m end

if jr then
  local seconds = tonumber(ev[4])
  local t = redis.call('TIME')
  local window = math.floor(tonumber(t[1]) / seconds)
  local counted = redis.call('HMGET', jr, 'w', 'n')
  local n = 0
  if counted[1] == tostring(window) then n = tonumber(counted[2]) end
  if n >= perWindow then
    local leftMs = (window + 1) * seconds * 1000 - (tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
    return {'THROTTLED', tostring(math.max(1, math.ceil(leftMs / 1000)))}
  end
  redis.call('HSET', jr, 'w', tostring(window), 'n', tostring(n + 1))
  redis.call('EXPIRE', jr, 2 * seconds)
end

redis.call('INCR', seqKey)
local field = seq % 128
redis.call('HSET', B('e:', seq), field, WAITING .. '|' .. key .. '|' .. ARGV[2] .. '|' .. ARGV[4] .. '|0')
redis.call('HSET', idKey, identity, seq)
if key > 0 then
  redis.call('SETBIT', K('w'), key, 1)
  redis.call('HSET', okey, key % 128, seq)
end
redis.call('HINCRBY', cnt, 'waiting', 1)
redis.call('HINCRBY', cnt, 'joins', 1)
if rejoin then redis.call('HINCRBY', cnt, 'rejoins', 1) end
redis.call('HSET', B('s:', seq), field, ARGV[4])
return answer('CREATED', seq)
