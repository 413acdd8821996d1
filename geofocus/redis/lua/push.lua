-- Queue entries or raise their priority (ZADD GT); a leased or fetched fingerprint is rejected.
-- ARGV: b, node (where new entries are queued), then (fp, seen shard suffix (4 characters) and
-- field, priority, "slot\tjson") quadruples.
-- Returns {new, raised, rejected}.
local b, node = ARGV[1], ARGV[2]
local new, raised, rejected = 0, 0, 0
for i = 3, #ARGV, 4 do
  local fp, seen, prio, val = ARGV[i], ARGV[i+1], tonumber(ARGV[i+2]), ARGV[i+3]
  if redis.call('HEXISTS', b .. ':seen:' .. string.sub(seen, 1, 4), string.sub(seen, 5)) == 1
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
