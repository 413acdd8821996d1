-- New priorities (up or down) of entries still queued; a leased or fetched one is left alone.
-- ARGV: b, then (fp, priority, new "slot\tjson" or '' to keep the stored request) triples.
-- Returns how many priorities changed.
local b = ARGV[1]
local n = 0
for i = 2, #ARGV, 3 do
  local fp = ARGV[i]
  local v = redis.call('HGET', b .. ':req', fp)
  local home = v and home_of(v)
  if home then
    if redis.call('ZADD', b .. ':q:' .. home, 'XX', 'CH', tonumber(ARGV[i + 1]), fp) == 1 then
      if ARGV[i + 2] ~= '' then redis.call('HSET', b .. ':req', fp, home .. '\t' .. ARGV[i + 2]) end
      n = n + 1
    end
  end
end
return n
