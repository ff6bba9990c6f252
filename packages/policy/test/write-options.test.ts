import { describe, expect, it } from 'vitest'
import { bash, context } from './helpers.js'

// Issue 34 class 5 (write options of read tools): an allow rule for a read tool covers the tool,
// not the files its write options name, so it cannot exceed the edit scope.
function ruleFor(line: string, mode: 'default' | 'acceptEdits' = 'default') {
  const name = line.split(' ')[0] as string
  return context(mode, { allow: [`Bash(${name}:*)`] })
}

describe('write options under an allow rule (issue 34)', () => {
  it.each([
    'find . -fprint ~/.bashrc',
    'find . -fprint0 /home/u/.bashrc',
    'find . -fprintf ~/.bashrc %p',
    'find . -fls ~/.profile',
    'find . -name x -fprint ~/.bashrc -quit',
    'find ~ -delete',
    'find / -name x -delete',
    'awk --dump-variables=/home/u/.bashrc 1 a',
    'awk -d/home/u/.bashrc 1 a',
    'gawk --profile=/home/u/.bashrc 1 a',
    'gawk -o/home/u/.bashrc 1 a',
    'gawk --pretty=/home/u/.bashrc 1 a',
    'xxd -r a ~/.bashrc',
    'git log --outp=/home/u/.bashrc',
  ])('%j asks in every mode but bypass (it writes outside the project)', (line) => {
    expect(bash(line, ruleFor(line)).decision).toBe('ask')
    expect(bash(line, ruleFor(line, 'acceptEdits')).decision).toBe('ask')
  })

  it.each(['find . -delete', 'find . -name "*.o" -delete', 'find . -fprint list.txt'])(
    '%j asks in default mode (a write needs edit permission) and runs confined in acceptEdits',
    (line) => {
      expect(bash(line, ruleFor(line)).decision).toBe('ask')
      const accepted = bash(line, ruleFor(line, 'acceptEdits'))
      expect(accepted.decision).toBe('allow')
      expect(accepted.confinement).toBe('write')
    },
  )

  it.each([
    `awk '{print > "x"}' a`,
    `awk 'BEGIN{system("touch x")}'`,
    'sed -f evil.sed a',
    'sed 1etouch\\ x a',
    'rg --pre=./x foo',
    'sort --compress-program=x a',
    'find . $ACTION',
    'awk --dump 1 a',
  ])('%j writes files the line does not name: it asks under a rule', (line) => {
    expect(bash(line, ruleFor(line, 'acceptEdits')).decision).toBe('ask')
  })

  it.each([
    'find . -name "*.ts" -print',
    `find . -name "$x"`,
    "awk '{print $1}' a",
    'sed -n 1,5p a',
    'rg -n foo src',
    'sort -u a',
    'xxd a.bin',
  ])('%j stays allowed, confined: read-only when proven, else as a rule allowed it', (line) => {
    const verdict = bash(line, ruleFor(line))
    expect(verdict.decision).toBe('allow')
    expect(verdict.confinement).toBe(line.includes('$x') ? 'rule' : 'read-only')
  })
})
