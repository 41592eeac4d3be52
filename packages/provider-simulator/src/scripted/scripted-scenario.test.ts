import { describe, expect, it } from 'vitest';
import { parseSimulatorScenario, SIMULATOR_SCENARIO_KINDS } from '../scenario.js';

describe('the scripted scenario', () => {
  it('parses with or without a tool name, and is listed', () => {
    expect(parseSimulatorScenario('scripted')).toEqual({ kind: 'scripted', tool: undefined });
    expect(parseSimulatorScenario('scripted.Glob')).toEqual({ kind: 'scripted', tool: 'Glob' });
    expect(parseSimulatorScenario('scripted.mcp__server__read.v2')).toEqual({ kind: 'scripted', tool: 'mcp__server__read.v2' });
    expect(SIMULATOR_SCENARIO_KINDS).toContain('scripted');
  });

  it('is not a scenario with a tool name that could not be one (a model name stays a model name)', () => {
    for (const value of ['scripted.', 'scripted.a b', 'scripted.a/b', `scripted.${'x'.repeat(129)}`]) expect(parseSimulatorScenario(value)).toBeUndefined();
  });
});
