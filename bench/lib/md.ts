/** Markdown helpers for the report. */

export type Verdict = 'PASS' | 'FAIL' | 'INFO' | 'ERROR' | 'MISSING FIXTURE';

export const verdict = (ok: boolean): Verdict => (ok ? 'PASS' : 'FAIL');

const cell = (v: unknown): string =>
  String(v ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\n/g, ' ');

export function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const head = `| ${headers.map(cell).join(' | ')} |`;
  const sep = `|${headers.map(() => '---').join('|')}|`;
  return [head, sep, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** Milliseconds with a precision that suits the magnitude. */
export function ms(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  if (Math.abs(v) < 1) return `${v.toFixed(3)} ms`;
  if (Math.abs(v) < 100) return `${v.toFixed(1)} ms`;
  return `${Math.round(v)} ms`;
}

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

export const mark = (v: Verdict): string => (v === 'PASS' || v === 'INFO' ? v : `**${v}**`);
