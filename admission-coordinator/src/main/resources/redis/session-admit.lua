-- Marks a shopping session live for the gateway, unless it has already been released.
-- KEYS[1] wr:{eventId}:session:<sessionId>   KEYS[2] wr:{eventId}:ended:<sessionId> (release tombstone)
-- ARGV[1] sale generation   ARGV[2] session expiry, epoch milliseconds
-- Returns 1 when the session is live, 0 when it was released (a racing claim or renew must not revive it).
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
return 1
