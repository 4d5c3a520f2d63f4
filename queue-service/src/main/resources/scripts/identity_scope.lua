-- The event's identity scope (BROWSER or ACCOUNT), read before a visitor route that comes without an account.
-- KEYS[1] event hash. Answers OK and the scope (BROWSER when none was pushed), or NO_EVENT.
local scope = redis.call('HGET', KEYS[1], 'scope')
if not scope then
  if redis.call('EXISTS', KEYS[1]) == 0 then return {'NO_EVENT'} end
  return {'OK', 'BROWSER'}
end
return {'OK', scope}
