-- The soak's bad traffic: malformed JSON, wrong types, wrong content types, wrong methods,
-- unknown paths. Every answer must be a 4xx; done() prints the count of each status, and
-- bench/soak.sh fails on any 5xx.
local json = {["Content-Type"] = "application/json"}

function make_requests()
  local deep = string.rep("[", 3000) .. string.rep("]", 3000)
  return {
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
end

-- Rotation and per-status counts: rotate.lua, beside this script.
dofile(debug.getinfo(1, "S").source:match("^@(.*/)") .. "rotate.lua")
