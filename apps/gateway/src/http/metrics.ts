/**
 * The gateway's metrics in Prometheus text format (`GET /metrics`): requests by method, route and
 * status, request latency as a histogram, upstream errors by code, bytes stored, and the database
 * pool's connections. Counted in memory since the process started.
 */

/** The database pool's connections now (SQLite: one connection). */
export interface PoolState {
  total: number
  idle: number
  waiting: number
}

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const

interface Histogram {
  counts: number[]
  sum: number
  count: number
}

function label(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}

/** The counters a gateway keeps. */
export class Metrics {
  readonly #requests = new Map<string, number>()
  readonly #latency = new Map<string, Histogram>()
  readonly #upstreamErrors = new Map<string, number>()
  #storedBytes = 0
  #pool: () => PoolState | undefined = () => undefined

  /** Reads the pool's state at each scrape. */
  observePool(read: () => PoolState | undefined): void {
    this.#pool = read
  }

  /** One finished request: its route pattern (`/v1/responses/:id`), status and duration. */
  request(method: string, route: string, status: number, seconds: number): void {
    const key = `method="${label(method)}",route="${label(route)}",status="${status}"`
    this.#requests.set(key, (this.#requests.get(key) ?? 0) + 1)
    const routeKey = `route="${label(route)}"`
    const histogram = this.#latency.get(routeKey) ?? { counts: BUCKETS.map(() => 0), sum: 0, count: 0 }
    for (const [index, bound] of BUCKETS.entries())
      if (seconds <= bound) histogram.counts[index] = (histogram.counts[index] ?? 0) + 1
    histogram.sum += seconds
    histogram.count += 1
    this.#latency.set(routeKey, histogram)
  }

  /** An upstream request that failed (after retries), by the error's code. */
  upstreamError(code: string): void {
    const key = `code="${label(code)}"`
    this.#upstreamErrors.set(key, (this.#upstreamErrors.get(key) ?? 0) + 1)
  }

  /** Bytes written for a stored turn (snapshot and history JSON). */
  stored(bytes: number): void {
    this.#storedBytes += bytes
  }

  /** The text exposition. */
  render(): string {
    const lines: string[] = []
    lines.push('# HELP gateway_requests_total HTTP requests by method, route and status.')
    lines.push('# TYPE gateway_requests_total counter')
    for (const [key, value] of this.#requests) lines.push(`gateway_requests_total{${key}} ${value}`)
    lines.push('# HELP gateway_request_duration_seconds Time from request to the end of its reply.')
    lines.push('# TYPE gateway_request_duration_seconds histogram')
    for (const [key, histogram] of this.#latency) {
      for (const [index, bound] of BUCKETS.entries())
        lines.push(`gateway_request_duration_seconds_bucket{${key},le="${bound}"} ${histogram.counts[index]}`)
      lines.push(`gateway_request_duration_seconds_bucket{${key},le="+Inf"} ${histogram.count}`)
      lines.push(`gateway_request_duration_seconds_sum{${key}} ${histogram.sum}`)
      lines.push(`gateway_request_duration_seconds_count{${key}} ${histogram.count}`)
    }
    lines.push('# HELP gateway_upstream_errors_total Upstream requests that failed, by code.')
    lines.push('# TYPE gateway_upstream_errors_total counter')
    for (const [key, value] of this.#upstreamErrors)
      lines.push(`gateway_upstream_errors_total{${key}} ${value}`)
    lines.push('# HELP gateway_stored_bytes_total Bytes of responses stored (snapshot and history JSON).')
    lines.push('# TYPE gateway_stored_bytes_total counter')
    lines.push(`gateway_stored_bytes_total ${this.#storedBytes}`)
    const pool = this.#pool()
    if (pool) {
      lines.push('# HELP gateway_db_pool_connections Database connections by state.')
      lines.push('# TYPE gateway_db_pool_connections gauge')
      for (const state of ['total', 'idle', 'waiting'] as const)
        lines.push(`gateway_db_pool_connections{state="${state}"} ${pool[state]}`)
    }
    return `${lines.join('\n')}\n`
  }
}
