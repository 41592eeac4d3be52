import { isProviderProcessTransportV4 } from '@tokenforge/model-protocol';
import { createAgentCliSuiteEntryV1, createBuiltinTokenForgeProtocolSuiteV1, createTokenForgeProtocolSuiteV1 } from '@tokenforge/provider-adapters';
import { describe, expect, it } from 'vitest';
import { parseGatewayCatalogue } from '../catalogue/load-catalogue.js';
import { resolveCatalogue } from './resolve-catalogue.js';

const suite = createTokenForgeProtocolSuiteV1({ entries: [...createBuiltinTokenForgeProtocolSuiteV1().entries, createAgentCliSuiteEntryV1()] });

function catalogue(target: Record<string, unknown>) {
  return parseGatewayCatalogue({ version: 1, clientKeys: [{ id: 'k', env: 'CLIENT_KEY' }], models: [{ name: 'cli', taskKind: 'chat', targets: [target] }] });
}

const cliTarget = {
  provider: 'local-cli',
  family: 'agent-cli/v1',
  model: 'sonnet',
  agentCli: { program: 'claude-code', executable: 'claude', configFolder: '/var/lib/tokenforge/claude', environment: ['CLI_BASE_URL'] },
};

describe('agent-cli/v1 catalogue targets', () => {
  it('bind a process transport with the capability of the family (chat, no client tools)', async () => {
    const resolved = resolveCatalogue(catalogue(cliTarget), suite, { CLIENT_KEY: 'client-key-0001', CLI_BASE_URL: 'http://127.0.0.1:1' });
    const target = resolved.targets.get('cli#0');
    expect(target?.capability).toMatchObject({ protocolFamily: 'agent-cli/v1', taskKinds: ['chat'], tools: false });
    const transport = await target?.binding.bindTransport('cli#0', new AbortController().signal);
    expect(isProviderProcessTransportV4(transport)).toBe(true);
    expect(transport).toMatchObject({ program: 'claude-code', builtInTools: 'none' });
    await resolved.close();
  });

  it('hand a read-only opt-in to the family as the transport\'s builtInTools (default none)', async () => {
    const resolved = resolveCatalogue(catalogue({ ...cliTarget, agentCli: { ...cliTarget.agentCli, program: 'gemini-cli', builtInTools: 'read-only' } }), suite, { CLIENT_KEY: 'client-key-0001', CLI_BASE_URL: 'http://127.0.0.1:1' });
    const transport = await resolved.targets.get('cli#0')?.binding.bindTransport('cli#0', new AbortController().signal);
    expect(transport).toMatchObject({ program: 'gemini-cli', builtInTools: 'read-only' });
    await resolved.close();
  });

  it('report every problem at start: a named variable that is not set, an HTTP field on a CLI target, an HTTP target without its URL', () => {
    const problems = (target: Record<string, unknown>) => {
      try {
        resolveCatalogue(catalogue(target), suite, { CLIENT_KEY: 'client-key-0001' });
        return [];
      } catch (error) {
        return (error as { problems: string[] }).problems;
      }
    };
    expect(problems(cliTarget)).toEqual(['models.0.targets.0.agentCli.environment: the environment variable CLI_BASE_URL is not set']);
    expect(problems({ ...cliTarget, agentCli: { ...cliTarget.agentCli, environment: [] }, baseUrl: 'https://api.example.com' })).toEqual([
      'models.0.targets.0: an agentCli target has no baseUrl or credentials (the CLI signs in with its own configuration folder)',
    ]);
    expect(problems({ provider: 'p', family: 'agent-cli/v1', model: 'm' })).toEqual(['models.0.targets.0.agentCli: a target of family agent-cli/v1 needs agentCli (program, executable, configFolder)']);
    expect(problems({ provider: 'p', family: 'openai-chat/v1', model: 'm' })).toEqual(['models.0.targets.0: an HTTP target needs baseUrl and credentials']);
    expect(problems({ ...cliTarget, agentCli: { ...cliTarget.agentCli, program: 'codex', environment: [], builtInTools: 'read-only' } })).toEqual([
      'models.0.targets.0.agentCli.builtInTools: codex cannot confine read-only tools to its working folder',
    ]);
  });
});
