-- Set entries aside as malformed (in B:bad, fp -> "<reason>\t<stored value or request>"), their
-- leases released; like fetched ones they enter the seen-set (under this node), so they are
-- never queued again.  ARGV: b, node, then (fp, seen shard, seen field, reason, request JSON) quintuples.
local b, node = ARGV[1], ARGV[2]
local n = 0
for i = 3, #ARGV, 5 do
  local fp = ARGV[i]
  redis.call('ZREM', b .. ':leases', fp)
  redis.call('HDEL', b .. ':lease', fp)
  local v = redis.call('HGET', b .. ':req', fp)
  if v then
    local home = home_of(v)
    if home then redis.call('ZREM', b .. ':q:' .. home, fp) end
    redis.call('HDEL', b .. ':req', fp)
  end
  redis.call('HSETNX', b .. ':seen:' .. ARGV[i + 1], ARGV[i + 2], node)
  redis.call('HSET', b .. ':bad', fp, ARGV[i + 3] .. '\t' .. (v or ARGV[i + 4]))
  n = n + 1
end
if n > 0 then redis.call('HINCRBY', b .. ':stats', 'malformed', n) end
return n
