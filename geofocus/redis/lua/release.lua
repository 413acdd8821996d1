-- Give this worker's leases back to the queue (unused prefetches at close, retries).
-- ARGV: b, worker, then (fp, new priority or '', new "slot\tjson" or '') triples.
-- Returns how many were queued again.
local b, worker = ARGV[1], ARGV[2]
local n = 0
for i = 3, #ARGV, 3 do
  local fp = ARGV[i]
  local l = redis.call('HGET', b .. ':lease', fp)
  if l and string.sub(l, 1, #worker + 1) == worker .. '\t' then
    local v = redis.call('HGET', b .. ':req', fp)
    if v and ARGV[i + 2] ~= '' and home_of(v) then
      local home = home_of(v)
      redis.call('HSET', b .. ':req', fp, home .. '\t' .. ARGV[i + 2])
    end
    if ARGV[i + 1] ~= '' then
      redis.call('HSET', b .. ':lease', fp, worker .. '\t' .. ARGV[i + 1])
    end
    n = n + requeue(b, fp)
  end
end
if n > 0 then redis.call('HINCRBY', b .. ':stats', 'released', n) end
return n
