/**
 * The support matrix of a protocol suite: which task kinds each family runs, how (sync, stream, async start and
 * the job operations after it), and whether it takes part in direct HTTP. Pure: the caller supplies the suite
 * entries and the conformance cases (see `builtin-sources.ts`), this module derives the facts and renders them.
 *
 * Where each fact comes from (the rule the guides document):
 * - task kinds: the union of `target.capability.taskKinds` over the family's conformance cases. Families expose no
 *   capability fact of their own, and a conformance case is the only place a family states, and proves, the
 *   capability it is run with;
 * - sync / async start: the suite entry's `execution`;
 * - stream: a sync family streams a task kind when one of its conformance cases runs a `stream: true` task of
 *   that kind and expects the engine to answer with a stream;
 * - get / list / cancel: the async adapter factory's `jobOperations` (what the engine enforces);
 * - direct HTTP: the entry's `directHttp` and `codecs`; SSE egress when the egress codec has a stream encoder.
 */
import { TASK_KINDS_V2, type ProtocolFamily, type ProviderTransportMetadataV1, type TaskKindV2 } from '@tokenforge/model-protocol';
import type { ProtocolSuiteEntryV1 } from '@tokenforge/provider-adapters';

/** The few facts of a conformance case the matrix reads (structurally a `ConformanceCaseV1`). */
export interface SupportMatrixCaseFacts {
  readonly target: { readonly capability: { readonly taskKinds: readonly string[] } };
  readonly task: { readonly kind: string; readonly stream?: boolean };
  readonly expect: { readonly kind: string };
}

/** Conformance cases by family. */
export type SupportMatrixCases = Readonly<Partial<Record<string, readonly SupportMatrixCaseFacts[]>>>;

/** One family and task kind. */
export interface SupportMatrixRow {
  readonly protocolFamily: ProtocolFamily;
  readonly taskKind: TaskKindV2;
  readonly sync: boolean;
  readonly stream: boolean;
  readonly asyncStart: boolean;
  readonly get: boolean;
  readonly list: boolean;
  readonly cancel: boolean;
}

/** One family's transport and direct-HTTP facts. */
export interface SupportMatrixFamily {
  readonly protocolFamily: ProtocolFamily;
  readonly execution: 'sync' | 'async';
  readonly transportMetadata: ProviderTransportMetadataV1;
  readonly ingress: boolean;
  readonly egressJson: boolean;
  readonly egressSse: boolean;
}

/** The derived matrix, families sorted like `engine.protocolFamilies`, task kinds in `TASK_KINDS_V2` order. */
export interface SupportMatrix {
  readonly rows: readonly SupportMatrixRow[];
  readonly families: readonly SupportMatrixFamily[];
}

/** A suite or case set the matrix cannot be derived from. */
export class SupportMatrixError extends Error {
  override readonly name = 'SupportMatrixError';
}

function isTaskKind(value: string): value is TaskKindV2 {
  return (TASK_KINDS_V2 as readonly string[]).includes(value);
}

function taskKindsOf(family: ProtocolFamily, cases: readonly SupportMatrixCaseFacts[]): TaskKindV2[] {
  const kinds = new Set<string>();
  for (const conformanceCase of cases) for (const kind of conformanceCase.target.capability.taskKinds) kinds.add(kind);
  for (const kind of kinds) {
    if (!isTaskKind(kind)) throw new SupportMatrixError(`${family}: a conformance target declares the unknown task kind ${JSON.stringify(kind)}`);
  }
  return TASK_KINDS_V2.filter((kind) => kinds.has(kind));
}

/** Derives the matrix; throws {@link SupportMatrixError} for a family without conformance cases or task kinds. */
export function buildSupportMatrix(entries: readonly ProtocolSuiteEntryV1[], cases: SupportMatrixCases): SupportMatrix {
  const sorted = [...entries].sort((left, right) => (left.protocolFamily < right.protocolFamily ? -1 : left.protocolFamily > right.protocolFamily ? 1 : 0));
  const rows: SupportMatrixRow[] = [];
  const families: SupportMatrixFamily[] = [];
  for (const entry of sorted) {
    const family = entry.protocolFamily;
    const familyCases = cases[family] ?? [];
    if (familyCases.length === 0) throw new SupportMatrixError(`${family}: no conformance cases, so its task kinds are unknown`);
    const kinds = taskKindsOf(family, familyCases);
    if (kinds.length === 0) throw new SupportMatrixError(`${family}: its conformance targets declare no task kind`);
    const operations: readonly string[] = entry.execution === 'async' ? entry.asyncAdapterFactory.jobOperations : [];
    for (const taskKind of kinds) {
      const stream =
        entry.execution === 'sync' &&
        familyCases.some((conformanceCase) => conformanceCase.task.kind === taskKind && conformanceCase.task.stream === true && conformanceCase.expect.kind === 'stream');
      rows.push({
        protocolFamily: family,
        taskKind,
        sync: entry.execution === 'sync',
        stream,
        asyncStart: entry.execution === 'async',
        get: operations.includes('get'),
        list: operations.includes('list'),
        cancel: operations.includes('cancel'),
      });
    }
    families.push({
      protocolFamily: family,
      execution: entry.execution,
      transportMetadata: entry.transportMetadata,
      ingress: entry.directHttp && entry.codecs !== undefined,
      egressJson: entry.directHttp && entry.codecs !== undefined,
      egressSse: entry.directHttp && entry.codecs?.egress.createStreamEncoder !== undefined,
    });
  }
  return { rows, families };
}

