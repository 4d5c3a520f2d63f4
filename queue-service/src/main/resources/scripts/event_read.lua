-- The stored event state and the number waiting.
-- KEYS[1] event hash, KEYS[2] counters 'cnt'; ARGV[1] key prefix
local cnt = K('cnt')
local m = undeclared()
if m then return m end
local out = redis.call('HGETALL', KEYS[1])
if #out == 0 then return {'NO_EVENT'} end
table.insert(out, 1, 'OK')
table.insert(out, 'waiting')
table.insert(out, redis.call('HGET', cnt, 'waiting') or '0')
return out
