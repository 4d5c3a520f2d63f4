-- Ends a shopping session for the gateway before its capacity returns, and leaves a tombstone so that a claim
-- or renew racing with this release can never set the key again.
-- KEYS[1] wr:{eventId}:session:<sessionId>   KEYS[2] wr:{eventId}:ended:<sessionId>
-- ARGV[1] tombstone expiry, epoch milliseconds (after the session's absolute limit)
redis.call('SET', KEYS[2], '1', 'PXAT', ARGV[1])
return redis.call('DEL', KEYS[1])
