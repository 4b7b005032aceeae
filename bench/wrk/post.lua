-- POSTs one JSON body, read from the file named by $WRK_BODY (default: a tiny object), with
-- Content-Type: application/json. Used by bench/load.sh for both the bare server and combatd.
local path = os.getenv("WRK_BODY")
local body = "{}"
if path and path ~= "" then
  local f = assert(io.open(path, "rb"))
  body = f:read("*a")
  f:close()
end
wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/json"
