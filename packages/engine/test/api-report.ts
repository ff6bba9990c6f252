/**
 * A text report of what an entry point exports, names and types: each export with its type as the
 * compiler sees it, and the members of every exported interface, class and object type. The
 * snapshot tests compare it with the checked-in report under `api/`, so a change to a public type
 * (an option renamed, a field made optional, an event's shape) fails until the report is updated
 * on purpose (`pnpm exec vitest run packages/engine/test/api-types.test.ts -u`).
 */
import ts from 'typescript'

const FLAGS =
  ts.TypeFormatFlags.NoTruncation |
  ts.TypeFormatFlags.InTypeAlias |
  ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType |
  ts.TypeFormatFlags.WriteArrayAsGenericType

/** One program over the given entry files, with the package's compiler options (sources, not dist). */
export function apiProgram(tsconfig: string, entries: readonly string[]): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    tsconfig,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      },
    },
  )
  if (parsed === undefined) throw new Error(`cannot read ${tsconfig}`)
  return ts.createProgram({ rootNames: entries, options: { ...parsed.options, noEmit: true } })
}

/** The report of one entry file of `program`. */
export function apiReport(program: ts.Program, entry: string): string {
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(entry)
  const module = source && checker.getSymbolAtLocation(source)
  if (module === undefined) throw new Error(`${entry} is not a module of the program`)
  const lines: string[] = []
  const exports = checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name))
  for (const exported of exports) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
    const declaration = symbol.declarations?.[0]
    if (declaration === undefined) continue
    if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
      lines.push(
        `value ${exported.name}: ${text(checker, checker.getTypeOfSymbolAtLocation(symbol, declaration))}`,
      )
      continue
    }
    if (symbol.flags & ts.SymbolFlags.Class) {
      lines.push(`class ${exported.name}`)
      const statics = checker.getTypeOfSymbolAtLocation(symbol, declaration)
      for (const signature of statics.getConstructSignatures())
        lines.push(`  new${checker.signatureToString(signature, undefined, FLAGS)}`)
      members(checker, statics, declaration, lines, '  static ')
      members(checker, checker.getDeclaredTypeOfSymbol(symbol), declaration, lines, '  ')
      continue
    }
    const type = checker.getDeclaredTypeOfSymbol(symbol)
    const parameters = typeParameters(declaration)
    if (type.flags & ts.TypeFlags.Object && !(type.flags & ts.TypeFlags.Union)) {
      lines.push(`type ${exported.name}${parameters}`)
      for (const signature of type.getCallSignatures())
        lines.push(`  ${checker.signatureToString(signature, undefined, FLAGS)}`)
      members(checker, type, declaration, lines, '  ')
    } else lines.push(`type ${exported.name}${parameters} = ${text(checker, type)}`)
  }
  return `${lines.join('\n')}\n`
}

function members(
  checker: ts.TypeChecker,
  type: ts.Type,
  at: ts.Declaration,
  lines: string[],
  indent: string,
): void {
  const properties = checker
    .getPropertiesOfType(type)
    .filter((property) => !property.name.startsWith('#') && !property.name.startsWith('__'))
    .filter((property) => {
      const modifiers = ts.getCombinedModifierFlags(property.valueDeclaration ?? at)
      return !(modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected))
    })
    .sort((a, b) => a.name.localeCompare(b.name))
  for (const property of properties) {
    if (property.name === 'prototype') continue
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : ''
    const readonly = isReadonly(property) ? 'readonly ' : ''
    lines.push(
      `${indent}${readonly}${property.name}${optional}: ${text(checker, checker.getTypeOfSymbolAtLocation(property, at))}`,
    )
  }
}

function isReadonly(property: ts.Symbol): boolean {
  const declaration = property.valueDeclaration
  return (
    declaration !== undefined && (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly) !== 0
  )
}

function typeParameters(declaration: ts.Declaration): string {
  const parameters = (declaration as { typeParameters?: ts.NodeArray<ts.TypeParameterDeclaration> })
    .typeParameters
  return parameters === undefined ? '' : `<${parameters.map((parameter) => parameter.getText()).join(', ')}>`
}

function text(checker: ts.TypeChecker, type: ts.Type): string {
  return checker.typeToString(type, undefined, FLAGS)
}
