-- The soak's valid traffic: rotates through a valid request on every endpoint (bodies from
-- bench/wrk/bodies/) and the GET routes. Every one must answer 2xx; wrk reports any other
-- status as "Non-2xx or 3xx responses", and done() prints the count of each status.
local dir = os.getenv("WRK_BODIES") or "bench/wrk/bodies"
local function read(name)
  local f = assert(io.open(dir .. "/" .. name, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end
local json = {["Content-Type"] = "application/json"}
local reqs = {}
local i = 0
statuses = {} -- global: done() reads it from each thread with thread:get
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  reqs = {
    wrk.format("POST", "/analyze-attack", json, read("analyze_small.json")),
    wrk.format("POST", "/simulate", json, read("simulate_small.json")),
    wrk.format("POST", "/duper/battle", json, read("duper_small.json")),
    wrk.format("GET", "/livez"),
    wrk.format("GET", "/readyz"),
    wrk.format("POST", "/analyze-attack", json, read("analyze_small.json")),
    wrk.format("POST", "/duper/battle", json, read("duper_small.json")),
    wrk.format("GET", "/metrics"),
  }
  statuses = {}
end

function request()
  i = i % #reqs + 1
  return reqs[i]
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for k, v in pairs(s) do
      total[k] = (total[k] or 0) + v
    end
  end
  local keys = {}
  for k in pairs(total) do table.insert(keys, k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    io.write(string.format("status %d: %d\n", k, total[k]))
  end
end
