-- Writes one chunk of the pre-sale draw: the order key of each pre-sale entry. The order is computed
-- outside (HMAC-SHA256(seed, entryId)); every chunk is idempotent, so an interrupted draw simply runs
-- again with the same result. The final chunk marks the draw complete; after that every call is a no-op.
-- KEYS[1] event hash, then 'w', 'lane', 'lq' and the 'e:' and 'o:' buckets of the pairs (lib/declared_keys.lua)
-- ARGV[1] key prefix, ARGV[2] seed (hex), ARGV[3] '1' for the final chunk, ARGV[4] now (epoch millis),
-- then pairs: entry sequence, order key
local w, lanes, lq = K('w'), K('lane'), K('lq')
for i = 5, #ARGV, 2 do B('e:', ARGV[i]); B('o:', ARGV[i + 1]) end
local m = undeclared()
if m then return m end
local ev = redis.call('HMGET', KEYS[1], 'phase', 'drawAt', 'drawSeed')
if not ev[1] then return {'NO_EVENT'} end
if ev[1] == 'SCHEDULED' then return {'NOT_OPEN'} end
if ev[3] and ev[3] ~= ARGV[2] then return {'SEED_MISMATCH'} end
if ev[2] then return {'DONE', ev[2]} end
if not ev[3] then redis.call('HSET', KEYS[1], 'drawSeed', ARGV[2]) end
for i = 5, #ARGV, 2 do
  local seq = tonumber(ARGV[i])
  local key = tonumber(ARGV[i + 1])
  local ekey = B('e:', seq)
  local field = seq % 128
  local rec = redis.call('HGET', ekey, field)
  if rec then
    local state, rest = string.match(rec, '^(%u)|%d+|(.*)$')
    redis.call('HSET', ekey, field, state .. '|' .. key .. '|' .. rest)
    redis.call('HSET', B('o:', key), key % 128, seq)
    if state == WAITING then
      -- an entry that redeemed an access code before the draw takes its drawn place in its lane's queue
      local lane = redis.call('HGET', lanes, seq)
      if lane then
        redis.call('ZADD', lq, 0, lane_member(lane, key, seq))
      else
        redis.call('SETBIT', w, key, 1)
      end
    end
  end
end
if ARGV[3] == '1' then
  redis.call('HSET', KEYS[1], 'drawAt', ARGV[4])
  return {'DONE', ARGV[4]}
end
return {'PARTIAL'}
