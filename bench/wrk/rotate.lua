-- Shared by the soak's wrk scripts: rotate through a list of prepared requests and count the
-- answers by status in every thread; done() prints "status N: count" lines, which
-- bench/soak.sh reads. A script sets `make_requests` (called in each thread's init) and then
-- loads this file with dofile.
local reqs = {}
local i = 0
statuses = {} -- global: done() reads it from each thread with thread:get
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  reqs = make_requests()
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
