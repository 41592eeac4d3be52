import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchFolder } from '../test-support/gateway-processes.js';
import { readSecret } from './read-secret.js';

describe('readSecret', () => {
  it('takes the variable first, then the file its _FILE variant names (one trailing line break dropped)', () => {
    const file = join(scratchFolder(), 'secret');
    writeFileSync(file, 'from-file\n');
    expect(readSecret({ KEY: 'direct', KEY_FILE: file }, 'KEY')).toEqual({ value: 'direct' });
    expect(readSecret({ KEY_FILE: file }, 'KEY')).toEqual({ value: 'from-file' });
    expect(readSecret({ KEY: '', KEY_FILE: file }, 'KEY')).toEqual({ value: 'from-file' });
    expect(readSecret({}, 'KEY')).toBeUndefined();
  });

  it('names the variable, never a value, when the file cannot be read', () => {
    expect(readSecret({ KEY_FILE: '/nonexistent/secret' }, 'KEY')).toEqual({ problem: 'the file named by KEY_FILE cannot be read (ENOENT)' });
  });
});
