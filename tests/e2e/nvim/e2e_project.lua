-- Neovim end-to-end test of a multi-file project (Neovim 0.7.2 and later):
-- the loop is in mingpt/trainer.py, the launched script is
-- projects/chargpt/chargpt.py. Opening the trainer, the "enable dump" action on
-- the loop edits both files; the test writes every buffer and run_e2e.py
-- checks the files on disk.
-- Env: MSPROBE_LSP, E2E_ROOT (the project), E2E_OUT (result lines).
local out = assert(io.open(assert(os.getenv('E2E_OUT')), 'w'))
local function emit(s) out:write(s .. '\n'); out:flush() end
local function fail(s) emit('FAIL ' .. s); out:close(); vim.cmd('qa!') end
local root = assert(os.getenv('E2E_ROOT'))
local GUARD = 60000  -- a hang guard: every wait returns as soon as its condition holds
local last_info

local server_exit = nil
local client_id = vim.lsp.start_client({
  name = 'msprobe',
  cmd = { assert(os.getenv('MSPROBE_LSP')), '--stdio' },
  root_dir = root,
  init_options = { settings = { debounceMs = 50, probeEnvironment = false } },
  on_exit = function(code) server_exit = code end,
})
if not client_id then return fail('start_client failed') end
vim.cmd('edit ' .. root .. '/mingpt/trainer.py')
local bufnr = vim.api.nvim_get_current_buf()
vim.bo[bufnr].filetype = 'python'
vim.lsp.buf_attach_client(bufnr, client_id)
local client = vim.lsp.get_client_by_id(client_id)
-- Requests before the server has answered initialize fail: wait for that first.
if not vim.wait(GUARD, function() return client.initialized end, 20) then return fail('the server did not initialize') end

-- Asks until `try` says yes (buf_request_sync waits itself, so no vim.wait around it).
local function poll(try)
  for _ = 1, GUARD / 50 do
    local ok, yes = pcall(try)
    if ok and yes then return true end
    if not ok then last_info = tostring(yes) end
    vim.wait(50)
  end
  return false
end

-- The workspace folder is indexed in the background; msprobe.showInfo says when.
local indexed = poll(function()
  local res = vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand', { command = 'msprobe.showInfo', arguments = {} }, GUARD)
  for _, r in pairs(res or {}) do
    local idx = r.result and r.result.index
    if idx and idx[1] and idx[1].state == 'indexed' then return true end
    last_info = vim.inspect(r.err or (r.result and r.result.index)):gsub('\n', ' ')
  end
  return false
end)
if not indexed then return fail('the workspace folder was not indexed: ' .. tostring(last_info)) end
emit('INDEXED')

-- The loop's header line.
local loop_line
for i, l in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
  if l:match('^%s+while True:') then loop_line = i - 1 end
end
local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) },
  range = { start = { line = loop_line, character = 8 }, ['end'] = { line = loop_line, character = 8 } },
  context = { diagnostics = {} } }
local chosen
local ok = poll(function()
  local actions = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, GUARD)
  for _, r in pairs(actions or {}) do
    for _, a in ipairs(r.result or {}) do
      if a.title:find('debugger built in projects/chargpt/chargpt.py', 1, true) then chosen = a end
    end
  end
  return chosen ~= nil
end)
if not ok then return fail('no two-file "enable dump" action on the loop') end
emit('ACTION ' .. chosen.title)
if not chosen.edit then
  local resolved = vim.lsp.buf_request_sync(bufnr, 'codeAction/resolve', chosen, GUARD)
  for _, r in pairs(resolved or {}) do if r.result then chosen = r.result end end
end
if not chosen.edit then return fail('the action has no edit') end
local files = 0
for _ in pairs(chosen.edit.changes or {}) do files = files + 1 end
for _ in ipairs(chosen.edit.documentChanges or {}) do files = files + 1 end
emit('EDIT FILES ' .. files)
vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
vim.cmd('wall')
emit('WRITTEN')

vim.lsp.stop_client(client_id)
vim.wait(GUARD, function() return server_exit ~= nil end, 20)
emit('EXIT ' .. tostring(server_exit))
out:close()
vim.cmd('qa!')
