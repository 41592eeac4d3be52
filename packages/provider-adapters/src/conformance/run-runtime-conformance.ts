import type { ProtocolFamily } from '@tokenforge/model-protocol';
import {
  createProtocolEngineTargetBindingV1,
  createProtocolEngineV1,
  isProtocolEngineErrorV1,
  type ProtocolEngineAdapterRegistryPortV1,
  type ProtocolEngineTargetBindingV1,
  type ProtocolEngineV1,
} from '@tokenforge/protocol-engine';
import { createFixtureTransportV1, type FixtureTransportV1 } from '../testing/fixture-transport.js';
import type {
  ConformanceCaseMapV1,
  ConformanceCaseV1,
  ConformanceEngineErrorExpectationV1,
  ConformanceJobStepV1,
} from './conformance-case-v1.js';
import { describeDifference } from './describe-difference.js';

/** Header names that carry credentials; an adapter must never set them (the host transport does). */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
]);

/** The outcome of one case: no problems means it passed. */
export interface ConformanceCaseResultV1 {
  readonly protocolFamily: ProtocolFamily;
  readonly name: string;
  /** What went wrong, each with a path into the facts. Empty when the case passed. */
  readonly problems: readonly string[];
}

/** The outcome of a conformance run. */
export interface ConformanceReportV1 {
  /** The engine's family snapshot: the authority the run enumerated. */
  readonly protocolFamilies: readonly ProtocolFamily[];
  /** Coverage problems: registered families without cases, cases for unregistered families, misfiled cases. */
  readonly coverageProblems: readonly string[];
  /** Every case that ran, in family then case order. */
  readonly results: readonly ConformanceCaseResultV1[];
  /** Every problem, flattened and prefixed with `family › case`. Empty when the run passed. */
  readonly problems: readonly string[];
}

/** Input of {@link runRuntimeConformanceV1}. */
export interface RunRuntimeConformanceInputV1 {
  /** The suite (or any registry holder) under test. */
  readonly suite: { readonly registry: ProtocolEngineAdapterRegistryPortV1 };
  /** Cases by family. */
  readonly cases: ConformanceCaseMapV1;
}

/**
 * Checks that every family in the engine's snapshot has at least one case, that no cases exist for families the
 * engine does not hold, and that each case is filed under its target's family with a unique name.
 */
export function checkConformanceCoverageV1(protocolFamilies: readonly ProtocolFamily[], cases: ConformanceCaseMapV1): string[] {
  const problems: string[] = [];
  const registered = new Set<string>(protocolFamilies);
  for (const family of protocolFamilies) {
    if ((cases[family]?.length ?? 0) === 0) problems.push(`${family}: registered in the suite but has no conformance cases`);
  }
  for (const [family, familyCases] of Object.entries(cases) as [ProtocolFamily, readonly ConformanceCaseV1[] | undefined][]) {
    if (!registered.has(family)) problems.push(`${family}: has conformance cases but the suite does not register it`);
    const names = new Set<string>();
    for (const conformanceCase of familyCases ?? []) {
      if (names.has(conformanceCase.name)) problems.push(`${family} › ${conformanceCase.name}: duplicate case name`);
      names.add(conformanceCase.name);
      if (conformanceCase.target.capability.protocolFamily !== family) {
        problems.push(`${family} › ${conformanceCase.name}: target.capability.protocolFamily is ${conformanceCase.target.capability.protocolFamily}`);
      }
    }
  }
  return problems;
}

