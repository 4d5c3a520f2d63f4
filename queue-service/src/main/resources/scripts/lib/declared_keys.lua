-- Prepended to every script that works on an event's keys (ARGV[1] is the event's key prefix 'wr:{eventId}:').
-- Redis Cluster needs a script to name in KEYS every key it touches: the node checks only those for the slot
-- (and for a slot being migrated, for their presence) before it runs the script. Some keys follow from data the
-- script reads (the buckets of an entry found by identity, of the next sequence, of the entries at the front).
-- So a script first names every key it will touch through K(); it touches none of them, and changes nothing,
-- unless all were declared. Otherwise it answers {'KEYS', name...} (names without the prefix) and the caller
-- calls again declaring them (docs/reference/contracts.md, "Redis keys and topologies").
local P = ARGV[1]
local declared = {}
for i = 1, #KEYS do declared[KEYS[i]] = true end
local asked, missing = {}, {}

local function K(name)
  local k = P .. name
  if not declared[k] and not asked[k] then
    asked[k] = true
    missing[#missing + 1] = name
  end
  return k
end

-- The bucket key 'prefix<n/128>' of an entry sequence or order key.
local function B(prefix, n)
  return K(prefix .. math.floor(tonumber(n) / 128))
end

-- The member of the lane queue 'lq' for an entry of lane `lane` with order key `key` and sequence `seq`: all
-- lanes' waiting entries in one sorted set of equal scores, ordered by lane name and then by order key, so a lane's
-- front, its length and the count ahead of an entry are ranges of it (docs/operating/lanes-and-access-codes.md).
local function lane_member(lane, key, seq)
  return lane .. ':' .. string.format('%015d', tonumber(key)) .. ':' .. seq
end

-- {'KEYS', name...} when a key named so far was not declared, else nil.
local function undeclared()
  if #missing == 0 then return nil end
  local out = {'KEYS'}
  for i = 1, #missing do out[#out + 1] = missing[i] end
  return out
end
