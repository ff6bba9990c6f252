import type { ValidateFunction } from 'ajv'

/** One precompiled group (`commands`, `events`, …): its validators by name. */
export type PrecompiledGroup = Readonly<Record<string, ValidateFunction>>

/**
 * The validators `scripts/generate-validators.ts` precompiles, by group, each built on first call.
 * This file is what runs from sources (tests), where there are none and schemas are compiled with
 * ajv on first use; the package build replaces it with the generated module (`generated/validators.js`,
 * see `embedGenerated` in scripts/build/tsup-base.ts), so the bundle carries its validators and
 * reads nothing from disk.
 */
export const PRECOMPILED: Readonly<Record<string, () => PrecompiledGroup>> | undefined = undefined
