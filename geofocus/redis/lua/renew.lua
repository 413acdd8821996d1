-- Renew the leases still held by this worker.  ARGV: b, worker, deadline (ms), fps...
-- Returns how many were renewed.
local b, worker, deadline = ARGV[1], ARGV[2], tonumber(ARGV[3])
local n = 0
for i = 4, #ARGV do
  local l = redis.call('HGET', b .. ':lease', ARGV[i])
  if l and string.sub(l, 1, #worker + 1) == worker .. '\t' then
    redis.call('ZADD', b .. ':leases', 'XX', deadline, ARGV[i])
    n = n + 1
  end
end
return n
