import type { ValidateFunction } from 'ajv'

/**
 * The built-in tools' input validators `scripts/generate-tool-validators.ts` precompiles, keyed by
 * schema fingerprint (group `tools`, built on first call). This file is what runs from sources
 * (tests), where there are none; the package build replaces it with the generated module
 * (`generated/tool-validators.js`, see `embedGenerated` in scripts/build/tsup-base.ts), so the
 * bundle carries its validators and reads nothing from disk.
 */
export const PRECOMPILED:
  | Readonly<Record<string, () => Readonly<Record<string, ValidateFunction>>>>
  | undefined = undefined
