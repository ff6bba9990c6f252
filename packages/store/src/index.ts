export type { SyncPolicy } from './appender.js'
export { JsonlAppender } from './appender.js'
export { writeArtifactFile } from './artifacts.js'
export { syncDirectory, writeFileAtomic } from './atomic-write.js'
export { RecordFactory } from './conformance/record-factory.js'
export type { ConformanceCase, RegisterTest, StoreHarness } from './conformance/run-conformance.js'
export { runStoreConformance, STORE_CONFORMANCE_CASES } from './conformance/run-conformance.js'
export type { StoreOptions } from './file-store.js'
export { openStore } from './file-store.js'
export type { JsonlEntry, ReplayProblem } from './line-reader.js'
export { readJsonl } from './line-reader.js'
export type { MetaReadResult, SessionMeta } from './meta.js'
export { META_FORMAT_VERSION, parseMeta, readMeta, writeMeta } from './meta.js'
export type { DataDirEnvironment, SessionPaths } from './paths.js'
export { agentLogPath, checkSessionId, defaultDataDir, sessionPaths, sessionsDir } from './paths.js'
export { replayLogFile } from './replay.js'
export type { StoreError, StoreErrorCode, StoreResult } from './result.js'
export type { RewindPlan, RewindRequest } from './rewind.js'
export { planRewind } from './rewind.js'
export type {
  CreateSessionOptions,
  ForkOptions,
  SessionLog,
  SessionStore,
  SessionSummary,
} from './session-store.js'
export type {
  DisplayToolStatus,
  ReplayResult,
  SessionSnapshot,
  TranscriptItem,
  TurnRecord,
} from './snapshot.js'
export { INTERRUPTED_RESULT_TEXT, pairToolResults } from './tool-pairing.js'
