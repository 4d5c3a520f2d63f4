-- WAITING -> OFFERED for each entry, with its grant and claim deadline. An entry already OFFERED with the
-- same grant keeps its offer, its deadline moved to the one sent when that is later (a pause gave the offer its time
-- back), never earlier; any other entry is left as it is and reported with its state.
-- KEYS[1] event hash, then 'cnt', 'w', 'of', 'lane', 'lq' and the 'e:' bucket of every entry (lib/declared_keys.lua)
-- ARGV[1] key prefix, then triples: entry sequence, grant id, offer deadline (epoch millis)
-- Returns per entry: entry sequence, state letter (or '-' when unknown), '1' when the entry holds this grant.
-- State letters (WAITING, OFFERED) are locals generated from the Java EntryState when the script is loaded.
local cnt, w, of, lanes, lq = K('cnt'), K('w'), K('of'), K('lane'), K('lq')
for i = 2, #ARGV, 3 do B('e:', ARGV[i]) end
local m = undeclared()
if m then return m end
local ev = redis.call('HMGET', KEYS[1], 'phase', 'presale', 'drawAt', 'wm')
if not ev[1] then return {'NO_EVENT'} end
if ev[1] == 'SCHEDULED' or (tonumber(ev[2] or '0') > 0 and not ev[3]) then return {'NOT_DRAWN'} end
local wm = tonumber(ev[4] or '0')
local out = {'OK'}
local offered = 0
for i = 2, #ARGV, 3 do
  local seq = tonumber(ARGV[i])
  local grant = ARGV[i + 1]
  local ekey = B('e:', seq)
  local field = seq % 128
  local rec = redis.call('HGET', ekey, field)
  if not rec then
    table.insert(out, ARGV[i]); table.insert(out, '-'); table.insert(out, '0')
  else
    local state, key, rest = string.match(rec, '^(%u)|(%d+)|(.*)$')
    if state == WAITING then
      redis.call('HSET', ekey, field, OFFERED .. '|' .. key .. '|' .. rest)
      local lane = redis.call('HGET', lanes, seq)
      if lane then
        redis.call('ZREM', lq, lane_member(lane, key, seq))
      end
      key = tonumber(key)
      redis.call('SETBIT', w, key, 0)
      redis.call('HSET', of, seq, grant .. '|' .. ARGV[i + 2])
      offered = offered + 1
      if key > wm then wm = key end
      table.insert(out, ARGV[i]); table.insert(out, OFFERED); table.insert(out, '1')
    else
      local holds = '0'
      local current = redis.call('HGET', of, seq)
      if current then
        local held, deadline = string.match(current, '^([^|]*)|(%d*)$')
        if held == grant then
          holds = '1'
          if state == OFFERED and tonumber(ARGV[i + 2]) > (tonumber(deadline) or 0) then
            redis.call('HSET', of, seq, grant .. '|' .. ARGV[i + 2])
          end
        end
      end
      table.insert(out, ARGV[i]); table.insert(out, state); table.insert(out, holds)
    end
  end
end
if offered > 0 then
  redis.call('HINCRBY', cnt, 'waiting', -offered)
  redis.call('HINCRBY', cnt, 'offered', offered)
  redis.call('HSET', KEYS[1], 'wm', wm)
end
return out
