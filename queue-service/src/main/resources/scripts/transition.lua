-- Moves one entry along its lifecycle for the grant that holds it. Repeating a transition that already
-- happened answers the same state and changes nothing.
-- KEYS[1] event hash, then 'cnt', 'of', 'seq', 'w', the 'e:' bucket of the entry and, for a requeue, the 'o:'
-- bucket of the next sequence (lib/declared_keys.lua)
-- ARGV[1] key prefix, ARGV[2] entry sequence, ARGV[3] target ('A' active, 'C' completed, 'E' expired,
-- 'X' offer expired: the event's expired-offer policy decides), ARGV[4] grant id,
-- ARGV[5] states the target may follow (letters, from the Java lifecycle)
local counter = {W = 'waiting', O = 'offered', A = 'active', C = 'completed', L = 'left', E = 'expired'}
local policy = redis.call('HGET', KEYS[1], 'policy')
if not redis.call('HGET', KEYS[1], 'phase') then return {'NO_EVENT'} end
local seq = tonumber(ARGV[2])
local ekey, cnt, of, seqKey, w = B('e:', seq), K('cnt'), K('of'), K('seq'), K('w')
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

local function move(to, newKey, newRq)
  redis.call('HSET', ekey, field, to .. '|' .. newKey .. '|' .. visitor .. '|' .. joined .. '|' .. newRq)
  redis.call('HINCRBY', cnt, counter[state], -1)
  redis.call('HINCRBY', cnt, counter[to], 1)
end

if target == 'X' then
  if state == 'O' then
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
      move('W', newKey, 1)
      redis.call('SETBIT', w, newKey, 1)
      redis.call('HSET', okey, newKey % 128, seq)
      redis.call('HINCRBY', cnt, 'requeued', 1)
      return {'OK', 'W'}
    end
    move('E', key, rq)
    return {'OK', 'E'}
  end
  if (state == 'W' and rq ~= '0') or state == 'E' then return {'OK', state} end
  return {'STATE', state}
end

if state == target then return {'OK', state} end
if not string.find(ARGV[5], state, 1, true) then return {'STATE', state} end
move(target, key, rq)
return {'OK', target}
