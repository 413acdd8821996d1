-- Queue entries or raise their priority (ZADD GT); a leased or fetched fingerprint is rejected.
-- ARGV: b, node (where new entries are queued), then one argument per entry: its seen shard suffix
-- (4 characters) and field (14 bytes), its priority, a tab, the fingerprint's length in bytes, a tab,
-- the fingerprint, then "slot\tjson" (one argument, not four: the worker packs each argument on its own).
-- Returns {new, raised, rejected}.
local b, node = ARGV[1], ARGV[2]
local new, raised, rejected = 0, 0, 0
local sub, find = string.sub, string.find
for i = 3, #ARGV do
  local a = ARGV[i]
  local t1 = find(a, '\t', 19, true)
  local t2 = find(a, '\t', t1 + 1, true)
  local n = tonumber(sub(a, t1 + 1, t2 - 1))
  local fp, prio, val = sub(a, t2 + 1, t2 + n), tonumber(sub(a, 19, t1 - 1)), sub(a, t2 + n + 1)
  if redis.call('HEXISTS', b .. ':seen:' .. sub(a, 1, 4), sub(a, 5, 18)) == 1
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
