/**
 * Issue 24 benchmark: loading 200 agents, 200 skills and 100 commands (half from an enabled plugin's
 * folders, half from the project's `.claude/`), as a session does: agents, skills, and commands
 * (which include the skills as `/name`). Cold (first in process) and the median of 7 warm loads.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { registerMarkdownLoader } from '../test/markdown-loader.js'

registerMarkdownLoader()
const { loadAgentDefinitions, loadCommandDefinitions, loadSkillDefinitions } = await import(
  process.env.FROM_DIST ? '../dist/internal.js' : '../src/internal.js'
)

const root = mkdtempSync(join(tmpdir(), 'ze-bench-definitions-'))
const project = join(root, 'project')
const plugin = join(root, 'plugin')
const write = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, text)
}
const prose = 'Review the change for correctness, naming and tests. '.repeat(40)
for (let index = 0; index < 200; index++) {
  const base = index % 2 === 0 ? join(project, '.claude') : plugin
  write(
    join(base, 'agents', `agent-${index}.md`),
    `---\nname: agent-${index}\ndescription: "Use when: reviewing area ${index}"\ntools: Read, Grep, Glob, Bash(git diff *)\nmodel: ${['sonnet', 'opus', 'haiku', 'inherit'][index % 4]}\ncolor: blue\n---\n${prose}\n`,
  )
  write(
    join(base, 'skills', `skill-${index}`, 'SKILL.md'),
    `---\nname: skill-${index}\ndescription: Skill number ${index} for the house style\nallowed-tools: Read Grep\n---\n${prose}\n`,
  )
  if (index < 100)
    write(
      join(base, 'commands', `group-${index % 5}`, `command-${index}.md`),
      `---\ndescription: Command ${index}\nargument-hint: [file]\nallowed-tools: Bash(git status:*)\n---\nDo $ARGUMENTS with care.\n${prose}\n`,
    )
}
const roots = {
  projectRoot: project,
  home: root,
  configDir: join(root, 'config'),
  compatClaude: true,
  plugins: [
    {
      id: 'bench@local',
      name: 'bench',
      agents: [join(plugin, 'agents')],
      skills: [join(plugin, 'skills')],
      commands: [join(plugin, 'commands')],
    },
  ],
}
const loadAll = async () => {
  const started = performance.now()
  const cpuStart = process.cpuUsage()
  const [agents, skills, commands] = await Promise.all([
    loadAgentDefinitions(roots),
    loadSkillDefinitions(roots),
    loadCommandDefinitions(roots),
  ])
  const elapsed = performance.now() - started
  const used = process.cpuUsage(cpuStart)
  const cpu = (used.user + used.system) / 1000
  const counts = {
    agents: agents.definitions.length - 5,
    skills: skills.definitions.length,
    commands: commands.definitions.length - skills.definitions.length,
    errors: agents.errors.length + skills.errors.length + commands.errors.length,
  }
  return { elapsed, cpu, counts }
}
const cold = await loadAll()
const warm: number[] = []
const warmCpu: number[] = []
for (let run = 0; run < Number(process.env.RUNS ?? 7); run++) {
  const result = await loadAll()
  warm.push(result.elapsed)
  warmCpu.push(result.cpu)
}
warm.sort((a, b) => a - b)
warmCpu.sort((a, b) => a - b)
const mid = (values: number[]) => (values[Math.floor(values.length / 2)] ?? 0).toFixed(0)
console.log(
  `definitions load (${cold.counts.agents} agents, ${cold.counts.skills} skills, ${cold.counts.commands} commands; ${cold.counts.errors} errors; half from a plugin): cold ${cold.elapsed.toFixed(0)} ms wall / ${cold.cpu.toFixed(0)} ms CPU; warm median ${mid(warm)} ms wall / ${mid(warmCpu)} ms CPU [wall ${warm.map((value) => value.toFixed(0)).join(', ')}]; ${process.env.FROM_DIST ? 'built dist' : 'TypeScript sources'}`,
)
