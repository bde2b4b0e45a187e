-- Neovim end-to-end test for msprobe-lsp (works on Neovim 0.7.2 and later).
-- Run by run_e2e.py: nvim --headless -u NONE -c 'luafile e2e.lua'
-- Env: MSPROBE_LSP (server binary), E2E_FILE (the script to open), E2E_OUT (result lines).
local out_path = assert(os.getenv('E2E_OUT'))
local out = assert(io.open(out_path, 'w'))
local function emit(s) out:write(s .. '\n'); out:flush() end
local function fail(s) emit('FAIL ' .. s); out:close(); vim.cmd('qa!') end

local server_exit = nil
local client_id = vim.lsp.start_client({
  name = 'msprobe',
  cmd = { assert(os.getenv('MSPROBE_LSP')), '--stdio' },
  root_dir = vim.fn.fnamemodify(assert(os.getenv('E2E_FILE')), ':h'),
  init_options = { settings = { debounceMs = 50 } },
  on_exit = function(code, signal) server_exit = code end,
})
if not client_id then return fail('start_client failed') end

-- Dialogue answers for window/showMessageRequest, consumed in order: the
-- handler shows the choices through vim.ui.select (as the README's snippet
-- does) and the test's vim.ui.select picks the answer whose title starts with
-- the scripted prefix.
local answers = {}
vim.ui.select = function(items, opts, on_choice)
  local want = table.remove(answers, 1)
  for i, item in ipairs(items) do
    local label = opts.format_item and opts.format_item(item) or tostring(item)
    if want and label:sub(1, #want) == want then return on_choice(item, i) end
  end
  emit('DIALOGUE no answer for: ' .. (opts.prompt or '?'))
  on_choice(nil, nil)
end
vim.lsp.handlers['window/showMessageRequest'] = function(_, params)
  local picked = vim.NIL
  vim.ui.select(params.actions or {}, {
    prompt = params.message,
    format_item = function(a) return a.title end,
  }, function(choice) if choice then picked = choice end end)
  return picked
end

vim.cmd('edit ' .. os.getenv('E2E_FILE'))
local bufnr = vim.api.nvim_get_current_buf()
vim.bo[bufnr].filetype = 'python'
vim.lsp.buf_attach_client(bufnr, client_id)

-- Every wait returns as soon as its condition holds; the limit only guards
-- against a hang, so a slow or loaded machine never fails the test.
local GUARD = 60000

local function wait_diags(pred)
  return vim.wait(GUARD, function() return pred(vim.diagnostic.get(bufnr)) end, 20)
end
local function has_code(diags, code)
  for _, d in ipairs(diags) do
    local c = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    if c == code then return d end
  end
end

-- 1. diagnostics with exact positions after non-ASCII text
if not wait_diags(function(d) return has_code(d, 'MSP101') and has_code(d, 'MSP201') end) then
  local got = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do table.insert(got, tostring(d.code) .. '@' .. d.lnum .. ':' .. d.col) end
  return fail('step1 diagnostics MSP101+MSP201 not received; got ' .. table.concat(got, ', '))
end
for _, code in ipairs({ 'MSP101', 'MSP201' }) do
  local d = has_code(vim.diagnostic.get(bufnr), code)
  emit(('DIAG %s %d:%d-%d:%d'):format(code, d.lnum + 1, d.col + 1, d.end_lnum + 1, d.end_col + 1))
end

-- 4. hover on torch.compile returns the rule docs
local client = vim.lsp.get_client_by_id(client_id)
local line9 = vim.api.nvim_buf_get_lines(bufnr, 8, 9, false)[1]
local byte_col = line9:find('torch.compile', 1, true) - 1
local utf16_col = vim.str_utfindex(line9, byte_col)
local res = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', {
  textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 8, character = utf16_col + 3 } }, GUARD)
local hover = ''
for _, r in pairs(res or {}) do
  if r.result and r.result.contents then hover = r.result.contents.value or '' end
end
if not hover:find('MSP101', 1, true) or not hover:find('TORCHDYNAMO_DISABLE', 1, true) then
  return fail('step4 hover without rule docs: ' .. hover:sub(1, 200))
end
emit('HOVER ok')

-- 5. an incremental edit that fixes a problem clears its diagnostic:
-- unwrap torch.compile(model) -> model by editing the buffer.
local new9 = line9:gsub('torch%.compile%(model%)', 'model')
vim.api.nvim_buf_set_lines(bufnr, 8, 9, false, { new9 })
if not wait_diags(function(d) return not has_code(d, 'MSP101') and has_code(d, 'MSP201') end) then
  return fail('step5 MSP101 not cleared after the edit')
end
emit('INCREMENTAL ok')

-- 2. code actions on the loop: apply "enable dump", write the buffer.
local loop_line = 10  -- 0-based: "for inputs, targets in loader:"
local params = vim.lsp.util.make_range_params()
params.range = { start = { line = loop_line, character = 0 }, ['end'] = { line = loop_line, character = 0 } }
params.context = { diagnostics = {} }
local actions = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, GUARD)
emit('ACTIONS-RAW ' .. vim.inspect(actions):gsub('\n', ' '):sub(1, 600))
local chosen = nil
for _, r in pairs(actions or {}) do
  if r.err then emit('ACTION-ERROR ' .. vim.inspect(r.err)) end
  for _, a in ipairs(r.result or {}) do
    emit('ACTION ' .. a.title .. ' [' .. tostring(a.kind) .. ']')
    if not chosen and a.title:find('enable dump', 1, true) then chosen = a end
  end
end
if not chosen then return fail('step2 no "enable dump" action on the loop') end
if not chosen.edit and client.server_capabilities.codeActionProvider.resolveProvider then
  local resolved = vim.lsp.buf_request_sync(bufnr, 'codeAction/resolve', chosen, GUARD)
  for _, r in pairs(resolved or {}) do if r.result then chosen = r.result end end
end
if chosen.edit then vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding) end
if chosen.command then
  local cmd = type(chosen.command) == 'table' and chosen.command or chosen
  vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand', { command = cmd.command, arguments = cmd.arguments }, GUARD)
end
vim.cmd('write')
emit('ENABLE written')

-- 3. msprobe.generateConfig with the dialogue answered.
answers = { 'statistics', 'L1', '[]', '[0, 1]', './dump_path', 'Write' }
local gen = vim.lsp.buf_request_sync(bufnr, 'workspace/executeCommand', { command = 'msprobe.generateConfig', arguments = {} }, GUARD)
for _, r in pairs(gen or {}) do
  if r.err then return fail('step3 generateConfig error: ' .. vim.inspect(r.err)) end
end
-- The server applies the edit through workspace/applyEdit; save what it created.
vim.wait(GUARD, function()
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b):match('config%.json$') then return true end
  end
  return vim.fn.filereadable(vim.fn.fnamemodify(os.getenv('E2E_FILE'), ':h') .. '/config.json') == 1
end, 20)
for _, b in ipairs(vim.api.nvim_list_bufs()) do
  if vim.api.nvim_buf_get_name(b):match('config%.json$') and vim.bo[b].modified then
    vim.api.nvim_buf_call(b, function() vim.cmd('write') end)
  end
end
emit('CONFIG requested')

-- 6. quitting ends the server with exit code 0
vim.lsp.stop_client(client_id)
vim.wait(GUARD, function() return server_exit ~= nil end, 20)
emit('EXIT ' .. tostring(server_exit))
out:close()
vim.cmd('qa!')
