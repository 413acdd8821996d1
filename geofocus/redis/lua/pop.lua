-- Lease the best entries of a node's queue: at most slot_cap per slot, none of the excluded
-- slots, a fair share of a short queue.
-- ARGV: b, node, worker, deadline (ms), batch, max_scan, slot_cap, workers, excluded slots...
-- Returns a flat list of (fp, priority, "slot\tjson") triples.
local b, node, worker = ARGV[1], ARGV[2], ARGV[3]
local deadline, batch, max_scan, slot_cap, workers =
  tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local excluded = {}
for i = 9, #ARGV do excluded[ARGV[i]] = true end
local q = b .. ':q:' .. node
-- a fair share of a short queue, so that one worker does not hoard what the others could fetch
local fair = math.ceil(redis.call('ZCARD', q) / math.max(workers, 1))
if fair < batch then batch = math.max(fair, 1) end
local per_slot, picked, orphans = {}, {}, {}
local start, chunk = 0, 64
while #picked < 3 * batch and start < max_scan do
  local items = redis.call('ZREVRANGE', q, start, start + chunk - 1, 'WITHSCORES')
  if #items == 0 then break end
  for k = 1, #items, 2 do
    local fp = items[k]
    local v = redis.call('HGET', b .. ':req', fp)
    if not v then
      orphans[#orphans + 1] = fp
    else
      local a = string.find(v, '\t', 1, true)
      local c = a and string.find(v, '\t', a + 1, true)
      if not c then
        -- not written by geofocus: leased like any entry, so that the worker sets it aside
        picked[#picked + 1] = fp
        picked[#picked + 1] = items[k + 1]
        picked[#picked + 1] = '\1malformed\t' .. v
        if #picked >= 3 * batch then break end
      else
        local slot = string.sub(v, a + 1, c - 1)
        local n = per_slot[slot] or 0
        if not excluded[slot] and n < slot_cap then
          per_slot[slot] = n + 1
          picked[#picked + 1] = fp
          picked[#picked + 1] = items[k + 1]
          picked[#picked + 1] = string.sub(v, a + 1)
          if #picked >= 3 * batch then break end
        end
      end
    end
  end
  start = start + chunk
end
for _, fp in ipairs(orphans) do redis.call('ZREM', q, fp) end
for k = 1, #picked, 3 do
  local fp = picked[k]
  redis.call('ZREM', q, fp)
  redis.call('ZADD', b .. ':leases', deadline, fp)
  redis.call('HSET', b .. ':lease', fp, worker .. '\t' .. picked[k + 1])
end
return picked
