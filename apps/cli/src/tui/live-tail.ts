/**
 * The end of a streaming text that fits in `rows` terminal rows of `columns` width. Ink redraws the
 * live area on every delta, and a live area taller than the terminal forces a full-screen clear each
 * time (flicker), so a long part streams as its tail; the whole text is printed once it ends.
 * A cut text leaves one row for the "…" marker the caller draws above it. A tail that starts
 * inside a code fence reopens the fence so it still renders as code.
 */
export function liveTail(text: string, rows: number, columns: number): string {
  const lines = text.split('\n')
  const width = Math.max(10, columns)
  const heights = lines.map((line) => Math.max(1, Math.ceil(line.length / width)))
  if (heights.reduce((sum, height) => sum + height, 0) <= rows) return text
  let used = 0
  let first = lines.length
  while (first > 0 && used + (heights[first - 1] ?? 1) <= rows - 1) {
    used += heights[first - 1] ?? 1
    first--
  }
  let fenceOpen = false
  for (const line of lines.slice(0, first)) if (/^\s*```/.test(line)) fenceOpen = !fenceOpen
  const tail = lines.slice(first).join('\n')
  return fenceOpen ? `\`\`\`\n${tail}` : tail
}
