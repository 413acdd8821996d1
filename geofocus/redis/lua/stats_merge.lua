-- Add one worker's Scrapy stats to the crawl's shared stats hash, atomically (no lost increment,
-- no torn maximum).  ARGV: hash key, then (op, field, value) triples; op is
-- 'f' (add: HINCRBYFLOAT), 'n' (set if absent: HSETNX), 's' (HSET), 'max' or 'min' (keep the
-- larger/smaller number).  Adding to a field that holds text leaves it alone.
local key = ARGV[1]
for i = 2, #ARGV, 3 do
  local op, f, v = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if op == 'f' then
    redis.pcall('HINCRBYFLOAT', key, f, v)
  elseif op == 'n' then
    redis.call('HSETNX', key, f, v)
  elseif op == 's' then
    redis.call('HSET', key, f, v)
  else
    local cur = tonumber(redis.call('HGET', key, f))
    local new = tonumber(v)
    if new and ((not cur) or (op == 'max' and new > cur) or (op == 'min' and new < cur)) then
      redis.call('HSET', key, f, v)
    end
  end
end
return 0
