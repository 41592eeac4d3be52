import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { isModuleSpecifier } from './module-specifiers.js';
import { listFiles } from './repository.js';

/** What a finding is about. */
export type NeutralityRule = 'provider-or-model-name' | 'identity-branch' | 'tenant' | 'host-framework' | 'network-client';

export interface NeutralityFinding {
  /** Path relative to the scanned package folder. */
  readonly file: string;
  readonly line: number;
  readonly rule: NeutralityRule;
  /** The offending text, lower-cased. */
  readonly match: string;
}

/**
 * Provider and model names, checked in code and comments alike: the engine has no reason to name one.
 * Distinctive names match anywhere (`isOpenAiTarget`); short ones only as whole words (identifiers are
 * also read split at camelCase humps, so `gptModel` counts). Names that are also English words are left out.
 */
const providerOrModelNames = [
  /openai|anthropic|gemini|google|cohere|dashscope|alibaba|deepseek|azure|claude|qwen|mistral|vertexai/gi,
  /volcengine|doubao|zhipu|minimax|hunyuan|siliconflow|openrouter|midjourney|chatgpt|dall-?e/gi,
  /\b(?:kling|gpt|llama|grok|groq|ernie|baidu|tencent|bytedance|kimi|glm|sora|veo|imagen|jina|xai|aws)(?![a-z])/gi,
];

/** Host frameworks named in comments or code (`express` and `next` are English words: only their unmistakable forms). */
const hostFrameworkText = /\b(?:fastify|hono|koa|nestjs|elysia|express\.?js|next\.?js)\b/gi;
const hostFrameworkIdentifier = /^(?:express|Express[A-Z]\w*|Next(?:Request|Response|Api\w*|Function|Page\w*)|fastify|Fastify\w*|hono|Hono\w*|koa|Koa\w*)$/;
const hostFrameworkModule = /^(?:express|fastify|hono|koa|next|elysia|@hono\/.*|@nestjs\/.*|@fastify\/.*|@koa\/.*|next\/.*|hono\/.*|express-.*|koa-.*)$/;

/** Network clients: globals and modules that reach the network on their own. Checked in code only. */
const networkIdentifier = /^(?:fetch|XMLHttpRequest|WebSocket|WebSocketStream|EventSource|sendBeacon|undici)$/;
const networkModule =
  /^(?:node:)?(?:http|https|http2|net|tls|dgram|dns)(?:\/.*)?$|^(?:undici|ws|axios|node-fetch|cross-fetch|isomorphic-fetch|got|ky|superagent)(?:\/.*)?$/;

/** Tenant is a host concept: no identifier or string in engine code mentions one (prose may say the engine has none). */
const tenantCode = /tenant/i;

/**
 * Target identity fields (`target.provider`, `target.providerModel`, `model`) are opaque data the engine may
 * copy, never a dispatch key: comparing them, switching on them, matching them or keying a lookup with them
 * is a branch on a provider or model, whatever the literal.
 */
const identityFields = new Set(['provider', 'providerModel', 'model']);
const equalityOperators = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);
const matchingMethods = new Set(['startsWith', 'endsWith', 'includes', 'indexOf', 'match', 'test', 'exec', 'localeCompare', 'search']);

/** The identity field an expression reads (`target.provider`, `target?.['model']`), if any. */
function identityFieldOf(expression: ts.Expression): string | undefined {
  let node = expression;
  while (ts.isParenthesizedExpression(node) || ts.isNonNullExpression(node) || ts.isAsExpression(node)) node = node.expression;
  if (ts.isPropertyAccessExpression(node) && identityFields.has(node.name.text)) return node.name.text;
  if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression) && identityFields.has(node.argumentExpression.text)) {
    return node.argumentExpression.text;
  }
  return undefined;
}

