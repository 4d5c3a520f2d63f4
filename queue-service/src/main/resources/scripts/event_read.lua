-- The stored event state and the number waiting.
-- KEYS[1] event hash; ARGV[1] key prefix
local P = ARGV[1]
local out = redis.call('HGETALL', KEYS[1])
if #out == 0 then return {'NO_EVENT'} end
table.insert(out, 1, 'OK')
table.insert(out, 'waiting')
table.insert(out, redis.call('HGET', P .. 'cnt', 'waiting') or '0')
return out
