import type { TaskEnvelopeV2 } from '@tokenforge/model-protocol';
import { describe, expect, it } from 'vitest';
import { createTokenForgeProtocolSuiteV1 } from '../suite/create-protocol-suite-v1.js';
import type { ConformanceCaseMapV1, ConformanceCaseV1 } from './conformance-case-v1.js';
import { runRuntimeConformanceV1 } from './run-runtime-conformance.js';
import {
  chatCapability,
  exampleChatEntry,
  exampleTarget,
  exampleVideoEntry,
  videoCapability,
} from './test-support/example-families.js';

const chatTask = (stream: boolean): TaskEnvelopeV2 => ({
  kind: 'chat',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }],
  stream,
});
const videoTask: TaskEnvelopeV2 = { kind: 'video-generation', prompt: 'a calm sea' };

const chatRequest = (stream: boolean) => ({
  method: 'POST' as const,
  path: '/v1/example/chat',
  headers: { 'content-type': 'application/json' },
  body: { type: 'json' as const, value: { model: 'example-model', prompt: 'hello', stream } },
});

const chatResponseCase: ConformanceCaseV1 = {
  name: 'sync text with usage',
  target: exampleTarget(chatCapability),
  task: chatTask(false),
  responses: [
    {
      label: 'constructed: text and usage',
      source: 'constructed',
      headers: { 'x-request-id': 'req-1' },
      body: { type: 'json', value: { text: 'hi there', usage: { input: 3, output: 2 } } },
    },
  ],
  expect: {
    kind: 'response',
    acceptance: 'accepted',
    responseMetadata: { providerRequestId: 'req-1' },
    terminal: {
      status: 'completed',
      result: { kind: 'chat', content: [{ type: 'text', text: 'hi there' }] },
      finishReason: { unified: 'stop', raw: 'done' },
      usage: { inputTokens: 3, outputTokens: 2 },
    },
  },
  requests: [chatRequest(false)],
};

const chatStreamCase: ConformanceCaseV1 = {
  name: 'stream of text deltas',
  target: exampleTarget(chatCapability),
  task: chatTask(true),
  responses: [{ label: 'constructed: two deltas', source: 'constructed', body: { type: 'json', value: { deltas: ['hi', ' there'] } }, readSize: 3 }],
  expect: {
    kind: 'stream',
    acceptance: 'accepted',
    events: [
      { type: 'text-start', index: 0 },
      { type: 'text-delta', index: 0, delta: 'hi' },
      { type: 'text-delta', index: 0, delta: ' there' },
      { type: 'text-end', index: 0 },
    ],
    terminal: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'hi there' }] }, finishReason: { unified: 'stop', raw: 'done' } },
  },
  requests: [chatRequest(true)],
};

const chatFailureCase: ConformanceCaseV1 = {
  name: 'rate limited',
  target: exampleTarget(chatCapability),
  task: chatTask(false),
  responses: [{ label: 'constructed: 429', source: 'constructed', status: 429, body: { type: 'json', value: {} } }],
  expect: { kind: 'response', acceptance: 'not-accepted', terminal: { status: 'failed', failure: { code: 'rate-limited', retryable: true } } },
  requests: [chatRequest(false)],
};

const videoRequest = {
  method: 'POST' as const,
  path: '/v1/example/jobs',
  headers: { 'content-type': 'application/json' },
  body: { type: 'json' as const, value: { model: 'example-model', prompt: 'a calm sea' } },
};