function describeError(error: unknown): string {
  if (isProtocolEngineErrorV1(error)) {
    const cause = (error as { cause?: unknown }).cause;
    const causeText = cause instanceof Error ? `; cause ${cause.name}: ${cause.message}` : '';
    return `engine error ${error.code} (${error.phase})${causeText}`;
  }
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function checkEngineError(
  where: string,
  expected: ConformanceEngineErrorExpectationV1,
  error: unknown,
  bound: boolean,
  problems: string[],
): void {
  if (!isProtocolEngineErrorV1(error)) {
    problems.push(`${where}: expected engine error ${expected.code}, got ${describeError(error)}`);
    return;
  }
  if (error.code !== expected.code || error.phase !== expected.phase) {
    problems.push(`${where}: expected engine error ${expected.code} (${expected.phase}), got ${describeError(error)}`);
  }
  if (expected.transportBound !== undefined && expected.transportBound !== bound) {
    problems.push(`${where}: expected the transport ${expected.transportBound ? 'to be' : 'never to be'} bound`);
  }
}

function compare(where: string, expected: unknown, actual: unknown, problems: string[]): void {
  const difference = describeDifference(expected, actual, where);
  if (difference !== undefined) problems.push(difference);
}

async function runStart(
  engine: ProtocolEngineV1,
  binding: ProtocolEngineTargetBindingV1,
  conformanceCase: ConformanceCaseV1,
  bindCount: () => number,
  problems: string[],
): Promise<void> {
  const expected = conformanceCase.expect;
  const before = bindCount();
  let execution;
  try {
    execution = await engine.execute({
      binding,
      task: conformanceCase.task,
      signal: new AbortController().signal,
      ...(conformanceCase.preparedMedia === undefined ? {} : { preparedMedia: conformanceCase.preparedMedia }),
      ...(conformanceCase.providerCallbackUrl === undefined ? {} : { providerCallbackUrl: conformanceCase.providerCallbackUrl }),
    });
  } catch (error) {
    if (expected.kind === 'engine-error') checkEngineError('execute', expected, error, bindCount() > before, problems);
    else problems.push(`execute: expected ${expected.kind}, got ${describeError(error)}`);
    return;
  }
  if (expected.kind === 'engine-error') {
    problems.push(`execute: expected engine error ${expected.code}, got ${execution.kind}`);
    if (execution.kind === 'stream') execution.abort(new Error('conformance: unexpected stream'));
    return;
  }
  if (execution.kind !== expected.kind) {
    problems.push(`execute: expected ${expected.kind}, got ${execution.kind}`);
    if (execution.kind === 'stream') execution.abort(new Error('conformance: unexpected stream'));
    return;
  }
  compare('execute.responseMetadata', expected.responseMetadata ?? {}, execution.responseMetadata, problems);
  switch (expected.kind) {
    case 'response':
      if (execution.kind !== 'response') return;
      compare('execute.acceptance.state', expected.acceptance, execution.acceptance.state, problems);
      compare('execute.terminal', expected.terminal, execution.terminal, problems);
      return;
    case 'stream': {
      if (execution.kind !== 'stream') return;
      compare('execute.acceptance.state', expected.acceptance, execution.acceptance.state, problems);
      const events: unknown[] = [];
      try {
        for await (const event of execution.events) {
          events.push(event);
          if (events.length === expected.abortAfterEvents) {
            execution.abort(new Error('conformance: abort after events'));
            break;
          }
        }
      } catch (error) {
        problems.push(`execute.events: iteration failed: ${describeError(error)}`);
        execution.abort(error);
      }
      compare('execute.events', expected.events, events, problems);
      try {
        compare('execute.terminal', expected.terminal, await execution.terminal, problems);
      } catch (error) {
        problems.push(`execute.terminal: rejected: ${describeError(error)}`);
      }
      return;
    }
    case 'accepted-job':
      if (execution.kind !== 'accepted-job') return;
      compare('execute.providerJobId', expected.providerJobId, execution.providerJobId, problems);
      return;
    case 'rejected':
      if (execution.kind !== 'rejected') return;
      compare(
        'execute',
        { acceptance: expected.acceptance, failureCode: expected.failureCode, retryable: expected.retryable },
        { acceptance: execution.acceptance.state, failureCode: execution.failureCode, retryable: execution.retryable },
        problems,
      );
      return;
    default: {
      const unknownExpectation: never = expected;
      problems.push(`execute: unknown expectation ${String((unknownExpectation as { kind?: unknown }).kind)}`);
    }
  }
}

async function runJobStep(
  engine: ProtocolEngineV1,
  binding: ProtocolEngineTargetBindingV1,
  step: ConformanceJobStepV1,
  stepIndex: number,
  bindCount: () => number,
  problems: string[],
): Promise<void> {
  const where = `jobSteps[${stepIndex}] ${step.operation}`;
  const signal = new AbortController().signal;
  const before = bindCount();
  try {
    switch (step.operation) {
      case 'get': {
        const observation = await engine.jobs.get({ binding, providerJobId: step.providerJobId, signal });
        if (step.expect.kind === 'observation') compare(`${where}.snapshot`, step.expect.snapshot, observation.snapshot, problems);
        else problems.push(`${where}: expected engine error ${step.expect.code}, got an observation`);
        return;
      }
      case 'list': {
        const page = await engine.jobs.list({ binding, ...step.list, signal });
        if (step.expect.kind === 'page') {
          const { kind: _kind, ...expectedPage } = step.expect;
          const { apiVersion: _apiVersion, ...actualPage } = page;
          compare(where, expectedPage, actualPage, problems);
        } else problems.push(`${where}: expected engine error ${step.expect.code}, got a page`);
        return;
      }
      case 'cancel': {
        await engine.jobs.cancel({ binding, providerJobId: step.providerJobId, signal });
        if (step.expect.kind !== 'cancelled') problems.push(`${where}: expected engine error ${step.expect.code}, got a cancellation`);
        return;
      }
      default: {
        const unknownStep: never = step;
        problems.push(`${where}: unknown operation ${String((unknownStep as { operation?: unknown }).operation)}`);
      }
    }
  } catch (error) {
    if (step.expect.kind === 'engine-error') checkEngineError(where, step.expect, error, bindCount() > before, problems);
    else problems.push(`${where}: expected ${step.expect.kind}, got ${describeError(error)}`);
  }
}

function checkTransport(transport: FixtureTransportV1, conformanceCase: ConformanceCaseV1, problems: string[]): void {
  transport.requests.forEach((request, index) => {
    for (const name of Object.keys(request.headers)) {
      if (CREDENTIAL_HEADERS.has(name.toLowerCase())) problems.push(`requests[${index}].headers: the adapter set the credential header ${name}`);
    }
  });
  compare('requests', conformanceCase.requests, transport.requests, problems);
  if (transport.remaining > 0) problems.push(`responses: ${transport.remaining} scripted responses were never requested`);
  transport.bodyStates().forEach((state, index) => {
    if (state === 'unread' || state === 'reading') problems.push(`responses[${index}]: body left ${state}, never finished or released`);
  });
}

/**
 * Runs one case through the public engine API only: a target binding over a fixture transport, `engine.execute`,
 * then each job step on the same binding. Returns the problems found (empty when the case passed). Never throws for
 * a failing case.
 */
export async function runConformanceCaseV1(engine: ProtocolEngineV1, conformanceCase: ConformanceCaseV1): Promise<string[]> {
  const problems: string[] = [];
  let transport: FixtureTransportV1;
  try {
    transport = createFixtureTransportV1({ responses: conformanceCase.responses });
  } catch (error) {
    return [`responses: ${describeError(error)}`];
  }
  let binds = 0;
  const binding = createProtocolEngineTargetBindingV1({
    target: conformanceCase.target,
    bindTransport: () => {
      binds += 1;
      return transport;
    },
  });
  const bindCount = (): number => binds;
  await runStart(engine, binding, conformanceCase, bindCount, problems);
  for (const [stepIndex, step] of (conformanceCase.jobSteps ?? []).entries()) {
    await runJobStep(engine, binding, step, stepIndex, bindCount, problems);
  }
  checkTransport(transport, conformanceCase, problems);
  return problems;
}

/**
 * The conformance harness: builds an engine over the suite's registry, enumerates `engine.protocolFamilies`,
 * checks coverage, and runs every case of every registered family.
 */
export async function runRuntimeConformanceV1(input: RunRuntimeConformanceInputV1): Promise<ConformanceReportV1> {
  const engine = createProtocolEngineV1({ registry: input.suite.registry });
  const coverageProblems = checkConformanceCoverageV1(engine.protocolFamilies, input.cases);
  const results: ConformanceCaseResultV1[] = [];
  for (const protocolFamily of engine.protocolFamilies) {
    for (const conformanceCase of input.cases[protocolFamily] ?? []) {
      results.push({ protocolFamily, name: conformanceCase.name, problems: await runConformanceCaseV1(engine, conformanceCase) });
    }
  }
  const problems = [
    ...coverageProblems,
    ...results.flatMap((result) => result.problems.map((problem) => `${result.protocolFamily} › ${result.name}: ${problem}`)),
  ];
  return { protocolFamilies: engine.protocolFamilies, coverageProblems, results, problems };
}
