import { parseRule } from '@z-engine/policy'
import type { SettingsLayer } from '@z-engine/protocol'
import type { SettingsLayerName, SettingsNotice } from './layers.js'
import { locateKey } from './locate-key.js'

const KINDS = ['allow', 'deny', 'ask'] as const

/**
 * Warnings for permission rules the policy cannot parse, each naming the file, the line and the rule,
 * so a typo in a deny rule is seen instead of silently matching nothing. The rules stay in the layer
 * (the policy ignores them and reports them too).
 */
export function ruleNotices(
  layer: SettingsLayer,
  layerName: SettingsLayerName,
  file: string,
  text?: string,
): SettingsNotice[] {
  const notices: SettingsNotice[] = []
  const lines = text?.split(/\r?\n/)
  for (const kind of KINDS) {
    const rules = layer.permissions?.[kind] ?? []
    rules.forEach((rule, index) => {
      const parsed = parseRule(rule, file)
      if (parsed.ok) return
      const key = `permissions.${kind}[${index}]`
      const line =
        text === undefined || lines === undefined ? undefined : lineOfRule(lines, locateKey(text, key), rule)
      const where = line === undefined ? file : `${file}:${line}`
      const notice: SettingsNotice = {
        severity: 'warning',
        layer: layerName,
        file,
        key,
        code: 'rule_invalid',
        message: `${where}: ${key} ${JSON.stringify(rule)} is not a valid rule (${parsed.error.message}); it has no effect`,
      }
      if (line !== undefined) notice.line = line
      notices.push(notice)
    })
  }
  return notices
}

/** The first line at or after the array's key line that holds the rule's text. */
function lineOfRule(lines: readonly string[], keyLine: number | undefined, rule: string): number | undefined {
  if (keyLine === undefined) return undefined
  const quoted = [JSON.stringify(rule), `'${rule}'`]
  for (let index = keyLine - 1; index < lines.length; index++) {
    if (quoted.some((literal) => lines[index]!.includes(literal))) return index + 1
  }
  return keyLine
}
