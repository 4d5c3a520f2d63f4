-- Drops an event the coordinator archived or deleted (docs/operating/event-lifecycle.md): removes its event hash, so
-- every later join, status read and snapshot finds no event, and leaves a tombstone that refuses a state push for a
-- while (a push the coordinator read before the drop must not bring the event back). With ARGV[2] '1' it drops only
-- an event nobody has joined: the entry sequence is still 0. The check and the removal are one step, so a join that
-- came first makes the drop refuse, and a join that comes after finds no event.
-- KEYS[1] event hash, KEYS[2] sequence 'seq', KEYS[3] tombstone 'gone'
-- ARGV[1] key prefix, ARGV[2] '1' only if nobody joined, ARGV[3] the tombstone's life in seconds
-- Answers OK and the entries the event had, or ENTRIES and their count (nothing changed).
local gone = K('gone')
local m = undeclared()
if m then return m end
local entries = tonumber(redis.call('GET', KEYS[2]) or '0')
if ARGV[2] == '1' and entries > 0 then
  return {'ENTRIES', tostring(entries)}
end
redis.call('DEL', KEYS[1])
redis.call('SET', gone, '1', 'EX', tonumber(ARGV[3]))
return {'OK', tostring(entries)}
