-- Expired leases (of dead or cut-off workers) back to their queue.  ARGV: b, now (ms), limit.
-- Returns how many were queued again.
local b = ARGV[1]
local expired = redis.call('ZRANGEBYSCORE', b .. ':leases', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local n = 0
for _, fp in ipairs(expired) do n = n + requeue(b, fp) end
if n > 0 then redis.call('HINCRBY', b .. ':stats', 'reclaimed', n) end
return n
