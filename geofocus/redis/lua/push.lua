-- Queue entries or raise their priority (ZADD GT); a leased or fetched fingerprint is rejected.
-- ARGV: b, then (fp, seen shard, seen field, priority, node, "slot\tjson") sextuples.
-- Returns {new, raised, rejected}.
local b = ARGV[1]
local new, raised, rejected = 0, 0, 0
for i = 2, #ARGV, 6 do
  local fp, skey, sfield, prio, node, val =
    ARGV[i], ARGV[i+1], ARGV[i+2], tonumber(ARGV[i+3]), ARGV[i+4], ARGV[i+5]
  if redis.call('HEXISTS', b .. ':seen:' .. skey, sfield) == 1
      or redis.call('ZSCORE', b .. ':leases', fp) then
    rejected = rejected + 1
  else
    local old = redis.call('HGET', b .. ':req', fp)
    if not old then
      redis.call('ZADD', b .. ':q:' .. node, prio, fp)
      redis.call('HSET', b .. ':req', fp, node .. '\t' .. val)
      new = new + 1
    else
      -- already queued (maybe for another node): it stays where it is, at the better priority
      local home = home_of(old) or node
      local q = b .. ':q:' .. home
      local cur = redis.call('ZSCORE', q, fp)
      if (not cur) or prio > tonumber(cur) then
        redis.call('ZADD', q, 'GT', prio, fp)
        redis.call('HSET', b .. ':req', fp, home .. '\t' .. val)
        raised = raised + 1
      else
        rejected = rejected + 1
      end
    end
  end
end
if new > 0 then redis.call('HINCRBY', b .. ':stats', 'push/new', new) end
if raised > 0 then redis.call('HINCRBY', b .. ':stats', 'push/raised', raised) end
if rejected > 0 then redis.call('HINCRBY', b .. ':stats', 'push/rejected', rejected) end
return {new, raised, rejected}
