import { parsePermissionMode, parseSettings, type SettingsLayer } from '@z-engine/protocol'
import { claudeSandbox } from './claude-sandbox.js'
import { jsonErrorOffset } from './json-error-offset.js'
import type { LoadedLayer, SettingsLayerName, SettingsNotice } from './layers.js'
import { absentLayer, readSettingsText, skippedLayer } from './read-settings-text.js'
import { ruleNotices } from './rule-notices.js'

type Json = Record<string, unknown>

/**
 * Reads a Claude Code settings file (`.claude/settings.json` or `.claude/settings.local.json`) as a
 * layer: its `permissions` (allow, deny, ask, additionalDirectories, defaultMode), `hooks`
 * (matcher groups of `{type: "command", command, timeout}`), plugins and `sandbox` (onto
 * `[shell.sandbox]`, claude-sandbox.ts). Other keys belong to Claude Code and are left alone. Broken JSON skips the layer with a notice; it never throws.
 */
export async function readClaudeLayer(name: SettingsLayerName, file: string): Promise<LoadedLayer> {
  const text = await readSettingsText(file)
  if (text === undefined) return absentLayer(name, file)
  if (typeof text === 'object')
    return skippedLayer(
      name,
      file,
      problemNotice(
        'error',
        name,
        file,
        `could not be read (${text.code}); it is skipped`,
        undefined,
        'file_unreadable',
      ),
    )
  return parseClaudeLayer(name, file, text)
}

/** Converts the text of a Claude Code settings file into a layer (see `readClaudeLayer`). */
export function parseClaudeLayer(name: SettingsLayerName, file: string, text: string): LoadedLayer {
  let raw: unknown
  try {
    // Editors on Windows save a byte-order mark; JSON.parse rejects it, Claude Code does not.
    raw = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const offset = jsonErrorOffset(text)
    const line = offset === undefined ? undefined : text.slice(0, offset).split('\n').length
    const notice = problemNotice(
      'error',
      name,
      file,
      `is not valid JSON (${message}); it is skipped until it is fixed`,
      line,
      'json_invalid',
    )
    return skippedLayer(name, file, notice)
  }
  if (!isRecord(raw)) {
    return skippedLayer(
      name,
      file,
      problemNotice(
        'error',
        name,
        file,
        'must hold a JSON object; it is skipped',
        undefined,
        'json_not_object',
      ),
    )
  }
  const notices: SettingsNotice[] = []
  const warn = (message: string) => notices.push(problemNotice('warning', name, file, message))
  const layer: Json = {}

  if (isRecord(raw.permissions)) {
    const permissions: Json = {}
    for (const [from, to] of [
      ['allow', 'allow'],
      ['deny', 'deny'],
      ['ask', 'ask'],
      ['additionalDirectories', 'additional_directories'],
    ] as const) {
      const value = raw.permissions[from]
      if (value === undefined) continue
      const list = stringList(value)
      if (list.ok) {
        permissions[to] = value
        continue
      }
      // A lone string is the common slip (`"deny": "Bash(rm *)"`). It is an error either way; a deny
      // or ask rule still takes effect (failing closed), an allow rule or a folder does not.
      const restricts = from === 'deny' || from === 'ask'
      const applied = restricts && typeof value === 'string'
      if (applied) permissions[to] = [value]
      else if (list.strings.length > 0) permissions[to] = list.strings
      notices.push({
        ...problemNotice(
          'error',
          name,
          file,
          `permissions.${from} must be a list of strings such as ["Bash(npm test:*)"], not ${list.found}; ${
            applied
              ? 'it is applied as a one-rule list until it is fixed'
              : list.strings.length > 0
                ? 'the strings in it are loaded, the rest ignored'
                : 'it is ignored'
          }; the rest of the file is loaded`,
        ),
        key: `permissions.${from}`,
        code: 'list_expected',
      })
    }
    const defaultMode = raw.permissions.defaultMode
    if (defaultMode !== undefined) {
      const mode = parsePermissionMode(defaultMode)
      if (mode === undefined)
        warn(
          `permissions.defaultMode ${JSON.stringify(defaultMode)} has no Z Engine equivalent; it is ignored`,
        )
      else permissions.mode = mode
    }
    layer.permissions = permissions
  }

  if (isRecord(raw.hooks))
    layer.hooks = claudeHooks(raw.hooks, (found) => notices.push(hookProblem(name, file, found)))

  const plugins = claudePlugins(raw, warn)
  if (plugins !== undefined) layer.plugins = plugins

  // Claude Code's sandbox block, onto [shell.sandbox] (issue 34); what it cannot honour is named.
  const sandbox = claudeSandbox(raw.sandbox, file, warn)
  if (Object.keys(sandbox.sandbox).length > 0) layer.shell = { sandbox: sandbox.sandbox }
  if (sandbox.denyRead.length > 0) {
    const permissions = isRecord(layer.permissions) ? layer.permissions : {}
    const deny = Array.isArray(permissions.deny) ? permissions.deny : []
    layer.permissions = { ...permissions, deny: [...deny, ...sandbox.denyRead] }
  }

  const result = parseSettings(layer)
  for (const issue of result.warnings) warn(`${issue.path} ${issue.message}; it is ignored`)
  if (!result.ok) {
    notices.push(
      problemNotice(
        'error',
        name,
        file,
        `${result.error.path} ${result.error.message}; the file is skipped until it is fixed`,
      ),
    )
    return { name, file, present: true, data: {}, notices }
  }
  const data = result.settings as SettingsLayer
  notices.push(...ruleNotices(data, name, file))
  return { name, file, present: true, data, notices }
}

