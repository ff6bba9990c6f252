import { describe, expect, it } from 'vitest'
import { admitAddress, admitUrl } from '../src/index.js'
import { act, context } from './helpers.js'

describe('WebFetch address spellings', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://127.000.000.001/',
    'http://localhost/',
    'http://LOCALHOST./',
    'http://foo.localhost/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::]/',
    'http://0.0.0.0/',
    'http://0/',
    'http://10.0.0.1/',
    'http://172.16.5.4/',
    'http://172.31.255.255/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/',
    'http://metadata/',
    'http://100.64.0.1/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://[fc00::1]/',
    'http://[ff02::1]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[64:ff9b:1::a00:1]/',
    'http://[::127.0.0.1]/',
    'http://ⓛocalhost/',
    'http://１２７.０.０.１/',
    'http://0300.0250.0.1/',
    'http://3232235777/',
    'http://127.0.0.1%2e/',
    'http://example.com@127.0.0.1/',
    'http://100.100.100.200/',
    'http://169.254.170.2/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://198.18.0.1/',
    'http://intranet/',
    'http://printer.local/',
    'http://user:pass@example.com/',
    'http://user@example.com/',
    'ftp://example.com/',
    'file:///etc/passwd',
    'gopher://example.com/',
    'javascript:alert(1)',
    'not a url',
    '',
  ])('refuses %j', (url) => {
    expect(admitUrl(url).ok).toBe(false)
    expect(act({ type: 'fetch', url }, context('bypass')).decision).toBe('deny')
  })

  it.each([
    'https://example.com/',
    'http://93.184.216.34/',
    'https://[2606:4700::1111]/',
    'https://docs.python.org/3/',
  ])('admits %j', (url) => {
    expect(admitUrl(url).ok).toBe(true)
  })

  it.each([
    ['127.0.0.1', false],
    ['2130706433', false],
    ['0x7f.1', false],
    ['::1', false],
    ['::ffff:10.0.0.1', false],
    ['fe80::1%eth0', false],
    ['169.254.169.254', false],
    ['8.8.8.8', true],
    ['2001:4860:4860::8888', true],
    ['2001:db8::1', false],
    ['not-an-ip', false],
  ])('admitAddress(%j) ok=%s', (address, ok) => {
    expect(admitAddress(address).ok).toBe(ok)
  })

  it('lets allowed private hosts through', () => {
    expect(admitUrl('http://localhost:8080/', { allowedPrivateHosts: ['localhost'] }).ok).toBe(true)
    expect(admitAddress('10.0.0.5', { allowedPrivateHosts: ['10.0.0.5'] }).ok).toBe(true)
    const ctx = context(
      'default',
      { allow: ['WebFetch(domain:localhost)'] },
      { allowedPrivateHosts: ['localhost'] },
    )
    expect(act({ type: 'fetch', url: 'http://localhost:3000/' }, ctx).decision).toBe('allow')
  })

  it('asks for public URLs by default and suggests the domain', () => {
    const decision = act({ type: 'fetch', url: 'https://Docs.Example.com/a' })
    expect(decision.decision).toBe('ask')
    expect(decision.suggestion).toEqual({ rule: 'WebFetch(domain:docs.example.com)', scope: 'project' })
  })

  it.each([
    ['WebFetch(domain:example.com)', 'https://example.com/x', 'allow'],
    ['WebFetch(domain:example.com)', 'https://api.example.com/x', 'allow'],
    ['WebFetch(domain:*.example.com)', 'https://api.example.com/x', 'allow'],
    ['WebFetch(domain:*.example.com)', 'https://evilexample.com/x', 'ask'],
    ['WebFetch', 'https://anything.org/', 'allow'],
  ])('allow %s for %s → %s', (rule, url, expected) => {
    expect(act({ type: 'fetch', url }, context('default', { allow: [rule] })).decision).toBe(expected)
  })

  it('deny by domain wins over allow', () => {
    const ctx = context('default', { allow: ['WebFetch'], deny: ['WebFetch(domain:evil.com)'] })
    expect(act({ type: 'fetch', url: 'https://evil.com/' }, ctx).decision).toBe('deny')
    expect(act({ type: 'fetch', url: 'https://good.com/' }, ctx).decision).toBe('allow')
  })
})
