import ts from 'typescript';

/** Whether a string literal is the module specifier of an import, export, `import()`, `require()` or `import('x').T`. */
export function isModuleSpecifier(node: ts.StringLiteralLike): boolean {
  const parent = node.parent;
  if ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) return true;
  if (ts.isExternalModuleReference(parent)) return true;
  if (ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent)) return true;
  if (ts.isCallExpression(parent) && parent.arguments[0] === node) {
    const callee = parent.expression;
    return callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require');
  }
  return false;
}

/** Every module specifier in a JavaScript or TypeScript (declaration) text, in order of appearance, without duplicates. */
export function collectModuleSpecifiers(fileName: string, text: string): string[] {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) && isModuleSpecifier(node)) found.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return [...found];
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`; relative paths and `node:` builtins come back unchanged. */
export function packageNameOf(specifier: string): string {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return specifier;
  const [first = '', second = ''] = specifier.split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}
