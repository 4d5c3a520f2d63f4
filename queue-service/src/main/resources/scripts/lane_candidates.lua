-- The next WAITING entries of one declared lane in policy order (ascending order key), without removing them: the
-- lane's range of the lane queue 'lq' (lib/declared_keys.lua). Empty until the pre-sale draw is complete, as
-- candidates.lua, which answers the general lane.
-- KEYS[1] event hash, KEYS[2] 'lq', then the 'e:' buckets; ARGV[1] key prefix, ARGV[2] lane, ARGV[3] limit
-- Answers OK, then per entry: entry sequence, visitor, order key.
local ev = redis.call('HMGET', KEYS[1], 'phase', 'presale', 'drawAt')
if not ev[1] then return {'NO_EVENT'} end
local out = {'OK'}
if ev[1] == 'SCHEDULED' or (tonumber(ev[2] or '0') > 0 and not ev[3]) then return out end
local lq = K('lq')
local m = undeclared()
if m then return m end
local lane = ARGV[2]
local members = redis.call('ZRANGEBYLEX', lq, '[' .. lane .. ':', '(' .. lane .. ';', 'LIMIT', 0,
  tonumber(ARGV[3]))
local seqs, keys = {}, {}
for i = 1, #members do
  local key, seq = string.match(members[i], ':(%d+):(%d+)$')
  keys[i], seqs[i] = tonumber(key), seq
  B('e:', seq)
end
m = undeclared()
if m then return m end
for i = 1, #seqs do
  local seq = tonumber(seqs[i])
  local rec = redis.call('HGET', B('e:', seq), seq % 128)
  table.insert(out, seqs[i])
  table.insert(out, string.match(rec, '^%u|%d+|([^|]*)|'))
  table.insert(out, tostring(keys[i]))
end
return out
