-- The soak's bad traffic: malformed JSON, wrong types, wrong content types, wrong methods,
-- unknown paths. Every answer must be a 4xx; done() prints the count of each status, and
-- bench/soak.sh fails on any 5xx.
local json = {["Content-Type"] = "application/json"}
local reqs = {}
local i = 0
statuses = {} -- global: done() reads it from each thread with thread:get
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local deep = string.rep("[", 3000) .. string.rep("]", 3000)
  reqs = {
    wrk.format("POST", "/analyze-attack", json, "{"),
    wrk.format("POST", "/analyze-attack", json, "{\"attackers\":1e999}"),
    wrk.format("POST", "/simulate", json, "{\"attackers\":NaN}"),
    wrk.format("POST", "/duper/battle", json, "{\"seed\":1,\"seed\":2}"),
    wrk.format("POST", "/analyze-attack", json, "{\"a\255\":1}"),
    wrk.format("POST", "/simulate", json, deep),
    wrk.format("POST", "/analyze-attack", json, "{\"attackers\":\"ten\",\"defenders\":5}"),
    wrk.format("POST", "/duper/battle", json, "[]"),
    wrk.format("POST", "/analyze-attack", {["Content-Type"] = "text/plain"}, "{}"),
    wrk.format("GET", "/analyze-attack"),
    wrk.format("POST", "/nowhere", json, "{}"),
    wrk.format("POST", "/analyze-attack", json, ""),
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
