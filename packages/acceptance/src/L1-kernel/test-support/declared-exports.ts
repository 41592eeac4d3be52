import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { repositoryRoot, type PublishablePackage } from './repository.js';

/** An export as its root index declares it: a runtime value, or a name that exists only for the type checker. */
export type DeclaredExportKind = 'value' | 'type';

export interface DeclaredExports {
  readonly exports: ReadonlyMap<string, DeclaredExportKind>;
  /** Root-index constructs that hide the export list from a reader (`export *`). */
  readonly wildcardReExports: readonly string[];
}

/**
 * Reads a package's root `src/index.ts` syntactically. The house style has the root index name every export,
 * and `verbatimModuleSyntax` makes type-only exports say so (`export type`), so the syntax alone tells values
 * from types. Runtime imports cannot see type-only exports; this can.
 */
export function declaredExports(name: PublishablePackage): DeclaredExports {
  const file = join(repositoryRoot, 'packages', name, 'src', 'index.ts');
  const sourceFile = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const exports = new Map<string, DeclaredExportKind>();
  const wildcardReExports: string[] = [];
  const add = (exportName: string, kind: DeclaredExportKind): void => {
    if (exports.get(exportName) !== 'value') exports.set(exportName, kind);
  };

  for (const statement of sourceFile.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause === undefined) wildcardReExports.push(statement.getText(sourceFile));
      else if (ts.isNamespaceExport(clause)) add(clause.name.text, statement.isTypeOnly ? 'type' : 'value');
      else for (const element of clause.elements) add(element.name.text, statement.isTypeOnly || element.isTypeOnly ? 'type' : 'value');
      continue;
    }
    if (ts.isExportAssignment(statement)) {
      add('default', 'value');
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) add(declaration.name.text, 'value');
      }
    } else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      add(statement.name.text, 'type');
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      add(statement.name.text, 'value');
    }
  }
  return { exports, wildcardReExports };
}
