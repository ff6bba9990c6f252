/** `GET /metrics`: Prometheus text with requests, latency, upstream errors, stored bytes and the pool. */
import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

/** The value of the one sample named `series` (name and labels exactly as exposed). */
function sample(body: string, series: string): number {
  const line = body.split('\n').find((entry) => entry.startsWith(`${series} `))
  if (line === undefined) throw new Error(`no sample ${series} in:\n${body}`)
  return Number(line.slice(series.length + 1))
}

describe('GET /metrics', () => {
  it('counts requests, their latency, upstream errors, stored bytes and the pool', async () => {
    stack = await startStack(
      [
        text('one'),
        text('two'),
        { fault: { type: 'status', status: 400, body: { error: { message: 'bad' } } } },
      ],
      { config: { apiKeys: ['k'] }, apiKey: 'k' },
    )
    const first = await stack.client.responses.create({ model: 'm', input: 'a' })
    await stack.client.responses.create({ model: 'm', input: 'b', previous_response_id: first.id })
    await stack.client.responses.retrieve(first.id)
    await expect(stack.client.responses.create({ model: 'm', input: 'c' })).rejects.toMatchObject({
      status: 400,
    })
    expect((await fetch(`${stack.gateway.url}/metrics`)).status).toBe(401)
    const reply = await fetch(`${stack.gateway.url}/metrics`, { headers: { authorization: 'Bearer k' } })
    expect(reply.headers.get('content-type')).toContain('text/plain; version=0.0.4')
    const body = await reply.text()
    expect(sample(body, 'gateway_requests_total{method="POST",route="/v1/responses",status="200"}')).toBe(2)
    expect(sample(body, 'gateway_requests_total{method="POST",route="/v1/responses",status="400"}')).toBe(1)
    // Ids never become labels: one series per route pattern.
    expect(sample(body, 'gateway_requests_total{method="GET",route="/v1/responses/:id",status="200"}')).toBe(
      1,
    )
    expect(sample(body, 'gateway_request_duration_seconds_count{route="/v1/responses"}')).toBe(3)
    expect(sample(body, 'gateway_request_duration_seconds_bucket{route="/v1/responses",le="+Inf"}')).toBe(3)
    expect(sample(body, 'gateway_request_duration_seconds_bucket{route="/v1/responses",le="60"}')).toBe(3)
    expect(sample(body, 'gateway_upstream_errors_total{code="http_400"}')).toBe(1)
    expect(sample(body, 'gateway_stored_bytes_total')).toBeGreaterThan(200)
    expect(sample(body, 'gateway_db_pool_connections{state="total"}')).toBe(1)
    expect(body).toContain('# TYPE gateway_request_duration_seconds histogram')
  })
})
