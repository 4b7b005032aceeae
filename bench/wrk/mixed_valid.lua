-- The soak's valid traffic: rotates through quick valid requests of the battle endpoints
-- (bodies from bench/wrk/bodies/) and the health and metrics routes, the mix a replica serves
-- most. Every one must answer 2xx; wrk reports any other
-- status as "Non-2xx or 3xx responses", and done() prints the count of each status.
local dir = os.getenv("WRK_BODIES") or "bench/wrk/bodies"
local function read(name)
  local f = assert(io.open(dir .. "/" .. name, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end
local json = {["Content-Type"] = "application/json"}

function make_requests()
  return {
    wrk.format("POST", "/analyze-attack", json, read("analyze_small.json")),
    wrk.format("POST", "/simulate", json, read("simulate_small.json")),
    wrk.format("POST", "/duper/battle", json, read("duper_small.json")),
    wrk.format("GET", "/livez"),
    wrk.format("GET", "/readyz"),
    wrk.format("POST", "/analyze-attack", json, read("analyze_small.json")),
    wrk.format("POST", "/duper/battle", json, read("duper_small.json")),
    wrk.format("GET", "/metrics"),
  }
end

-- Rotation and per-status counts: rotate.lua, beside this script.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "rotate.lua")
