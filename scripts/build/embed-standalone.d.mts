/** The embeddable ES module for ajv standalone code by group (see embed-standalone.mjs). */
export declare function embedStandalone(groups: Readonly<Record<string, string>>, generator: string): string