/** Hook types Claude Code runs that Z Engine does not (it runs `command` hooks). */
const UNRUN_HOOK_TYPES = new Set(['prompt', 'agent', 'http', 'mcp_tool'])

/** A broken hook block: refused like Claude Code 2.1.332 refuses it (an error, the block skipped). */
function hookProblem(layer: SettingsLayerName, file: string, problem: HookProblem): SettingsNotice {
  return {
    ...problemNotice(problem.severity, layer, file, problem.message),
    key: problem.key,
    code: problem.severity === 'error' ? 'hook_invalid' : 'hook_type_unsupported',
  }
}

interface HookProblem {
  severity: SettingsNotice['severity']
  key: string
  message: string
}

/**
 * Claude Code's `hooks` (`{Event: [{matcher?, hooks: [{type, command, timeout?, if?}]}]}`) as the
 * layer's hook entries. What Claude Code 2.1.332 drops, we drop, as errors naming the field: an
 * event that is not a list, a group without a `hooks` list or with a matcher that is not a string
 * (the whole group), a hook with an unknown type, no command, a `timeout` that is not a positive
 * number or an `if` that is not a rule (that hook). Hook types Claude Code runs and Z Engine does
 * not (`prompt`, `agent`, `http`, `mcp_tool`) are skipped with a warning naming the type.
 */
function claudeHooks(raw: Json, report: (problem: HookProblem) => void): Json {
  const hooks: Json = {}
  const error = (key: string, message: string) => report({ severity: 'error', key, message })
  for (const [event, groups] of Object.entries(raw)) {
    if (!Array.isArray(groups)) {
      error(
        `hooks.${event}`,
        `hooks.${event} must be a list of matcher groups; it is skipped (as Claude Code skips it)`,
      )
      continue
    }
    const entries: Json[] = []
    groups.forEach((group, groupIndex) => {
      const where = `hooks.${event}[${groupIndex}]`
      if (!isRecord(group) || !Array.isArray(group.hooks)) {
        error(
          where,
          `${where} must be an object with a "hooks" list; this matcher group is skipped (as Claude Code skips it)`,
        )
        return
      }
      if (group.matcher !== undefined && typeof group.matcher !== 'string') {
        error(
          `${where}.matcher`,
          `${where}.matcher must be a string such as "Bash" or "Edit|Write", not ${JSON.stringify(group.matcher)}; this matcher group is skipped (as Claude Code skips it)`,
        )
        return
      }
      for (const [hookIndex, hook] of group.hooks.entries()) {
        const at = `${where}.hooks[${hookIndex}]`
        const skip = (field: string, why: string) =>
          error(
            field === '' ? at : `${at}.${field}`,
            `${at}${field === '' ? '' : `.${field}`} ${why}; this hook is skipped (as Claude Code skips it)`,
          )
        if (!isRecord(hook)) {
          skip('', 'must be an object such as {"type": "command", "command": "…"}')
          continue
        }
        if (typeof hook.type === 'string' && UNRUN_HOOK_TYPES.has(hook.type)) {
          report({
            severity: 'warning',
            key: `${at}.type`,
            message: `${at} is a "${hook.type}" hook, which Z Engine does not run (it runs "command" hooks); it is skipped`,
          })
          continue
        }
        if (hook.type !== 'command') {
          skip(
            'type',
            `${JSON.stringify(hook.type)} is not a hook type (valid: command, prompt, agent, http, mcp_tool)`,
          )
          continue
        }
        if (typeof hook.command !== 'string' || hook.command.trim() === '') {
          skip('command', 'must be the command to run')
          continue
        }
        if (hook.timeout !== undefined && !(typeof hook.timeout === 'number' && hook.timeout > 0)) {
          skip('timeout', `must be a number of seconds, not ${JSON.stringify(hook.timeout)}`)
          continue
        }
        if (hook.if !== undefined && !(typeof hook.if === 'string' && hook.if.trim() !== '')) {
          skip('if', 'must be a permission rule such as "Bash(git *)"')
          continue
        }
        const entry: Json = { command: hook.command }
        if (typeof group.matcher === 'string' && group.matcher !== '') entry.matcher = group.matcher
        if (typeof hook.timeout === 'number') entry.timeout_secs = Math.ceil(hook.timeout)
        if (typeof hook.if === 'string') entry.if = hook.if
        entries.push(entry)
      }
    })
    if (entries.length > 0) hooks[event] = entries
  }
  return hooks
}

