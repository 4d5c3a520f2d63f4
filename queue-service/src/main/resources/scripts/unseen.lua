-- Liveness of the waiting visitors over a run of sequence buckets: how many WAITING entries there are and how many
-- of them were last seen (a poll, at the service or at the edge, or their join) before the cutoff. Reads only.
-- Called bucket run by bucket run (docs/reference/metrics.md), so no call holds Redis for long.
-- KEYS[1] the event's sequence 'seq'; for bucket i of the run, KEYS[2i] its entry records 'e:<n>' and KEYS[2i+1] its
-- last-seen times 's:<n>'. ARGV[1] the cutoff (epoch seconds). Answers {waiting, unseen, last sequence}, the last so
-- that the caller knows how many buckets remain. WAITING, the stored letter, is a local generated
-- from the Java EntryState when the script is loaded.
local cutoff = tonumber(ARGV[1])
local waiting, unseen = 0, 0
for i = 1, (#KEYS - 1) / 2 do
  local records = redis.call('HGETALL', KEYS[2 * i])
  local fields, joined = {}, {}
  for j = 1, #records, 2 do
    local state, at = string.match(records[j + 1], '^(%u)|%d+|[^|]*|(%d+)|')
    if state == WAITING then
      fields[#fields + 1] = records[j]
      joined[#joined + 1] = tonumber(at)
    end
  end
  if #fields > 0 then
    waiting = waiting + #fields
    local seen = redis.call('HMGET', KEYS[2 * i + 1], unpack(fields))
    for j = 1, #fields do
      local last = tonumber(seen[j]) or joined[j]
      if last < cutoff then unseen = unseen + 1 end
    end
  end
end
return {tostring(waiting), tostring(unseen), redis.call('GET', KEYS[1]) or '0'}
