/** `micros` of `currency` as a decimal amount (`1.234500 USD`). */
export function money(micros: number, currency: string): string {
  return `${(micros / 1_000_000).toFixed(6)} ${currency}`;
}

/** A decimal amount typed by the operator, in micro-units (undefined when empty or not a number). */
export function microsOf(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 1_000_000) : undefined;
}

/** A positive whole number typed by the operator (undefined when empty). */
export function countOf(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/** Epoch milliseconds as an ISO time without milliseconds. */
export function time(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A comma-separated list typed by the operator. */
export function listOf(text: string): string[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
}

/** Rows as CSV (RFC 4180 quoting). */
export function toCsv(headers: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (value: string | number): string => (/[",\r\n]/.test(String(value)) ? `"${String(value).replace(/"/g, '""')}"` : String(value));
  return [headers, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
