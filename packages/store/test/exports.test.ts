import { describe, expect, it } from 'vitest'
import * as store from '../src/index.js'

describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(store).sort()).toEqual([
      'INTERRUPTED_RESULT_TEXT',
      'JsonlAppender',
      'META_FORMAT_VERSION',
      'RecordFactory',
      'STORE_CONFORMANCE_CASES',
      'agentLogPath',
      'checkSessionId',
      'defaultDataDir',
      'openStore',
      'pairToolResults',
      'parseMeta',
      'planRewind',
      'readJsonl',
      'readMeta',
      'replayLogFile',
      'runStoreConformance',
      'sessionPaths',
      'sessionsDir',
      'syncDirectory',
      'writeArtifactFile',
      'writeFileAtomic',
      'writeMeta',
    ])
  })
})
