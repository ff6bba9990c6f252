// Markdown files are bundled as strings: tsup's `text` loader in builds, a Vite plugin in tests.
declare module '*.md' {
  const text: string
  export default text
}
