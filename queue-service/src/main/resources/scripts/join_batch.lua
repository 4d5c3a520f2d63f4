-- Joins in a batch (docs/design/architecture.md#batched-joins): the joins one gateway collected for the event, applied in
-- the order given, one after another in this one call. Each is exactly join.lua (prepended as join_one when the script
-- is loaded, with its own KEYS and ARGV), so a batch is the same sequence of joins made one by one, and each answer is
-- the one that join alone would have had.
-- KEYS[1] event hash; for join i, KEYS[2i] and KEYS[2i+1] its visitor's and its account's identity buckets; then the
-- other keys the joins touch (lib/declared_keys.lua).
-- ARGV[1] key prefix 'wr:{eventId}:', ARGV[2] now (epoch seconds), ARGV[3] liveness interval (seconds), ARGV[4] the
-- number of joins n; for join i, ARGV[3+2i] its visitor id and ARGV[4+2i] its account identity or ''.
-- Answers 'DONE', n, then per join the number of values of its join.lua answer and those values. A join that would
-- touch an undeclared key has changed nothing (join.lua reads before it writes), and the batch stops before it:
-- 'KEYS', the number k of joins made, their answers as above, then the missing names; the caller calls again with
-- the joins from k + 1 on, declaring them.
local n = tonumber(ARGV[4])
local out = {'DONE', '0'}
for i = 1, n do
  local r = join_one({KEYS[1], KEYS[2 * i], KEYS[2 * i + 1]},
    {ARGV[1], ARGV[3 + 2 * i], ARGV[4 + 2 * i], ARGV[2], ARGV[3]})
  if r[1] == 'KEYS' then
    out[1] = 'KEYS'
    for j = 2, #r do out[#out + 1] = r[j] end
    return out
  end
  out[2] = tostring(i)
  out[#out + 1] = tostring(#r)
  for j = 1, #r do out[#out + 1] = r[j] end
end
return out
