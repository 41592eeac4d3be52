/**
 * Finds commands in documentation that do not run as written on a machine with only Node and npm: a bare `pnpm`
 * (no pnpm is installed there; the pinned `npx --yes pnpm@12.4.2` is), `npx` of another pnpm or without `--yes`
 * (npx is configured not to prompt), and the retired custom resolution condition.
 */

/** The one way to call pnpm that works on a fresh machine. */
export const PINNED_PNPM = 'npx --yes pnpm@12.4.2';

/** A command in a document that would not run as written. */
export interface DocCommandProblem {
  /** 1-based line number. */
  readonly line: number;
  /** The code the command was found in (a fenced line or an inline code span). */
  readonly code: string;
  readonly problem: string;
}

const checks: readonly { readonly pattern: RegExp; readonly problem: string }[] = [
  { pattern: /(^|[\s;&|(`$])pnpm\s/, problem: `bare pnpm (write ${PINNED_PNPM} ...)` },
  { pattern: /\bnpx\s+(?:-y\s+)?pnpm\b|\bnpx\s+--yes\s+pnpm(?!@12\.4\.2\s)/, problem: `npx pnpm without --yes or at another version (write ${PINNED_PNPM} ...)` },
  { pattern: /--conditions[= ]|@tokenforge\/source/, problem: 'a custom resolution condition (tsx and node need none)' },
];

function problemsOf(code: string, line: number): DocCommandProblem[] {
  const withoutPinned = code.split(PINNED_PNPM).join('PINNED');
  return checks.filter((check) => check.pattern.test(withoutPinned)).map((check) => ({ line, code: code.trim(), problem: check.problem }));
}

/**
 * Scans a Markdown document: every line of a fenced block and every inline code span (tables included).
 * Prose that merely names pnpm is not a command and is left alone.
 */
export function scanMarkdownCommands(text: string): DocCommandProblem[] {
  const problems: DocCommandProblem[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((lineText, index) => {
    const line = index + 1;
    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(lineText);
    if (fenceMatch !== null) {
      const marker = fenceMatch[1] ?? '';
      if (fence === undefined) fence = marker;
      else if (marker.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence !== undefined) {
      problems.push(...problemsOf(lineText, line));
      return;
    }
    for (const span of lineText.matchAll(/`([^`]+)`/g)) problems.push(...problemsOf(span[1] ?? '', line));
  });
  return problems;
}

/** Scans a source file's comments the same way: the inline code spans of its comment lines. */
export function scanSourceCommentCommands(text: string): DocCommandProblem[] {
  const problems: DocCommandProblem[] = [];
  text.split('\n').forEach((lineText, index) => {
    if (!/^\s*(\/\/|\/?\*)/.test(lineText)) return;
    for (const span of lineText.matchAll(/`([^`]+)`/g)) problems.push(...problemsOf(span[1] ?? '', index + 1));
  });
  return problems;
}
