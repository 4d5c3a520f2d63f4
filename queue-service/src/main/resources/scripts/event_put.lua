-- Stores the event state the coordinator pushes. Guards the phase lifecycle and the sale generation;
-- leaving SCHEDULED freezes the pre-sale group (every entry created so far).
-- KEYS[1] event hash, KEYS[2] sequence 'seq', KEYS[3] counters 'cnt', KEYS[4] the tombstone 'gone' of a dropped event
-- (event_drop.lua): while it lives no push is taken, so a push read before the drop cannot bring the event back
-- ARGV[1] key prefix, ARGV[2] new phase, ARGV[3] phases it may follow (',A,B,'), ARGV[4] now (epoch millis),
-- ARGV[5] sale generation, then field/value pairs (an empty value removes the field)
local seqKey, cnt, gone = K('seq'), K('cnt'), K('gone')
local m = undeclared()
if m then return m end
if redis.call('EXISTS', gone) == 1 then
  return {'GONE'}
end
local cur = redis.call('HMGET', KEYS[1], 'phase', 'gen')
if cur[1] and not string.find(ARGV[3], ',' .. cur[1] .. ',', 1, true) then
  return {'PHASE', cur[1]}
end
if cur[2] and tonumber(ARGV[5]) < tonumber(cur[2]) then
  return {'STALE', cur[2]}
end
if ARGV[2] ~= 'SCHEDULED' and redis.call('HEXISTS', KEYS[1], 'presale') == 0 then
  redis.call('HSET', KEYS[1], 'presale', redis.call('GET', seqKey) or '0', 'openedAt', ARGV[4])
end
redis.call('HSET', KEYS[1], 'phase', ARGV[2], 'gen', ARGV[5], 'updatedAt', ARGV[4])
for i = 6, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', KEYS[1], ARGV[i])
  else
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
local out = redis.call('HGETALL', KEYS[1])
table.insert(out, 1, 'OK')
table.insert(out, 'waiting')
table.insert(out, redis.call('HGET', cnt, 'waiting') or '0')
return out