/**
 * Claude Code's `enabledPlugins` (`{"name@market": true}`) and `extraKnownMarketplaces`
 * (`{name: {source: {source: "github", repo} | {source: "git", url} | {source: "directory", path}}}`)
 * as the `plugins` section.
 */
function claudePlugins(raw: Json, warn: (message: string) => void): Json | undefined {
  const plugins: Json = {}
  if (raw.enabledPlugins !== undefined) {
    if (!isRecord(raw.enabledPlugins)) warn('enabledPlugins must be an object of booleans; it is ignored')
    else {
      const enabled: Json = {}
      for (const [id, value] of Object.entries(raw.enabledPlugins)) {
        if (typeof value === 'boolean') enabled[id] = value
        else warn(`enabledPlugins.${id} must be true or false; it is ignored`)
      }
      plugins.enabled = enabled
    }
  }
  if (raw.extraKnownMarketplaces !== undefined) {
    if (!isRecord(raw.extraKnownMarketplaces))
      warn('extraKnownMarketplaces must be an object of marketplaces; it is ignored')
    else {
      const marketplaces: Json = {}
      for (const [name, entry] of Object.entries(raw.extraKnownMarketplaces)) {
        const source = isRecord(entry) && isRecord(entry.source) ? entry.source : undefined
        const text =
          source === undefined
            ? undefined
            : source.source === 'github' && typeof source.repo === 'string'
              ? source.repo
              : source.source === 'git' && typeof source.url === 'string'
                ? source.url
                : source.source === 'directory' && typeof source.path === 'string'
                  ? source.path
                  : undefined
        if (text === undefined || text === '')
          warn(
            `extraKnownMarketplaces.${name} needs a source {"source": "github", "repo"}, {"source": "git", "url"} or {"source": "directory", "path"}; it is ignored`,
          )
        else {
          const declared: Json = { source: text }
          // A git source's pin, marketplace.json path and sparse folders, as Claude Code reads them.
          if (source?.source !== 'directory') {
            const field = (key: string, value: unknown, valid: boolean) => {
              if (value === undefined) return
              if (valid) declared[key === 'sparsePaths' ? 'sparse_paths' : key] = value
              else
                warn(
                  `extraKnownMarketplaces.${name}.source.${key} ${key === 'sparsePaths' ? 'must be a list of folders' : 'must be a non-empty string'}; it is ignored`,
                )
            }
            field('ref', source?.ref, typeof source?.ref === 'string' && source.ref !== '')
            field('path', source?.path, typeof source?.path === 'string' && source.path !== '')
            field(
              'sparsePaths',
              source?.sparsePaths,
              Array.isArray(source?.sparsePaths) &&
                source.sparsePaths.every((folder) => typeof folder === 'string' && folder !== ''),
            )
          }
          marketplaces[name] = declared
        }
      }
      plugins.marketplaces = marketplaces
    }
  }
  return Object.keys(plugins).length > 0 ? plugins : undefined
}

/** Whether a value is a list of strings; otherwise what it is (for the error) and its strings. */
function stringList(value: unknown): { ok: true } | { ok: false; found: string; strings: string[] } {
  if (Array.isArray(value)) {
    const strings = value.filter((item): item is string => typeof item === 'string')
    if (strings.length === value.length) return { ok: true }
    const others = value.length - strings.length
    return {
      ok: false,
      found: `a list with ${others} entr${others === 1 ? 'y' : 'ies'} that are not strings`,
      strings,
    }
  }
  const found = typeof value === 'string' ? `the string ${JSON.stringify(value)}` : `${JSON.stringify(value)}`
  return { ok: false, found, strings: [] }
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function problemNotice(
  severity: SettingsNotice['severity'],
  layer: SettingsLayerName,
  file: string,
  message: string,
  line?: number,
  code: string = severity === 'error' ? 'file_skipped' : 'value_ignored',
): SettingsNotice {
  const notice: SettingsNotice = {
    severity,
    layer,
    file,
    code,
    message: `${line === undefined ? file : `${file}:${line}`}: ${message}`,
  }
  if (line !== undefined) notice.line = line
  return notice
}
