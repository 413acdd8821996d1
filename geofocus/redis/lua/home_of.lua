-- Helper (prepended to scripts that use it): the home node of a stored request value
-- "<home node>\t<slot>\t<json>"; nil for a value geofocus did not write (the scripts must not
-- fail on it: it is set aside instead).
local function home_of(v)
  local t = string.find(v, '\t', 1, true)
  if t then return string.sub(v, 1, t - 1) end
  return nil
end
