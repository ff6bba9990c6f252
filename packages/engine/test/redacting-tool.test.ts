/**
 * Spec 004 "Tool Execution Lifecycle": run → redact → semantic output budget → byte ceiling. The
 * budget (and the spill it saves) must only ever see redacted text, so a cut can never leave half
 * of a secret the redactor would no longer recognise.
 */
import { createRedactor } from '@z-engine/policy'
import type { Tool, ToolCtx, ToolResult } from '@z-engine/tools'
import { describe, expect, it } from 'vitest'
import { redactingTool } from '../src/assembly/redaction.js'

const SECRET = 'sk-ant-api03-budget-order-secret-0123456789'

/** A tool that prints the secret and shapes its output through the context, as built-in tools do. */
function printingTool(seen: { budget: string[] }): Tool {
  return {
    name: 'Print',
    inputSchema: { type: 'object' },
    description: () => 'prints',
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    action: () => ({ type: 'read', paths: [] }) as never,
    title: () => 'Print',
    preview: async () => undefined,
    call: async (_input, ctx): Promise<ToolResult> => {
      const text = `line 1\ntoken=${SECRET}\nline 3\n`
      const shaped = ctx.outputBudget?.(text, 'log') ?? { text, shortened: false }
      seen.budget.push(shaped.text)
      return { ok: true, output: { content: [{ type: 'text', text: shaped.text }] } }
    },
  }
}

function ctxWith(outputBudget: ToolCtx['outputBudget'], seen: { budget: string[] }): ToolCtx {
  return {
    progress: () => {},
    spill: async () => '/dev/null',
    ...(outputBudget !== undefined
      ? {
          outputBudget: (text: string, kind: Parameters<NonNullable<ToolCtx['outputBudget']>>[1]) => {
            seen.budget.push(`input:${text}`)
            return outputBudget(text, kind)
          },
        }
      : {}),
  } as unknown as ToolCtx
}

describe('redactingTool', () => {
  const redactor = createRedactor({ known: [{ name: 'ANTHROPIC_API_KEY', value: SECRET }] })

  it('hands the output budget redacted text', async () => {
    const seen = { budget: [] as string[] }
    const tool = redactingTool(printingTool(seen), redactor)
    const result = await tool.call(
      {},
      ctxWith((text) => ({ text, shortened: false }), seen),
      new AbortController().signal,
    )
    expect(seen.budget.join('\n')).not.toContain(SECRET)
    expect(seen.budget.join('\n')).toContain('token=')
    expect(JSON.stringify(result)).not.toContain(SECRET)
  })

  it('still redacts when the engine supplies no budget', async () => {
    const seen = { budget: [] as string[] }
    const tool = redactingTool(printingTool(seen), redactor)
    const result = await tool.call({}, ctxWith(undefined, seen), new AbortController().signal)
    expect(JSON.stringify(result)).not.toContain(SECRET)
  })
})
