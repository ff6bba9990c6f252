import type { Message, ToolResultBlock } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { DecisionHub } from '../hub.js'
import type { AnyDecisionUse } from '../use.js'
import { checksToSkip } from './check-select.js'
import { pressureReview } from './context-pressure.js'
import { credentialCandidates } from './credential-candidates.js'

/** A hub whose on uses answer with fixed advice (the model is never needed by these fakes). */
function hubOf(uses: AnyDecisionUse[]): DecisionHub {
  return new DecisionHub({
    uses,
    modes: Object.fromEntries(uses.map((use) => [use.feature, 'on' as const])),
    // A ceiling for a loaded machine: these fakes answer at once.
    timeoutMs: 30_000,
    service: { complete: async () => '{}' },
    record: async () => {},
    newId: (prefix) => `${prefix}1`,
  })
}

const big = 'x'.repeat(40_000)
const messages: Message[] = [
  { id: 'u0', role: 'user', content: [{ type: 'text', text: 'go' }] },
  ...['a', 'b', 'c', 'd', 'e'].flatMap((id): Message[] => [
    { id: `m${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'Read', input: {} }] },
    {
      id: `r${id}`,
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: id, content: [{ type: 'text', text: big }], isError: false },
      ],
    },
  ]),
]

describe('decision seams (decisions/seams/tests)', () => {
  it('context pressure: keep or add planned clears; keeping wins', async () => {
    const hub = hubOf([
      {
        feature: 'decisions_x',
        seam: 'contextPressure',
        summary: '',
        decide: async () => ({ keep: ['a'], add: ['d'] }),
        describe: () => '',
      },
      {
        feature: 'decisions_y',
        seam: 'contextPressure',
        summary: '',
        // Another use wants `a` cleared (an add of a planned one is ignored) and `d` too.
        decide: async () => ({ keep: ['d'], add: ['a'] }),
        describe: () => '',
      },
    ])
    const review = pressureReview(hub, messages, 100_000, 90_000)!
    const planned = [
      {
        messageIndex: 2,
        blockIndex: 0,
        messageId: 'ra',
        toolUseId: 'a',
        toolName: 'Read',
        chars: 1,
        original: big,
        tokens: 10_000,
      },
      {
        messageIndex: 4,
        blockIndex: 0,
        messageId: 'rb',
        toolUseId: 'b',
        toolName: 'Read',
        chars: 1,
        original: big,
        tokens: 10_000,
      },
    ]
    const reviewed = await review(planned)
    // `a` kept (keeping wins), `b` still cleared, `d` kept by one use so never added.
    expect(reviewed.map((clear) => clear.toolUseId)).toEqual(['b'])
  })

  it('check select: check ids to skip, never every check and never one that failed last', async () => {
    const hub = hubOf([
      {
        feature: 'decisions_c',
        seam: 'checkSelect',
        summary: '',
        decide: async () => ({ skip: ['lint', 'test', 'types'] }),
        describe: () => '',
      },
    ])
    const signal = new AbortController().signal
    const skip = await checksToSkip(
      hub,
      [
        { id: 'lint', command: 'npm run lint', lastFailed: false },
        { id: 'test', command: 'npm test', lastFailed: true },
        { id: 'types', command: 'tsc', lastFailed: false },
      ],
      [],
      signal,
    )
    // The check that failed last still runs, so skipping the other two leaves one running.
    expect([...skip].sort()).toEqual(['lint', 'types'])
    expect(skip.has('test')).toBe(false)
  })

  it('before a request: candidates are values the redactor left, masked in their context', () => {
    const block: ToolResultBlock = {
      type: 'tool_result',
      toolUseId: 't1',
      isError: false,
      content: [
        {
          type: 'text',
          text: 'db_pass: "Tr0ub4dor&3"\napi_key = ${API_KEY}\ntoken: [REDACTED:github-token:1]\nauth_secret=s3cr3tValue9',
        },
      ],
    }
    const found = credentialCandidates([{ block, toolName: 'Read' }], new Set(['s3cr3tValue9']))
    expect(found.map((candidate) => candidate.value)).toEqual(['Tr0ub4dor&3'])
    expect(found[0]).toMatchObject({ toolUseId: 't1', toolName: 'Read', context: 'db_pass: "****"' })
  })
})
