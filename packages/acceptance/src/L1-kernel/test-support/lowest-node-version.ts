/**
 * The lowest Node version an `engines.node` range admits, as [major, minor], for the simple forms package
 * manifests use (`>=20.19`, `>=20.19.0`, `^20.19.0 || >=22`, `>=20.19 <23`). Undefined for anything else,
 * so an unusual range fails the gate instead of passing unread.
 */
export function lowestNodeVersion(range: string): [number, number] | undefined {
  const lowest: [number, number][] = [];
  for (const part of range.split('||')) {
    const match = /^\s*(?:>=|\^|~)?\s*v?(\d+)(?:\.(\d+))?(?:\.\d+)?(?:\s+<\S+)?\s*$/.exec(part);
    if (match === null) return undefined;
    lowest.push([Number(match[1]), Number(match[2] ?? 0)]);
  }
  return lowest.sort((a, b) => a[0] - b[0] || a[1] - b[1])[0];
}
