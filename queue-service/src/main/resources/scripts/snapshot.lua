-- The edge snapshot: event state plus up to 64 buckets over the WAITING order keys. Bucket i counts the
-- waiting entries with order keys in (max of bucket i-1, maxOrderKey of bucket i]; empty buckets are left out.
-- KEYS[1] event hash, KEYS[2] waiting bitmap, KEYS[3] counters 'cnt'; ARGV[1] key prefix, ARGV[2] bucket count
local cnt = K('cnt')
local m = undeclared()
if m then return m end
local ev = redis.call('HGETALL', KEYS[1])
if #ev == 0 then return {'NO_EVENT'} end
local out = {'OK', tostring(#ev)}
for i = 1, #ev do table.insert(out, ev[i]) end
table.insert(out, redis.call('HGET', cnt, 'waiting') or '0')
local w = KEYS[2]
local first = redis.call('BITPOS', w, 1)
if first < 0 then return out end
local fb = math.floor(first / 8)
local lb = redis.call('STRLEN', w) - 1
local width = math.ceil((lb - fb + 1) / tonumber(ARGV[2]))
local b = fb
while b <= lb do
  local e = math.min(b + width - 1, lb)
  local c = redis.call('BITCOUNT', w, b, e)
  if c > 0 then
    table.insert(out, tostring((e + 1) * 8 - 1))
    table.insert(out, tostring(c))
  end
  b = e + 1
end
return out
