-- Moves one entry along its lifecycle for the grant that holds it. Repeating a transition that already
-- happened answers the same state and changes nothing.
-- KEYS[1] event hash, then 'cnt', 'of', 'seq', 'w', 'lane', 'lq', the 'e:' bucket of the entry and, for a requeue, the 'o:'
-- bucket of the next sequence (lib/declared_keys.lua)
-- ARGV[1] key prefix, ARGV[2] entry sequence, ARGV[3] the target: the letter of ACTIVE, COMPLETED or EXPIRED,
-- OFFER_EXPIRED (no state of its own: the event's expired-offer policy decides) or OFFER_WITHDRAWN (the offer was
-- withdrawn, the event sold out: WAITING again under the same order key, the requeue count unchanged), ARGV[4] grant id.
-- Generated from the Java EntryState when the script is loaded: the state letters (WAITING, OFFERED, ...), COUNTER
-- (letter -> counter field), NEXT (letter -> the letters it may move to); OFFER_EXPIRED and OFFER_WITHDRAWN come from
-- OfferStore.
local policy = redis.call('HGET', KEYS[1], 'policy')
if not redis.call('HGET', KEYS[1], 'phase') then return {'NO_EVENT'} end
local seq = tonumber(ARGV[2])
local ekey, cnt, of, seqKey, w = B('e:', seq), K('cnt'), K('of'), K('seq'), K('w')
local lanes, lq = K('lane'), K('lq')
local m = undeclared()
if m then return m end
local field = seq % 128
local rec = redis.call('HGET', ekey, field)
if not rec then return {'NO_ENTRY'} end
local state, key, visitor, joined, rq = string.match(rec, '^(%u)|(%d+)|([^|]*)|(%d+)|(%d+)$')
local offer = redis.call('HGET', of, seq)
local holds = offer and string.match(offer, '^([^|]*)|') == ARGV[4]
local target = ARGV[3]
if not holds then return {'GRANT', state} end

-- WAITING again under order key k: in its lane's queue for a lane member, in the waiting bitmap otherwise
local function wait_again(k)
  local lane = redis.call('HGET', lanes, seq)
  if lane then
    redis.call('ZADD', lq, 0, lane_member(lane, k, seq))
  else
    redis.call('SETBIT', w, k, 1)
  end
end

local function move(to, newKey, newRq)
  redis.call('HSET', ekey, field, to .. '|' .. newKey .. '|' .. visitor .. '|' .. joined .. '|' .. newRq)
  redis.call('HINCRBY', cnt, COUNTER[state], -1)
  redis.call('HINCRBY', cnt, COUNTER[to], 1)
end

if target == OFFER_EXPIRED then
  if state == OFFERED then
    local requeue = (policy or 'REQUEUE_ONCE') == 'REQUEUE_ONCE' and rq == '0'
    local newKey, okey
    if requeue then
      -- the INCR below answers exactly this: the script runs alone
      newKey = tonumber(redis.call('GET', seqKey) or '0') + 1
      okey = B('o:', newKey)
      m = undeclared()
      if m then return m end
    end
    redis.call('HINCRBY', cnt, 'offerExpired', 1)
    if requeue then
      -- back of the queue once: a fresh order key behind everyone waiting now
      redis.call('INCR', seqKey)
      move(WAITING, newKey, 1)
      wait_again(newKey)
      redis.call('HSET', okey, newKey % 128, seq)
      redis.call('HINCRBY', cnt, 'requeued', 1)
      return {'OK', WAITING}
    end
    move(EXPIRED, key, rq)
    return {'OK', EXPIRED}
  end
  if (state == WAITING and rq ~= '0') or state == EXPIRED then return {'OK', state} end
  return {'STATE', state}
end

if target == OFFER_WITHDRAWN then
  if state == OFFERED then
    -- the place is kept: the order key's bucket in 'o:' still names this entry, only its waiting bit was cleared
    move(WAITING, key, rq)
    wait_again(tonumber(key))
    return {'OK', WAITING}
  end
  if state == WAITING then return {'OK', state} end
  return {'STATE', state}
end

if state == target then return {'OK', state} end
if not NEXT[state][target] then return {'STATE', state} end
move(target, key, rq)
return {'OK', target}
