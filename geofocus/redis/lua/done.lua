-- Mark fingerprints fetched: lease and queue entry dropped, seen-set entry set to the node.
-- ARGV: b, node, then one argument per fingerprint: its seen shard suffix (4 characters) and field
-- (14 bytes), then the fingerprint (one argument, not two: the worker packs each argument on its own).
-- Returns {seen, refetched, overlap}.
local b, node = ARGV[1], ARGV[2]
local seen, refetched, overlap, dequeued = 0, 0, 0, 0
for i = 3, #ARGV do
  local fp = string.sub(ARGV[i], 19)
  local leased = redis.call('ZREM', b .. ':leases', fp)
  redis.call('HDEL', b .. ':lease', fp)
  if leased == 1 then
    -- still leased (the usual case): a leased entry is in no queue (pop, requeue and push keep it
    -- so), so its stored request goes without being read
    dequeued = dequeued + redis.call('HDEL', b .. ':req', fp)
  else
    local v = redis.call('HGET', b .. ':req', fp)
    if v then
      dequeued = dequeued + 1
      -- a lease that expired was queued again meanwhile: it is fetched now, drop it
      local home = home_of(v)
      if home then redis.call('ZREM', b .. ':q:' .. home, fp) end
      redis.call('HDEL', b .. ':req', fp)
    end
  end
  local skey = b .. ':seen:' .. string.sub(ARGV[i], 1, 4)
  local sfield = string.sub(ARGV[i], 5, 18)
  if redis.call('HSETNX', skey, sfield, node) == 1 then
    seen = seen + 1
  else
    refetched = refetched + 1
    if redis.call('HGET', skey, sfield) ~= node then overlap = overlap + 1 end
  end
end
if seen > 0 then redis.call('HINCRBY', b .. ':stats', 'seen', seen) end
if refetched > 0 then redis.call('HINCRBY', b .. ':stats', 'refetched', refetched) end
if overlap > 0 then redis.call('HINCRBY', b .. ':stats', 'overlap', overlap) end
-- done for an entry that was queued (push/new = done/queued + queued + leased, always)
if dequeued > 0 then redis.call('HINCRBY', b .. ':stats', 'done/queued', dequeued) end
return {seen, refetched, overlap}