/** The identity field a node branches on, if it is a comparison, switch, string match or keyed lookup of one. */
function identityBranchOf(node: ts.Node): string | undefined {
  if (ts.isBinaryExpression(node) && equalityOperators.has(node.operatorToken.kind)) {
    return identityFieldOf(node.left) ?? identityFieldOf(node.right);
  }
  if (ts.isSwitchStatement(node)) return identityFieldOf(node.expression);
  if (ts.isElementAccessExpression(node)) return identityFieldOf(node.argumentExpression);
  if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && matchingMethods.has(node.expression.name.text)) {
    return identityFieldOf(node.expression.expression) ?? node.arguments.map(identityFieldOf).find((field) => field !== undefined);
  }
  return undefined;
}

/** Scans one TypeScript source text; `file` is only used to label the findings. */
export function scanSource(file: string, text: string): NeutralityFinding[] {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const findings = new Map<string, NeutralityFinding>();
  const report = (position: number, rule: NeutralityRule, match: string): void => {
    const line = sourceFile.getLineAndCharacterOfPosition(position).line + 1;
    const finding = { file, line, rule, match: match.toLowerCase() };
    findings.set(`${line}\u0000${rule}\u0000${finding.match}`, finding);
  };
  const checkNames = (position: number, value: string): void => {
    for (const pattern of providerOrModelNames) {
      for (const found of value.matchAll(pattern)) report(position + (found.index ?? 0), 'provider-or-model-name', found[0]);
    }
    for (const found of value.matchAll(hostFrameworkText)) report(position + (found.index ?? 0), 'host-framework', found[0]);
  };

  const commentStarts = new Set<number>();
  const visitComments = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (commentStarts.has(range.pos)) continue;
      commentStarts.add(range.pos);
      checkNames(range.pos, text.slice(range.pos, range.end));
    }
  };

  const visit = (node: ts.Node): void => {
    visitComments(ts.getLeadingCommentRanges(text, node.getFullStart()));
    visitComments(ts.getTrailingCommentRanges(text, node.getEnd()));
    const start = node.getStart(sourceFile);
    const branchedField = identityBranchOf(node);
    if (branchedField !== undefined) report(start, 'identity-branch', branchedField);
    if (ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) {
      checkNames(start, node.text);
      checkNames(start, node.text.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));
      if (tenantCode.test(node.text)) report(start, 'tenant', node.text);
      if (hostFrameworkIdentifier.test(node.text)) report(start, 'host-framework', node.text);
      if (networkIdentifier.test(node.text)) report(start, 'network-client', node.text);
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const value = node.text;
      checkNames(start, value);
      if (tenantCode.test(value)) report(start, 'tenant', value);
      if (ts.isStringLiteralLike(node) && isModuleSpecifier(node)) {
        if (hostFrameworkModule.test(value)) report(start, 'host-framework', value);
        if (networkModule.test(value)) report(start, 'network-client', value);
      } else if (networkIdentifier.test(value)) {
        report(start, 'network-client', value); // globalThis['fetch']
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  visitComments(ts.getLeadingCommentRanges(text, sourceFile.endOfFileToken.getFullStart()));

  return [...findings.values()].sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule) || a.match.localeCompare(b.match));
}

/** Production source files of a package: everything under `src` but tests, test-support and recorded fixtures. */
export function productionSourceFiles(packageDirectory: string): string[] {
  return listFiles(join(packageDirectory, 'src'))
    .filter((file) => /\.(?:ts|mts|cts|js|mjs|cjs)$/.test(file) && !file.endsWith('.d.ts'))
    .filter((file) => !/\.test\.[cm]?[jt]s$/.test(file) && !/(^|\/)(test-support|__fixtures__)\//.test(file))
    .map((file) => `src/${file}`);
}

/** Scans every production source file of the package at `packageDirectory`. */
export function scanEngineNeutrality(packageDirectory: string): { files: string[]; findings: NeutralityFinding[] } {
  const files = productionSourceFiles(packageDirectory);
  const findings = files.flatMap((file) => scanSource(file, readFileSync(join(packageDirectory, file), 'utf8')));
  return { files, findings };
}