/** The languages the guide is written in. */
export type SupportMatrixLanguage = 'en' | 'zh-CN';

const HEADINGS: Readonly<Record<SupportMatrixLanguage, { readonly rows: readonly string[]; readonly families: readonly string[]; readonly execution: Readonly<Record<'sync' | 'async', string>> }>> = {
  en: {
    rows: ['family', 'task kind', 'sync', 'stream', 'async start', 'get', 'list', 'cancel'],
    families: ['family', 'execution', 'auth scheme', 'fixed headers', 'direct-HTTP ingress', 'egress JSON', 'egress SSE'],
    execution: { sync: 'sync', async: 'async job' },
  },
  'zh-CN': {
    rows: ['协议族', '任务类型', '同步', '流式', '异步创建', 'get', 'list', 'cancel'],
    families: ['协议族', '执行方式', '认证方式', '固定请求头', '直连 HTTP 入口', '出口 JSON', '出口 SSE'],
    execution: { sync: '同步', async: '异步任务' },
  },
};

const YES = '✓';
const NO = '—';

function mark(value: boolean): string {
  return value ? YES : NO;
}

function describeAuth(metadata: ProviderTransportMetadataV1): string {
  const { auth } = metadata;
  switch (auth.scheme) {
    case 'bearer':
      return '`bearer`';
    case 'header':
      return `\`header\` (\`${auth.headerName}\`)`;
    case 'hs256-jwt':
      return `\`hs256-jwt\` (${auth.lifetimeSeconds} s)`;
    default: {
      const unknownAuth: never = auth;
      throw new SupportMatrixError(`unknown auth scheme ${JSON.stringify(unknownAuth)}`);
    }
  }
}

function describeHeaders(metadata: ProviderTransportMetadataV1): string {
  const headers = Object.entries(metadata.fixedHeaders).sort(([left], [right]) => (left < right ? -1 : 1));
  return headers.length === 0 ? NO : headers.map(([name, value]) => `\`${name}: ${value}\``).join(', ');
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)];
}

/** The two markdown tables of the matrix in one language (no markers). */
export function renderSupportMatrix(matrix: SupportMatrix, language: SupportMatrixLanguage): string {
  const headings = HEADINGS[language];
  const rows = matrix.rows.map((row) => [
    `\`${row.protocolFamily}\``,
    `\`${row.taskKind}\``,
    mark(row.sync),
    mark(row.stream),
    mark(row.asyncStart),
    mark(row.get),
    mark(row.list),
    mark(row.cancel),
  ]);
  const families = matrix.families.map((family) => [
    `\`${family.protocolFamily}\``,
    headings.execution[family.execution],
    describeAuth(family.transportMetadata),
    describeHeaders(family.transportMetadata),
    mark(family.ingress),
    mark(family.egressJson),
    mark(family.egressSse),
  ]);
  return [...table(headings.rows, rows), '', ...table(headings.families, families)].join('\n');
}

/** The command that regenerates the tables (the root script, and what it runs). */
export const SUPPORT_MATRIX_COMMAND = 'npx --yes pnpm@12.4.2 docs:matrix (npx tsx tools/support-matrix/generate-support-matrix.ts)';

/** The line that opens the generated block. */
export const SUPPORT_MATRIX_BEGIN = '<!-- support-matrix:begin (generated from the builtin suite by tools/support-matrix; do not edit by hand) -->';
/** The line that closes the generated block. */
export const SUPPORT_MATRIX_END = '<!-- support-matrix:end -->';

function blockBounds(document: string, name: string): { start: number; end: number } {
  const start = document.indexOf(SUPPORT_MATRIX_BEGIN);
  const end = document.indexOf(SUPPORT_MATRIX_END);
  if (start === -1 || end === -1 || end < start) throw new SupportMatrixError(`${name}: the support matrix markers are missing or out of order`);
  if (document.indexOf(SUPPORT_MATRIX_BEGIN, start + 1) !== -1 || document.indexOf(SUPPORT_MATRIX_END, end + 1) !== -1) {
    throw new SupportMatrixError(`${name}: the support matrix markers appear more than once`);
  }
  return { start: start + SUPPORT_MATRIX_BEGIN.length, end };
}

/** The text between the markers, trimmed. */
export function readSupportMatrixBlock(document: string, name: string): string {
  const { start, end } = blockBounds(document, name);
  return document.slice(start, end).trim();
}

/** The document with the text between the markers replaced by `tables`. */
export function replaceSupportMatrixBlock(document: string, tables: string, name: string): string {
  const { start, end } = blockBounds(document, name);
  return `${document.slice(0, start)}\n\n${tables}\n\n${document.slice(end)}`;
}
