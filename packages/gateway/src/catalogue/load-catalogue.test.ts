import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayCatalogueV1JsonSchema } from './catalogue-json-schema.js';
import { GatewayCatalogueError, parseGatewayCatalogueText, readGatewayCatalogueFile } from './load-catalogue.js';

const EXAMPLE = new URL('../../examples/catalogue.example.yaml', import.meta.url);

describe('the catalogue', () => {
  it('the committed JSON Schema is the one the zod schema generates', () => {
    const committed = JSON.parse(readFileSync(new URL('./gateway-catalogue-v1.schema.json', import.meta.url), 'utf8')) as unknown;
    // Regenerate with: npx --yes pnpm@12.4.2 exec tsx --conditions=@tokenforge/source packages/gateway/src/catalogue/write-catalogue-json-schema.ts
    expect(committed).toEqual(gatewayCatalogueV1JsonSchema());
  });

  it('reads the example catalogue (YAML)', async () => {
    const catalogue = await readGatewayCatalogueFile(EXAMPLE.pathname);
    expect(catalogue.models.map((model) => model.name)).toContain('chat');
    expect(catalogue.models.find((model) => model.name === 'chat')?.targets.length).toBeGreaterThanOrEqual(2);
  });

  it('reads JSON too', () => {
    const catalogue = parseGatewayCatalogueText(
      JSON.stringify({ version: 1, clientKeys: [{ id: 'a', env: 'KEY_A' }], models: [{ name: 'm', taskKind: 'rerank', targets: [{ provider: 'cohere', family: 'cohere-rerank/v1', model: 'rerank-v3.5', baseUrl: 'https://api.cohere.com', credentials: { apiKeyEnv: 'COHERE_API_KEY' } }] }] }),
      'json',
    );
    expect(catalogue.models[0]?.name).toBe('m');
  });

  it('reports every problem at once, with its path', () => {
    const text = [
      'version: 2',
      'clientKeys:',
      '  - { id: a, env: "not a name" }',
      '  - { id: a, env: KEY_B }',
      'models:',
      '  - name: chat',
      '    taskKind: chat',
      '    targets:',
      '      - { provider: openai, family: openai-chat, model: gpt, baseUrl: "ftp://x", credentials: { apiKey: sk-live-123 } }',
      '  - name: chat',
      '    taskKind: speech',
      '    targets: []',
    ].join('\n');
    let error: unknown;
    try {
      parseGatewayCatalogueText(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayCatalogueError);
    const paths = (error as GatewayCatalogueError).issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'version',
        'clientKeys.0.env',
        'models.0.targets.0.family',
        'models.0.targets.0.baseUrl',
        'models.0.targets.0.credentials',
        'models.1.taskKind',
        'models.1.targets',
      ]),
    );
    // A secret pasted into the file is refused, and never echoed in the error.
    expect((error as Error).message).not.toContain('sk-live-123');
  });

  it('refuses text that is not YAML', () => {
    expect(() => parseGatewayCatalogueText('models: [unclosed')).toThrow(GatewayCatalogueError);
  });
});
