import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** What a raw-forwarding finding is about. */
export type RawForwardingRule =
  /** A transport response, its body or a chunk of it leaves the function other than as an argument to a decoder. */
  | 'raw-escapes'
  /** Engine code calls a transport itself (only adapters send; the engine validates what they decode). */
  | 'engine-sends'
  /** Engine code names a raw response or byte type, so something raw could cross its public surface. */
  | 'engine-raw-type';

export interface RawForwardingFinding {
  /** Path relative to the scanned package folder. */
  readonly file: string;
  readonly line: number;
  readonly rule: RawForwardingRule;
  /** The offending expression or name. */
  readonly match: string;
}

function listFiles(directory: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(join(directory, prefix), { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) files.push(...listFiles(directory, relative));
    else files.push(relative);
  }
  return files.sort();
}

/** Production files of a package: `.ts` under `src/`, without tests, test support, fixtures or fixture transports. */
export function productionFiles(packageDirectory: string): string[] {
  return listFiles(join(packageDirectory, 'src'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !/\.test\.ts$|\.bench\.ts$/.test(file))
    .filter((file) => !file.split('/').some((segment) => segment === 'test-support' || segment === '__fixtures__' || segment === 'testing'))
    .map((file) => `src/${file}`);
}

const RAW_TYPES = new Set(['ProviderTransportResponse']);
const ENGINE_RAW_TYPES = new Set(['ProviderTransportResponse', 'Uint8Array', 'ArrayBuffer', 'ReadableStream', 'Response', 'Blob']);

function unwrap(node: ts.Node): ts.Node {
  let current = node;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAwaitExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isNonNullExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isTypeAssertionExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

/** Climbs from an expression through wrappers that pass its value on unchanged (parentheses, await, casts, `a ? x : y`). */
function climb(node: ts.Node): ts.Node {
  let current = node;
  for (;;) {
    const parent = current.parent;
    if (
      ts.isParenthesizedExpression(parent) ||
      ts.isAwaitExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isNonNullExpression(parent) ||
      ts.isSatisfiesExpression(parent) ||
      ts.isTypeAssertionExpression(parent) ||
      (ts.isConditionalExpression(parent) && parent.condition !== current) ||
      (ts.isBinaryExpression(parent) && (parent.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken || parent.operatorToken.kind === ts.SyntaxKind.BarBarToken))
    ) {
      current = parent;
      continue;
    }
    return current;
  }
}

function isSendCall(node: ts.Node): boolean {
  const call = unwrap(node);
  return ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.expression.name.text === 'send';
}

function typeName(type: ts.TypeNode | undefined): string | undefined {
  return type !== undefined && ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) ? type.typeName.text : undefined;
}

function bindingNames(name: ts.BindingName, into: Set<string>): void {
  if (ts.isIdentifier(name)) into.add(name.text);
  else for (const element of name.elements) if (ts.isBindingElement(element)) bindingNames(element.name, into);
}

/** Whether an expression is raw: a tracked name, or `.body` of one. */
function isRawExpression(node: ts.Node, tracked: ReadonlySet<string>): boolean {
  const inner = unwrap(node);
  if (ts.isIdentifier(inner)) return tracked.has(inner.text);
  return ts.isPropertyAccessExpression(inner) && inner.name.text === 'body' && ts.isIdentifier(unwrap(inner.expression)) && tracked.has((unwrap(inner.expression) as ts.Identifier).text);
}

/** Names bound to a transport response, its body, or chunks read from it (aliases included, by name per file). */
function trackedNames(source: ts.SourceFile): Set<string> {
  const tracked = new Set<string>();
  let size = -1;
  while (size !== tracked.size) {
    size = tracked.size;
    const visit = (node: ts.Node): void => {
      if ((ts.isVariableDeclaration(node) || ts.isParameter(node)) && RAW_TYPES.has(typeName(node.type) ?? '')) bindingNames(node.name, tracked);
      if (ts.isVariableDeclaration(node) && node.initializer !== undefined && (isSendCall(node.initializer) || isRawExpression(node.initializer, tracked))) {
        bindingNames(node.name, tracked);
      }
      if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isIdentifier(node.left) && (isSendCall(node.right) || isRawExpression(node.right, tracked))) {
        tracked.add(node.left.text);
      }
      if (ts.isForOfStatement(node) && isRawExpression(node.expression, tracked) && ts.isVariableDeclarationList(node.initializer)) {
        for (const declaration of node.initializer.declarations) bindingNames(declaration.name, tracked);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return tracked;
}

function isCallArgument(node: ts.Node): boolean {
  const parent = node.parent;
  return (ts.isCallExpression(parent) || ts.isNewExpression(parent)) && (parent.arguments ?? []).some((argument) => argument === node);
}

/** Whether a raw value at `node` stays inside the function: read, compared, aliased or handed to a decoder. */
function staysInside(node: ts.Node): boolean {
  const value = climb(node);
  const parent = value.parent;
  if (isCallArgument(value)) return true;
  if (ts.isVariableDeclaration(parent) && parent.initializer === value) return true;
  if (ts.isForOfStatement(parent) && parent.expression === value) return true;
  if ((ts.isPropertyAccessExpression(parent) || ts.isElementAccessExpression(parent)) && parent.expression === value) return true;
  if (ts.isIfStatement(parent) || ts.isPrefixUnaryExpression(parent) || ts.isTypeOfExpression(parent)) return true;
  if (ts.isBinaryExpression(parent)) {
    if (parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) return parent.right === value ? ts.isIdentifier(parent.left) : true;
    return true;
  }
  if (ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent) || ts.isSpreadAssignment(parent) || ts.isSpreadElement(parent)) {
    const literal = ts.isSpreadElement(parent) ? parent.parent : parent.parent;
    return isCallArgument(climb(literal));
  }
  return false;
}

/** What a scan looked at and found. */
export interface RawForwardingScan {
  /** Raw expressions (responses, bodies, chunks) the scan judged: shows it saw the code it guards. */
  readonly rawReferences: number;
  readonly findings: RawForwardingFinding[];
}

/** Scans one file's text. `engine` adds the engine-only rules. */
export function scanRawForwardingSource(file: string, text: string, options: { readonly engine: boolean }): RawForwardingScan {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const tracked = trackedNames(source);
  const findings: RawForwardingFinding[] = [];
  let rawReferences = 0;
  const report = (node: ts.Node, rule: RawForwardingRule, match: string): void => {
    findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, rule, match });
  };
  const visit = (node: ts.Node): void => {
    if (options.engine && ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'send') report(node, 'engine-sends', node.expression.getText(source));
    if (options.engine && ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && ENGINE_RAW_TYPES.has(node.typeName.text)) report(node, 'engine-raw-type', node.typeName.text);
    if (options.engine && ts.isNewExpression(node) && ts.isIdentifier(node.expression) && ENGINE_RAW_TYPES.has(node.expression.text)) report(node, 'engine-raw-type', node.expression.text);
    const isReference =
      ts.isIdentifier(node) &&
      tracked.has(node.text) &&
      !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) &&
      !(ts.isPropertyAssignment(node.parent) && node.parent.name === node) &&
      !((ts.isVariableDeclaration(node.parent) || ts.isParameter(node.parent) || ts.isBindingElement(node.parent)) && node.parent.name === node) &&
      !(ts.isBinaryExpression(node.parent) && node.parent.left === node && node.parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) &&
      !ts.isTypeReferenceNode(node.parent);
    if (isReference) {
      const parent = node.parent;
      const raw = ts.isPropertyAccessExpression(parent) && parent.expression === node ? (parent.name.text === 'body' ? parent : undefined) : node;
      if (raw !== undefined) rawReferences += 1;
      if (raw !== undefined && !staysInside(raw)) report(raw, 'raw-escapes', raw.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { rawReferences, findings };
}

/** Scans a package's production files. */
export function scanRawForwarding(packageDirectory: string, options: { readonly engine: boolean }): RawForwardingScan & { readonly files: string[] } {
  const files = productionFiles(packageDirectory);
  const scans = files.map((file) => scanRawForwardingSource(file, readFileSync(join(packageDirectory, file), 'utf8'), options));
  return { files, rawReferences: scans.reduce((sum, scan) => sum + scan.rawReferences, 0), findings: scans.flatMap((scan) => scan.findings) };
}
