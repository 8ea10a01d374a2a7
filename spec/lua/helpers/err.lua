--- helpers.err -- err(f, ...): the message of the error f(...) raises,
-- asserting that it raises one and that the message is a string.
local assert = require "luassert"  -- busted's, not the global of a required file

return function(f, ...)
  local ok, msg = pcall(f, ...)
  assert.is_false(ok, "expected an error")
  assert.equal("string", type(msg))
  return msg
end
