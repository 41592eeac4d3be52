const MAX_SHOWN = 160;
// A differing discriminant explains every other difference below it, so it is reported first.
const DISCRIMINANTS = ['kind', 'type', 'status'];

function byDiscriminantFirst(left: string, right: string): number {
  const leftRank = DISCRIMINANTS.includes(left) ? DISCRIMINANTS.indexOf(left) : DISCRIMINANTS.length;
  const rightRank = DISCRIMINANTS.includes(right) ? DISCRIMINANTS.indexOf(right) : DISCRIMINANTS.length;
  return leftRank - rightRank || (left < right ? -1 : left > right ? 1 : 0);
}

function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Object.is(value, -0)) return '-0';
  if (typeof value === 'bigint') return `${value}n`;
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as ArrayLike<unknown>).length})`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (ArrayBuffer.isView(value)) return value.constructor.name;
  return typeof value;
}

/**
 * Compares two fact values structurally and describes the first difference with its path, or returns `undefined`
 * when they are equal. Plain objects compare by own enumerable keys (a key holding `undefined` counts as absent;
 * `kind`, `type` and `status` first, then alphabetically),
 * arrays and typed arrays element by element (`Object.is`, so `NaN` equals `NaN` and `0` differs from `-0`).
 */
export function describeDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  if (Object.is(expected, actual)) return undefined;
  const expectedKind = kindOf(expected);
  if (expectedKind !== kindOf(actual)) {
    return `${path}: expected ${expectedKind} ${show(expected)}, got ${kindOf(actual)} ${show(actual)}`;
  }
  if (expectedKind === 'array' || ArrayBuffer.isView(expected)) {
    const left = expected as ArrayLike<unknown>;
    const right = actual as ArrayLike<unknown>;
    if (left.length !== right.length) return `${path}: expected length ${left.length}, got ${right.length}`;
    for (let index = 0; index < left.length; index += 1) {
      const difference = describeDifference(left[index], right[index], `${path}[${index}]`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  if (expectedKind === 'object') {
    const left = expected as Record<string, unknown>;
    const right = actual as Record<string, unknown>;
    const keys = new Set([...Object.keys(left), ...Object.keys(right)].filter((key) => left[key] !== undefined || right[key] !== undefined));
    for (const key of [...keys].sort(byDiscriminantFirst)) {
      if (!(key in left) || left[key] === undefined) return `${path}.${key}: unexpected field ${show(right[key])}`;
      if (!(key in right) || right[key] === undefined) return `${path}.${key}: missing, expected ${show(left[key])}`;
      const difference = describeDifference(left[key], right[key], `${path}.${key}`);
      if (difference !== undefined) return difference;
    }
    return undefined;
  }
  return `${path}: expected ${show(expected)}, got ${show(actual)}`;
}
