-- Counters of one event, and when the entry at the front of the queue joined.
-- Reads only; the 'o:' and 'e:' buckets of the front entry follow from the bitmap (lib/declared_keys.lua).
-- KEYS[1] event hash, KEYS[2] counters hash, KEYS[3] waiting bitmap, then those buckets; ARGV[1] key prefix
if redis.call('EXISTS', KEYS[1]) == 0 then return {'NO_EVENT'} end
local first = redis.call('BITPOS', KEYS[3], 1)
local joined
if first >= 0 then
  local okey = B('o:', first)
  local m = undeclared()
  if m then return m end
  local seq = tonumber(redis.call('HGET', okey, first % 128))
  local ekey = B('e:', seq)
  m = undeclared()
  if m then return m end
  joined = string.match(redis.call('HGET', ekey, seq % 128), '^%u|%d+|[^|]*|(%d+)|')
end
local out = redis.call('HGETALL', KEYS[2])
table.insert(out, 1, 'OK')
if joined then
  table.insert(out, 'frontJoinedAt')
  table.insert(out, joined)
end
return out
