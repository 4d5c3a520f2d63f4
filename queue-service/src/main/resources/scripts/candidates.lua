-- The next WAITING entries in policy order (ascending order key), without removing them.
-- Empty until the pre-sale draw is complete. Reads only; which 'o:' and 'e:' buckets it reads follows from the
-- bitmap and from the order buckets, so a first call may answer KEYS twice (lib/declared_keys.lua).
-- KEYS[1] event hash, KEYS[2] waiting bitmap, then the 'o:' and 'e:' buckets; ARGV[1] key prefix, ARGV[2] limit
local ev = redis.call('HMGET', KEYS[1], 'phase', 'presale', 'drawAt')
if not ev[1] then return {'NO_EVENT'} end
local out = {'OK'}
if ev[1] == 'SCHEDULED' or (tonumber(ev[2] or '0') > 0 and not ev[3]) then return out end
local limit = tonumber(ARGV[2])
local w = KEYS[2]
local first = redis.call('BITPOS', w, 1)
if first < 0 then return out end

-- the order keys of the first `limit` waiting entries, from the bitmap alone
local keys = {}
local byte = math.floor(first / 8)
while #keys < limit do
  local chunk = redis.call('GETRANGE', w, byte, byte + 255)
  if #chunk == 0 then break end
  for i = 1, #chunk do
    local b = string.byte(chunk, i)
    if b ~= 0 then
      for j = 0, 7 do
        if #keys < limit and bit.band(b, bit.rshift(128, j)) ~= 0 then
          keys[#keys + 1] = (byte + i - 1) * 8 + j
        end
      end
    end
    if #keys >= limit then break end
  end
  if #keys >= limit then break end
  local nxt = redis.call('BITPOS', w, 1, byte + #chunk)
  if nxt < 0 then break end
  byte = math.floor(nxt / 8)
end

for i = 1, #keys do B('o:', keys[i]) end
local m = undeclared()
if m then return m end
local seqs = {}
for i = 1, #keys do
  seqs[i] = redis.call('HGET', B('o:', keys[i]), keys[i] % 128)
  B('e:', seqs[i])
end
m = undeclared()
if m then return m end
for i = 1, #keys do
  local seq = tonumber(seqs[i])
  local rec = redis.call('HGET', B('e:', seq), seq % 128)
  table.insert(out, seqs[i])
  table.insert(out, string.match(rec, '^%u|%d+|([^|]*)|'))
  table.insert(out, tostring(keys[i]))
end
return out
