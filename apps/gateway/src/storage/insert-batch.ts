/**
 * Group commit: rows added within one event-loop turn are written together (one multi-row INSERT,
 * one commit) when the turn's I/O is done. Under load every streamed response ends with an insert; one
 * statement and commit each cost the request path more than the row itself (issue 37's profile).
 */

/** Writes some rows as one statement; throws when they could not be written. */
export type WriteRows<Row> = (rows: Row[]) => Promise<void>

interface Pending<Row> {
  row: Row
  resolve: () => void
  reject: (error: unknown) => void
}

/** Rows waiting for the next flush; `add` resolves once its row is committed. */
export class InsertBatch<Row> {
  readonly #write: WriteRows<Row>
  readonly #maxRows: number
  #pending: Array<Pending<Row>> = []

  /** `maxRows` bounds one statement (SQLite and Postgres cap its parameters). */
  constructor(write: WriteRows<Row>, maxRows: number) {
    this.#write = write
    this.#maxRows = maxRows
  }

  /** Queues a row; resolves when it is stored, rejects with the error that kept it out. */
  add(row: Row): Promise<void> {
    return new Promise((resolve, reject) => {
      // setImmediate runs after this turn's I/O callbacks: every response that ended in it joins.
      if (this.#pending.length === 0) setImmediate(() => void this.#flush())
      this.#pending.push({ row, resolve, reject })
    })
  }

  async #flush(): Promise<void> {
    const pending = this.#pending
    this.#pending = []
    for (let start = 0; start < pending.length; start += this.#maxRows)
      await this.#writeGroup(pending.slice(start, start + this.#maxRows))
  }

  async #writeGroup(group: Array<Pending<Row>>): Promise<void> {
    try {
      await this.#write(group.map((entry) => entry.row))
      for (const entry of group) entry.resolve()
      return
    } catch (error) {
      if (group.length === 1) {
        group[0]?.reject(error)
        return
      }
    }
    // One bad row (or a database that went away) fails the statement: each row alone then gets its own answer.
    for (const entry of group) {
      try {
        await this.#write([entry.row])
        entry.resolve()
      } catch (error) {
        entry.reject(error)
      }
    }
  }
}
