import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes `source` to `file` unless the file already holds it, through a temporary file renamed into
 * place (a reader never sees half a file); answers whether it wrote.
 */
export function writeIfChanged(file: string, source: string): boolean {
  let current: string | undefined;
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === source) return false;
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, source);
  renameSync(temporary, file);
  return true;
}
