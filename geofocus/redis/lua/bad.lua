-- Set entries aside as malformed (in B:bad, fp -> "<reason>\t<stored value or request>"), their
-- leases released, never queued again.  ARGV: b, then (fp, reason, request JSON) triples.
local b = ARGV[1]
local n = 0
for i = 2, #ARGV, 3 do
  local fp = ARGV[i]
  redis.call('ZREM', b .. ':leases', fp)
  redis.call('HDEL', b .. ':lease', fp)
  local v = redis.call('HGET', b .. ':req', fp)
  if v then
    local home = home_of(v)
    if home then redis.call('ZREM', b .. ':q:' .. home, fp) end
    redis.call('HDEL', b .. ':req', fp)
  end
  redis.call('HSET', b .. ':bad', fp, ARGV[i + 1] .. '\t' .. (v or ARGV[i + 2]))
  n = n + 1
end
if n > 0 then redis.call('HINCRBY', b .. ':stats', 'malformed', n) end
return n
