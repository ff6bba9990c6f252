import { parseSettings, type SettingsLayer } from '@z-engine/protocol'
import { parse, TomlError } from 'smol-toml'
import type { LoadedLayer, SettingsLayerName, SettingsNotice } from './layers.js'
import { locateKey } from './locate-key.js'
import { absentLayer, readSettingsText, skippedLayer } from './read-settings-text.js'
import { ruleNotices } from './rule-notices.js'

/**
 * Reads one settings.toml layer. A missing file is an empty layer; a file that is not valid TOML or
 * fails validation yields an error notice naming file, line and key, and the layer is skipped (never
 * a crash). Unknown keys are warnings; the rest of the file still applies.
 */
export async function readTomlLayer(name: SettingsLayerName, file: string): Promise<LoadedLayer> {
  const text = await readSettingsText(file)
  if (text === undefined) return absentLayer(name, file)
  if (typeof text === 'object') return skipped(name, file, { message: `could not be read (${text.code})` })
  return parseTomlLayer(name, file, text)
}

/** Parses and validates the text of a settings.toml layer (see `readTomlLayer`). */
export function parseTomlLayer(name: SettingsLayerName, file: string, text: string): LoadedLayer {
  let raw: unknown
  try {
    raw = parse(text)
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.split('\n')[0]!.replace(/^Invalid TOML document:\s*/, '')
      return skipped(name, file, { line: error.line, message: `is not valid TOML: ${reason}` })
    }
    return skipped(name, file, { message: `is not valid TOML: ${String(error)}` })
  }
  const result = parseSettings(raw)
  const warnings: SettingsNotice[] = result.warnings.map((issue) => {
    const line = locateKey(text, issue.path)
    return notice('warning', name, file, {
      key: issue.path,
      line,
      message: `${issue.path} ${issue.message}; it is ignored`,
    })
  })
  if (!result.ok) {
    const line = locateKey(text, result.error.path)
    const failure = skipped(name, file, {
      key: result.error.path,
      line,
      message: `${result.error.path} ${result.error.message}`,
    })
    failure.notices.unshift(...warnings)
    return failure
  }
  const data = result.settings as SettingsLayer
  return { name, file, present: true, data, notices: [...warnings, ...ruleNotices(data, name, file, text)] }
}

function skipped(
  name: SettingsLayerName,
  file: string,
  problem: { message: string; line?: number | undefined; key?: string },
): LoadedLayer {
  return skippedLayer(
    name,
    file,
    notice('error', name, file, {
      ...problem,
      message: `${problem.message}; the whole file is skipped until it is fixed`,
    }),
  )
}

function notice(
  severity: SettingsNotice['severity'],
  layer: SettingsLayerName,
  file: string,
  problem: { message: string; line?: number | undefined; key?: string },
): SettingsNotice {
  const where = problem.line === undefined ? file : `${file}:${problem.line}`
  const result: SettingsNotice = {
    severity,
    layer,
    file,
    code: severity === 'error' ? 'file_skipped' : 'value_ignored',
    message: `${where}: ${problem.message}`,
  }
  if (problem.line !== undefined) result.line = problem.line
  if (problem.key !== undefined && problem.key !== '') result.key = problem.key
  return result
}
