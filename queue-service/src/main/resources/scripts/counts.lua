-- Counters of one event, and when the entry at the front of the queue joined.
-- KEYS[1] event hash, KEYS[2] counters hash, KEYS[3] waiting bitmap; ARGV[1] key prefix
local P = ARGV[1]
if redis.call('EXISTS', KEYS[1]) == 0 then return {'NO_EVENT'} end
local out = redis.call('HGETALL', KEYS[2])
table.insert(out, 1, 'OK')
local first = redis.call('BITPOS', KEYS[3], 1)
if first >= 0 then
  local seq = redis.call('HGET', P .. 'o:' .. math.floor(first / 128), first % 128)
  local rec = redis.call('HGET', P .. 'e:' .. math.floor(tonumber(seq) / 128), tonumber(seq) % 128)
  table.insert(out, 'frontJoinedAt')
  table.insert(out, string.match(rec, '^%u|%d+|[^|]*|(%d+)|'))
end
return out
