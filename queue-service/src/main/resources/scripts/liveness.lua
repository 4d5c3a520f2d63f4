-- Liveness seen at the edge: the gateway answered these visitors' polls itself and reports them in one batch.
-- Writes last-seen only for an entry that is WAITING and held by the visitor named; never touches order.
-- KEYS: for entry i, KEYS[2i-1] its record bucket 'e:<seq/128>' and KEYS[2i] its last-seen bucket 's:<seq/128>'
-- ARGV[1] now (epoch seconds); for entry i, ARGV[2i] its sequence and ARGV[2i+1] the visitor id.
-- Answers the sequences of the entries that are not waiting for that visitor. WAITING, the stored letter, is a local
-- generated from the Java EntryState when the script is loaded.
local now = ARGV[1]
local out = {}
for i = 1, #KEYS / 2 do
  local seq = ARGV[2 * i]
  local field = tonumber(seq) % 128
  local rec = redis.call('HGET', KEYS[2 * i - 1], field)
  local state, visitor
  if rec then state, visitor = string.match(rec, '^(%u)|%d+|([^|]*)|') end
  if state == WAITING and visitor == ARGV[2 * i + 1] then
    redis.call('HSET', KEYS[2 * i], field, now)
  else
    table.insert(out, seq)
  end
end
return out