const videoLifecycleCase: ConformanceCaseV1 = {
  name: 'accepted, polled, cancel refused before binding',
  target: exampleTarget(videoCapability),
  task: videoTask,
  responses: [
    { label: 'constructed: job id', source: 'constructed', body: { type: 'json', value: { id: 'job-1' } } },
    { label: 'constructed: running', source: 'constructed', body: { type: 'json', value: { status: 'running' } } },
    { label: 'constructed: done', source: 'constructed', body: { type: 'json', value: { status: 'done' } } },
  ],
  expect: { kind: 'accepted-job', providerJobId: 'job-1' },
  jobSteps: [
    { operation: 'get', providerJobId: 'job-1', expect: { kind: 'observation', snapshot: { providerJobId: 'job-1', state: 'running' } } },
    { operation: 'get', providerJobId: 'job-1', expect: { kind: 'observation', snapshot: { providerJobId: 'job-1', state: 'succeeded' } } },
    {
      operation: 'cancel',
      providerJobId: 'job-1',
      expect: { kind: 'engine-error', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', phase: 'input', transportBound: false },
    },
    {
      operation: 'list',
      list: { pageNum: 1, pageSize: 10 },
      expect: { kind: 'engine-error', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', phase: 'input', transportBound: false },
    },
  ],
  requests: [
    videoRequest,
    { method: 'GET', path: '/v1/example/jobs/job-1', headers: {}, body: { type: 'none' } },
    { method: 'GET', path: '/v1/example/jobs/job-1', headers: {}, body: { type: 'none' } },
  ],
};

const videoUnknownCase: ConformanceCaseV1 = {
  name: 'connection lost after send: acceptance unknown',
  target: exampleTarget(videoCapability),
  task: videoTask,
  responses: [{ label: 'constructed: lost after send', source: 'constructed', failure: { stage: 'after-send' } }],
  expect: { kind: 'rejected', acceptance: 'unknown', failureCode: 'network', retryable: false },
  requests: [videoRequest],
};

const passingSuite = () => createTokenForgeProtocolSuiteV1({ entries: [exampleChatEntry(), exampleVideoEntry()] });
const passingCases: ConformanceCaseMapV1 = {
  'example-chat/v1': [chatResponseCase, chatStreamCase, chatFailureCase],
  'example-video/v1': [videoLifecycleCase, videoUnknownCase],
};

describe('runRuntimeConformanceV1', () => {
  it('passes a suite whose families all have passing cases, and runs every case', async () => {
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: passingCases });
    expect(report.problems).toEqual([]);
    expect(report.protocolFamilies).toEqual(['example-chat/v1', 'example-video/v1']);
    expect(report.results.map((result) => `${result.protocolFamily} › ${result.name}`)).toEqual([
      'example-chat/v1 › sync text with usage',
      'example-chat/v1 › stream of text deltas',
      'example-chat/v1 › rate limited',
      'example-video/v1 › accepted, polled, cancel refused before binding',
      'example-video/v1 › connection lost after send: acceptance unknown',
    ]);
  });

  it('fails for a registered family without cases', async () => {
    const report = await runRuntimeConformanceV1({
      suite: passingSuite(),
      cases: { 'example-chat/v1': passingCases['example-chat/v1'] ?? [], 'example-video/v1': [] },
    });
    expect(report.problems).toEqual(['example-video/v1: registered in the suite but has no conformance cases']);
    const missingKey = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { 'example-video/v1': [videoUnknownCase] } });
    expect(missingKey.problems).toEqual(['example-chat/v1: registered in the suite but has no conformance cases']);
  });

  it('fails for cases of a family the suite does not register, and for misfiled or duplicate cases', async () => {
    const report = await runRuntimeConformanceV1({
      suite: createTokenForgeProtocolSuiteV1({ entries: [exampleChatEntry()] }),
      cases: { 'example-chat/v1': [chatResponseCase, chatResponseCase, videoUnknownCase], 'example-video/v1': [videoUnknownCase] },
    });
    expect(report.coverageProblems).toEqual([
      'example-chat/v1 › sync text with usage: duplicate case name',
      'example-chat/v1 › connection lost after send: acceptance unknown: target.capability.protocolFamily is example-video/v1',
      'example-video/v1: has conformance cases but the suite does not register it',
    ]);
  });

  it('reports a terminal that differs from the expectation, with its path', async () => {
    const wrong: ConformanceCaseV1 = {
      ...chatResponseCase,
      expect: { ...chatResponseCase.expect, terminal: { status: 'completed', result: { kind: 'chat', content: [{ type: 'text', text: 'bye' }] }, finishReason: { unified: 'stop', raw: 'done' }, usage: { inputTokens: 3, outputTokens: 2 } } } as ConformanceCaseV1['expect'],
    };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-chat/v1': [wrong] } });
    expect(report.problems).toEqual([
      'example-chat/v1 › sync text with usage: execute.terminal.result.content[0].text: expected "bye", got "hi there"',
    ]);
  });

  it('reports stream events that differ, and response metadata the case did not expect', async () => {
    const wrongEvents: ConformanceCaseV1 = {
      ...chatStreamCase,
      expect: { ...chatStreamCase.expect, events: [{ type: 'text-start', index: 0 }] } as ConformanceCaseV1['expect'],
    };
    const { responseMetadata: _omitted, ...withoutMetadata } = chatResponseCase.expect as Extract<ConformanceCaseV1['expect'], { kind: 'response' }>;
    const unexpectedMetadata: ConformanceCaseV1 = { ...chatResponseCase, expect: withoutMetadata };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-chat/v1': [wrongEvents, unexpectedMetadata] } });
    expect(report.problems).toEqual([
      'example-chat/v1 › stream of text deltas: execute.events: expected length 1, got 4',
      'example-chat/v1 › sync text with usage: execute.responseMetadata.providerRequestId: unexpected field "req-1"',
    ]);
  });

  it('reports a request that differs from the one the adapter must send', async () => {
    const wrong: ConformanceCaseV1 = { ...chatResponseCase, requests: [{ ...chatRequest(false), headers: { 'content-type': 'text/plain' } }] };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-chat/v1': [wrong] } });
    expect(report.problems).toEqual([
      'example-chat/v1 › sync text with usage: requests[0].headers.content-type: expected "text/plain", got "application/json"',
    ]);
  });

  it('reports responses the adapter never requested, and bodies it never released', async () => {
    const extra: ConformanceCaseV1 = {
      ...chatResponseCase,
      responses: [...chatResponseCase.responses, { label: 'constructed: unused', source: 'constructed', body: { type: 'json', value: {} } }],
    };
    const leaky: ConformanceCaseV1 = {
      ...chatResponseCase,
      name: 'leaky',
      expect: { kind: 'response', acceptance: 'accepted', terminal: { status: 'completed', result: { kind: 'chat', content: [] }, finishReason: { unified: 'stop' } } },
    };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-chat/v1': [extra] } });
    expect(report.problems).toEqual(['example-chat/v1 › sync text with usage: responses: 1 scripted responses were never requested']);
    const leakReport = await runRuntimeConformanceV1({
      suite: createTokenForgeProtocolSuiteV1({ entries: [exampleChatEntry({ leakBody: true })] }),
      cases: { 'example-chat/v1': [leaky] },
    });
    expect(leakReport.problems).toEqual(['example-chat/v1 › leaky: responses[0]: body left unread, never finished or released']);
  });

  it('fails an adapter that sets a credential header', async () => {
    const report = await runRuntimeConformanceV1({
      suite: createTokenForgeProtocolSuiteV1({ entries: [exampleChatEntry({ extraHeaders: { authorization: 'Bearer planted' } })] }),
      cases: { 'example-chat/v1': [{ ...chatResponseCase, requests: [{ ...chatRequest(false), headers: { 'content-type': 'application/json', authorization: 'Bearer planted' } }] }] },
    });
    expect(report.problems).toEqual(['example-chat/v1 › sync text with usage: requests[0].headers: the adapter set the credential header authorization']);
  });

  it('checks engine errors by code, phase and whether the transport was bound', async () => {
    const boundClaim: ConformanceCaseV1 = {
      ...videoLifecycleCase,
      jobSteps: [
        ...(videoLifecycleCase.jobSteps ?? []).slice(0, 2),
        { operation: 'cancel', providerJobId: 'job-1', expect: { kind: 'engine-error', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', phase: 'input', transportBound: true } },
        { operation: 'cancel', providerJobId: 'job-1', expect: { kind: 'engine-error', code: 'PROTOCOL_ENGINE_TRANSPORT_FAILED', phase: 'transport' } },
        { operation: 'cancel', providerJobId: 'job-1', expect: { kind: 'cancelled' } },
      ],
    };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-video/v1': [boundClaim] } });
    expect(report.problems).toEqual([
      'example-video/v1 › accepted, polled, cancel refused before binding: jobSteps[2] cancel: expected the transport to be bound',
      'example-video/v1 › accepted, polled, cancel refused before binding: jobSteps[3] cancel: expected engine error PROTOCOL_ENGINE_TRANSPORT_FAILED (transport), got engine error PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED (input)',
      'example-video/v1 › accepted, polled, cancel refused before binding: jobSteps[4] cancel: expected cancelled, got engine error PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED (input)',
    ]);
  });

  it('aborts a stream after a number of events and checks the cancelled terminal', async () => {
    const aborted: ConformanceCaseV1 = {
      ...chatStreamCase,
      name: 'aborted stream',
      expect: {
        kind: 'stream',
        acceptance: 'accepted',
        abortAfterEvents: 2,
        events: [
          { type: 'text-start', index: 0 },
          { type: 'text-delta', index: 0, delta: 'hi' },
        ],
        terminal: { status: 'cancelled' },
      },
    };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-chat/v1': [aborted] } });
    expect(report.problems).toEqual([]);
    const drained: ConformanceCaseV1 = { ...aborted, expect: { ...aborted.expect, abortAfterEvents: 99 } as ConformanceCaseV1['expect'] };
    const drainedReport = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-chat/v1': [drained] } });
    expect(drainedReport.problems).toEqual([
      'example-chat/v1 › aborted stream: execute.events: expected length 2, got 4',
      'example-chat/v1 › aborted stream: execute.terminal.status: expected "cancelled", got "completed"',
    ]);
  });

  it('reports an execution kind other than the expected one', async () => {
    const wrong: ConformanceCaseV1 = { ...videoUnknownCase, expect: { kind: 'accepted-job', providerJobId: 'job-1' } };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-video/v1': [wrong] } });
    expect(report.problems).toEqual(['example-video/v1 › connection lost after send: acceptance unknown: execute: expected accepted-job, got rejected']);
  });

  it('reports an engine error where a result was expected', async () => {
    const embeddingOnChat: ConformanceCaseV1 = { ...chatResponseCase, task: { kind: 'embedding', inputs: ['x'] }, responses: [], requests: [] };
    const report = await runRuntimeConformanceV1({ suite: passingSuite(), cases: { ...passingCases, 'example-chat/v1': [embeddingOnChat] } });
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatch(/^example-chat\/v1 › sync text with usage: execute: expected response, got engine error PROTOCOL_ENGINE_TARGET_TASK_MISMATCH \(input\)/);
  });
});
