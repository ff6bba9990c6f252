/** Why a store operation failed. */
export type StoreErrorCode = 'notFound' | 'invalidId' | 'alreadyExists' | 'newerFormat' | 'io'

/** A store failure as a value; `message` says what to do. */
export interface StoreError {
  code: StoreErrorCode
  message: string
}

/** The outcome of a store operation that can fail for expected reasons. */
export type StoreResult<T> = { ok: true; value: T } | { ok: false; error: StoreError }

/** Wraps a value as a success. */
export const success = <T>(value: T): StoreResult<T> => ({ ok: true, value })

/** Builds a failure. */
export const failure = <T>(code: StoreErrorCode, message: string): StoreResult<T> => ({
  ok: false,
  error: { code, message },
})
