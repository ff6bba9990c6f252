import {
  buildSystem,
  type SystemSection as ContextSection,
  type EnvironmentSnapshot,
  type Rule,
  renderEnvironment,
  renderInstructions,
} from '@z-engine/context'
import { BASE_PROMPT } from '@z-engine/prompts'
import type { SystemSection } from '../model/types.js'
import type { RepoMapService } from '../repo-map/repo-map-service.js'
import type { LoadedInstructions } from '../workspace/instructions/instructions-load.js'

/** What the system prompt is built from; everything is fixed when the session opens. */
export interface SystemPromptParts {
  environment: EnvironmentSnapshot
  instructions: LoadedInstructions
  /** Glob rules with `alwaysApply`, rendered after the instruction files. */
  alwaysRules: readonly Rule[]
  /** The skills list section ('' when there are none). */
  skills: string
  repoMap: RepoMapService | undefined
  /** An embedder's system prompt: `replace` stands in for the base prompt, `append` follows it. */
  custom?: SystemPromptOption
}

/** A system prompt given in code: a string replaces the base prompt; `{ append }` adds to it. */
export type SystemPromptOption = string | { append: string }

/**
 * The session's cache-stable system sections (spec 003 "Prompt caching"): built once, then returned
 * byte-identical on every request until `invalidate` (after a compaction or a reload).
 */
export class SessionSystemPrompt {
  #sections: Promise<ContextSection[]> | undefined
  #plain: Promise<SystemSection[]> | undefined

  constructor(private parts: SystemPromptParts) {}

  /** The sections for the next request (the repo map only if ready; see `RepoMapService.text`). */
  sections(): Promise<SystemSection[]> {
    this.#plain ??= this.layers().then((sections) =>
      sections.map((section) => ({ text: section.text, cacheable: section.cacheable })),
    )
    return this.#plain
  }

  /** The same sections tagged with their prompt layer (for `/context`). */
  layers(): Promise<ContextSection[]> {
    this.#sections ??= this.#build()
    return this.#sections
  }

  /** The instruction files in effect. */
  get instructions(): LoadedInstructions {
    return this.parts.instructions
  }

  /** Rebuilds on the next request (the repo map too), e.g. after a compaction or a settings reload. */
  invalidate(parts?: Partial<SystemPromptParts>): void {
    if (parts) this.parts = { ...this.parts, ...parts }
    this.parts.repoMap?.invalidate()
    this.#sections = undefined
    this.#plain = undefined
  }

  async #build(): Promise<ContextSection[]> {
    const repoMap = (await this.parts.repoMap?.text()) ?? ''
    const instructions = renderInstructions(this.parts.instructions.files, this.parts.alwaysRules)
    const custom = this.parts.custom
    return buildSystem({
      base:
        custom === undefined
          ? BASE_PROMPT
          : typeof custom === 'string'
            ? custom
            : `${BASE_PROMPT}\n\n${custom.append}`,
      environment: renderEnvironment(this.parts.environment),
      ...(instructions !== '' ? { instructions } : {}),
      ...(this.parts.skills !== '' ? { skills: this.parts.skills } : {}),
      ...(repoMap !== '' ? { repoMap } : {}),
    })
  }
}
