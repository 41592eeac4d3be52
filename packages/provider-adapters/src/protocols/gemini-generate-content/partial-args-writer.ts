import { ProtocolViolationError } from '../../codec-kit/protocol-violation-error.js';
import type { GeminiPartialArgWire } from './wire-readers.js';

type Segment = string | number;

interface Container {
  readonly kind: 'object' | 'array';
  /** The key or index this container sits under in its parent (unused for the root). */
  readonly segment: Segment;
  /** Members written so far. */
  count: number;
  /** Keys written so far (objects), to refuse a key written twice. */
  readonly keys: Set<string> | undefined;
}

/**
 * Writes the argument JSON text of a Vertex streamed function call (`partialArgs`, fact sheet §4.5) as it
 * arrives, so each piece becomes one `tool-call-delta` and the pieces concatenate to the final text. Each
 * entry names a leaf by `jsonPath` (`$.a.b`, `$['a']`, `$.list[0].x`) with a complete number, boolean or null,
 * or the next fragment of a string (`willContinue: true` until the last fragment).
 *
 * Rule: leaves must arrive in document order, the way Vertex sends them. Returning to a closed object or
 * array, skipping an array index, writing a key twice, changing path while a string is open, or ending the
 * call inside a string is a protocol violation. Work is linear in the text written.
 */
export interface PartialArgsWriter {
  /** Applies one entry; returns the text it adds (possibly empty). */
  apply(entry: GeminiPartialArgWire): string;
  /** Ends the call; returns the closing text (`{}` for a call without arguments). */
  finish(): string;
}

/** Creates a {@link PartialArgsWriter} for one call. */
export function createPartialArgsWriter(): PartialArgsWriter {
  const stack: Container[] = [];
  let started = false;
  let openString: string | undefined;

  function start(): string {
    if (started) return '';
    started = true;
    stack.push({ kind: 'object', segment: '$', count: 0, keys: new Set() });
    return '{';
  }

  function member(container: Container, segment: Segment): string {
    let text = container.count > 0 ? ',' : '';
    if (container.kind === 'object') {
      if (typeof segment !== 'string') throw invalid('an array index addresses an object');
      if ((container.keys as Set<string>).has(segment)) throw invalid('a key was written twice');
      (container.keys as Set<string>).add(segment);
      text += `${JSON.stringify(segment)}:`;
    } else {
      if (segment !== container.count) throw invalid('array elements arrive out of order');
    }
    container.count += 1;
    return text;
  }

  function close(container: Container): string {
    return container.kind === 'object' ? '}' : ']';
  }

  return {
    apply(entry) {
      if (openString !== undefined) {
        if (entry.jsonPath !== openString) throw invalid('path changed inside an open string');
        let text = '';
        if (entry.value.type === 'string') text = escapeFragment(entry.value.text);
        else if (entry.value.type !== 'none') throw invalid('a string continues with another type');
        if (!entry.willContinue) {
          openString = undefined;
          text += '"';
        }
        return text;
      }
      if (entry.value.type === 'none') return '';
      const segments = parseJsonPath(entry.jsonPath);
      let text = start();
      // Keep the open containers shared with the new leaf's parent path; close the rest.
      let shared = 0;
      while (shared + 1 < stack.length && shared < segments.length - 1 && (stack[shared + 1] as Container).segment === segments[shared]) {
        shared += 1;
      }
      while (stack.length > shared + 1) text += close(stack.pop() as Container);
      for (let depth = shared; depth < segments.length - 1; depth += 1) {
        const parent = stack[stack.length - 1] as Container;
        const segment = segments[depth] as Segment;
        text += member(parent, segment);
        const kind = typeof segments[depth + 1] === 'number' ? 'array' : 'object';
        stack.push({ kind, segment, count: 0, keys: kind === 'object' ? new Set() : undefined });
        text += kind === 'object' ? '{' : '[';
      }
      text += member(stack[stack.length - 1] as Container, segments[segments.length - 1] as Segment);
      switch (entry.value.type) {
        case 'string':
          text += `"${escapeFragment(entry.value.text)}`;
          if (entry.willContinue) openString = entry.jsonPath;
          else text += '"';
          break;
        case 'number':
          text += JSON.stringify(entry.value.number);
          break;
        case 'boolean':
          text += entry.value.boolean ? 'true' : 'false';
          break;
        case 'null':
          text += 'null';
          break;
        default: {
          const unexpected: never = entry.value;
          throw invalid(`unknown value ${String(unexpected)}`);
        }
      }
      return text;
    },
    finish() {
      if (openString !== undefined) throw invalid('the call ended inside a string');
      let text = start();
      while (stack.length > 0) text += close(stack.pop() as Container);
      return text;
    },
  };
}

const PATH_SEGMENT = /^(?:\.([A-Za-z_$][\w$-]*)|\[(\d{1,9})\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\])/;

/** Parses `$.a.b[0]['c d']` into `['a', 'b', 0, 'c d']`; at least one segment. */
function parseJsonPath(path: string): Segment[] {
  if (!path.startsWith('$')) throw invalid('jsonPath does not start at $');
  const segments: Segment[] = [];
  let rest = path.slice(1);
  while (rest.length > 0) {
    const match = PATH_SEGMENT.exec(rest);
    if (match === null) throw invalid('jsonPath is not a simple path');
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(Number(match[2]));
    else segments.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
    rest = rest.slice(match[0].length);
  }
  if (segments.length === 0 || typeof segments[0] !== 'string') throw invalid('jsonPath does not name an argument');
  return segments;
}

function escapeFragment(fragment: string): string {
  return JSON.stringify(fragment).slice(1, -1);
}

function invalid(message: string): ProtocolViolationError {
  return new ProtocolViolationError('invalid-event', `streamed function call arguments: ${message}`);
}
