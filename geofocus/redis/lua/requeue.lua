-- Helper (needs home_of): puts a leased fingerprint back in its home queue at its leased priority;
-- an entry geofocus did not write goes to B:bad instead.  Returns 1 if queued again.
local function requeue(b, fp)
  local l = redis.call('HGET', b .. ':lease', fp)
  redis.call('ZREM', b .. ':leases', fp)
  redis.call('HDEL', b .. ':lease', fp)
  local v = redis.call('HGET', b .. ':req', fp)
  local t = l and string.find(l, '\t', 1, true)
  local prio = t and tonumber(string.sub(l, t + 1))
  local home = v and home_of(v)
  if prio and home then
    redis.call('ZADD', b .. ':q:' .. home, prio, fp)
    return 1
  elseif v then  -- not written by geofocus: aside, never queued again
    redis.call('HSET', b .. ':bad', fp, 'unreadable entry or lease\t' .. v)
    redis.call('HDEL', b .. ':req', fp)
    redis.call('HINCRBY', b .. ':stats', 'malformed', 1)
  end
  return 0
end
