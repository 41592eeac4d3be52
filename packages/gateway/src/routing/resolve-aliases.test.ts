import { describe, expect, it } from 'vitest';
import { resolveAliases } from './resolve-aliases.js';

describe('resolveAliases', () => {
  const models = new Set(['chat-default', 'embed']);

  it('follows an alias, and an alias of an alias, to its model', () => {
    expect(resolveAliases({ 'gpt-4o-mini': 'chat-default', mini: 'gpt-4o-mini' }, models)).toEqual([
      { alias: 'gpt-4o-mini', model: 'chat-default' },
      { alias: 'mini', model: 'chat-default' },
    ]);
  });

  it('refuses a cycle, a dangling name and an alias that shadows a model', () => {
    const resolved = resolveAliases({ a: 'b', b: 'a', lost: 'nowhere', embed: 'chat-default' }, models);
    expect(resolved).toEqual([
      { alias: 'a', problem: 'is part of a cycle (a -> b -> a)' },
      { alias: 'b', problem: 'is part of a cycle (b -> a -> b)' },
      { alias: 'lost', problem: 'points at nowhere, which is neither a model nor an alias' },
      { alias: 'embed', problem: 'is already the name of a model' },
    ]);
  });
});
