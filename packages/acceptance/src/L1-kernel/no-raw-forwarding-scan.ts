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
  | 'engine-raw-type'
  /** Gateway code sends a request of its own (`fetch`, an HTTP client): providers are reached only through the engine. */
  | 'gateway-sends';

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

/** Production files of a package: `.ts` under `src/`, without tests, test support, fixtures, fixture transports or bench helpers. */
export function productionFiles(packageDirectory: string): string[] {
  return listFiles(join(packageDirectory, 'src'))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !/\.test\.ts$|\.bench\.ts$/.test(file))
    .filter((file) => !file.split('/').some((segment) => segment === 'test-support' || segment === '__fixtures__' || segment === 'testing' || segment === 'bench'))
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

const CLIENT_BODY_READS = new Set(['json', 'text', 'arrayBuffer', 'blob', 'formData', 'parseBody']);

/** Whether an expression reads the client's request (gateway): `c.req.raw`, its body, `c.req.json()`..., `readLimitedBody(...)`. */
function isClientRequest(node: ts.Node): boolean {
  const inner = unwrap(node);
  const isReq = (expression: ts.Node): boolean => ts.isPropertyAccessExpression(expression) && expression.name.text === 'req';
  if (ts.isPropertyAccessExpression(inner) && inner.name.text === 'raw' && isReq(inner.expression)) return true;
  if (ts.isPropertyAccessExpression(inner) && inner.name.text === 'body' && isClientRequest(inner.expression)) return true;
  if (ts.isCallExpression(inner)) {
    const callee = inner.expression;
    if (ts.isIdentifier(callee) && callee.text === 'readLimitedBody') return true;
    if (ts.isPropertyAccessExpression(callee) && CLIENT_BODY_READS.has(callee.name.text) && isReq(callee.expression)) return true;
  }
  return false;
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

/** What a scan applies beyond the adapter rule. */
export interface RawForwardingOptions {
  /** The engine-only rules. */
  readonly engine: boolean;
  /**
   * The gateway rules: the client's request (`c.req.raw`, its body and reads, `readLimitedBody`) is raw like a
   * transport response, may not be handed to `new Response`, `new Request` or `fetch`, and the gateway sends no
   * request of its own.
   */
  readonly gateway?: boolean;
}

/** The nearest enclosing function (or the file). */
function enclosingScope(node: ts.Node): ts.Node {
  let current = node.parent;
  while (current !== undefined && !ts.isFunctionLike(current) && !ts.isSourceFile(current)) current = current.parent;
  return current ?? node.getSourceFile();
}

function isWithin(node: ts.Node, scope: ts.Node): boolean {
  for (let current: ts.Node | undefined = node; current !== undefined; current = current.parent) if (current === scope) return true;
  return false;
}

/** Gateway: names bound to the client's request or its body, with the scopes they were bound in (aliases included). */
function clientRequestNames(source: ts.SourceFile): Map<string, ts.Node[]> {
  const names = new Map<string, ts.Node[]>();
  const bound = (node: ts.Node): boolean => {
    const inner = unwrap(node);
    if (isClientRequest(inner)) return true;
    const base = ts.isPropertyAccessExpression(inner) && inner.name.text === 'body' ? unwrap(inner.expression) : inner;
    return ts.isIdentifier(base) && (names.get(base.text) ?? []).some((scope) => isWithin(base, scope));
  };
  let size = -1;
  while (size !== [...names.values()].flat().length) {
    size = [...names.values()].flat().length;
    const visit = (node: ts.Node): void => {
      if (ts.isVariableDeclaration(node) && node.initializer !== undefined && bound(node.initializer)) {
        const scope = enclosingScope(node);
        const into = new Set<string>();
        bindingNames(node.name, into);
        for (const name of into) if (!(names.get(name) ?? []).includes(scope)) names.set(name, [...(names.get(name) ?? []), scope]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return names;
}

/** Gateway: a raw value placed in an object typed as the ingress codec's input stays with the decoder. */
function isIngressWireField(value: ts.Node): boolean {
  const parent = value.parent;
  if (!(ts.isPropertyAssignment(parent) || ts.isShorthandPropertyAssignment(parent))) return false;
  const declaration = climb(parent.parent).parent;
  return ts.isVariableDeclaration(declaration) && typeName(declaration.type) === 'ClientWireRequestV2';
}

const FORWARDING_CALLS = new Set(['Response', 'Request', 'fetch']);

/** Whether `value` is an argument of `new Response(...)`, `new Request(...)` or `fetch(...)`. */
function isForwardedArgument(value: ts.Node): boolean {
  const parent = value.parent;
  return (ts.isCallExpression(parent) || ts.isNewExpression(parent)) && ts.isIdentifier(parent.expression) && FORWARDING_CALLS.has(parent.expression.text) && (parent.arguments ?? []).some((argument) => argument === value);
}

const HTTP_CLIENT_MODULES = new Set(['node:http', 'http', 'node:https', 'https', 'undici', 'node:http2', 'http2']);
const HTTP_CLIENT_NAMES = new Set(['request', 'get', 'fetch', 'Agent', 'Pool', 'Client', 'connect']);

/** Scans one file's text. `engine` adds the engine-only rules, `gateway` the gateway ones. */
export function scanRawForwardingSource(file: string, text: string, options: RawForwardingOptions): RawForwardingScan {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const gateway = options.gateway === true;
  const tracked = trackedNames(source);
  const clientNames = gateway ? clientRequestNames(source) : new Map<string, ts.Node[]>();
  const findings: RawForwardingFinding[] = [];
  let rawReferences = 0;
  const report = (node: ts.Node, rule: RawForwardingRule, match: string): void => {
    findings.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, rule, match });
  };
  const visit = (node: ts.Node): void => {
    if (options.engine && ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'send') report(node, 'engine-sends', node.expression.getText(source));
    if (options.engine && ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && ENGINE_RAW_TYPES.has(node.typeName.text)) report(node, 'engine-raw-type', node.typeName.text);
    if (options.engine && ts.isNewExpression(node) && ts.isIdentifier(node.expression) && ENGINE_RAW_TYPES.has(node.expression.text)) report(node, 'engine-raw-type', node.expression.text);
    if (gateway && ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'fetch') report(node, 'gateway-sends', 'fetch');
    if (gateway && ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && HTTP_CLIENT_MODULES.has(node.moduleSpecifier.text)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) if (HTTP_CLIENT_NAMES.has((element.propertyName ?? element.name).text)) report(element, 'gateway-sends', `${(element.propertyName ?? element.name).text} from ${node.moduleSpecifier.text}`);
      }
    }
    if (gateway) {
      // The client's request: read directly (`c.req.raw`, `c.req.json()`...) or through a name bound to it in scope.
      const scoped =
        ts.isIdentifier(node) &&
        (clientNames.get(node.text) ?? []).some((scope) => isWithin(node, scope)) &&
        !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) &&
        !(ts.isPropertyAssignment(node.parent) && node.parent.name === node) &&
        !((ts.isVariableDeclaration(node.parent) || ts.isParameter(node.parent) || ts.isBindingElement(node.parent)) && node.parent.name === node) &&
        !ts.isTypeReferenceNode(node.parent);
      const direct = isClientRequest(node) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node && node.parent.name.text === 'body');
      if (scoped || direct) {
        const parent = node.parent;
        const raw = ts.isPropertyAccessExpression(parent) && parent.expression === node ? (parent.name.text === 'body' ? parent : undefined) : node;
        if (raw !== undefined) {
          rawReferences += 1;
          if (isForwardedArgument(climb(raw)) || (!staysInside(raw) && !isIngressWireField(raw))) report(raw, 'raw-escapes', raw.getText(source));
        }
      }
    }
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
      if (raw !== undefined && (!staysInside(raw) || (gateway && isForwardedArgument(climb(raw))))) report(raw, 'raw-escapes', raw.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { rawReferences, findings };
}

/** Scans a package's production files. */
export function scanRawForwarding(packageDirectory: string, options: RawForwardingOptions): RawForwardingScan & { readonly files: string[] } {
  const files = productionFiles(packageDirectory);
  const scans = files.map((file) => scanRawForwardingSource(file, readFileSync(join(packageDirectory, file), 'utf8'), options));
  return { files, rawReferences: scans.reduce((sum, scan) => sum + scan.rawReferences, 0), findings: scans.flatMap((scan) => scan.findings) };
}
