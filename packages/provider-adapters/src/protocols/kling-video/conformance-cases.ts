import type { ProviderDispatchTargetV2 } from '@tokenforge/model-protocol';
import type { ConformanceCaseV1, ConformanceExpectedRequestV1 } from '../../conformance/conformance-case-v1.js';
import { KLING_CREATE_NUMERIC_TASK_ID_BODY } from './__fixtures__/recorded-fixtures.js';

/*
 * Kling has no recorded traffic with a traceable origin: every response here is constructed from §4 of the media
 * wire fact sheet (envelope, task object, error table) and mirrors the files in `__fixtures__/` (see its NOTICE).
 */

const target: ProviderDispatchTargetV2 = {
  provider: 'conformance-provider',
  providerModel: 'kling-conformance-model',
  connectionRef: 'conformance-connection',
  capability: { protocolFamily: 'kling-video/v1', executionMode: 'async-job', taskKinds: ['video-generation'], callbackUrl: true },
};

const TASK_ID = '866889456698785798';
const IMAGE_TASK_ID = '8668894566987857991';
const VIDEO_URL = 'https://cdn.example.com/kling/866889456698785798.mp4';

function createRequest(endpoint: 'text2video' | 'image2video', value: Record<string, unknown>): ConformanceExpectedRequestV1 {
  return { method: 'POST', path: `/v1/videos/${endpoint}`, headers: { accept: 'application/json' }, body: { type: 'json', value: { model_name: 'kling-conformance-model', ...value } } };
}

function getRequest(endpoint: 'text2video' | 'image2video', taskId: string): ConformanceExpectedRequestV1 {
  return { method: 'GET', path: `/v1/videos/${endpoint}/${taskId}`, headers: { accept: 'application/json' }, body: { type: 'none' } };
}

/** Conformance cases of `kling-video/v1` (all constructed; see above). */
export const klingVideoConformanceCases: readonly ConformanceCaseV1[] = [
  {
    name: 'text2video create with idempotency key and callback, then get a succeeded task',
    target,
    task: { kind: 'video-generation', prompt: 'a red fox in snow', idempotencyKey: 'order-42', durationSeconds: 5, aspectRatio: '16:9' },
    providerCallbackUrl: 'https://host.example/kling/callback',
    responses: [
      {
        label: 'create answer, code 0, 18-digit string id (§4)',
        source: 'constructed',
        body: { type: 'json', value: { code: 0, message: 'SUCCEED', request_id: 'req-kling-create-0001', data: { task_id: TASK_ID, task_status: 'submitted', task_info: { external_task_id: 'order-42' }, created_at: 1722769557708, updated_at: 1722769557708 } } },
      },
      {
        label: 'get answer, succeed with one video (§4)',
        source: 'constructed',
        body: {
          type: 'json',
          value: {
            code: 0,
            message: 'SUCCEED',
            request_id: 'req-kling-get-0002',
            data: {
              task_id: TASK_ID,
              task_status: 'succeed',
              task_info: { external_task_id: 'order-42' },
              task_result: { videos: [{ id: 'v1', url: VIDEO_URL, duration: '5' }] },
              final_unit_deduction: '1',
              created_at: 1722769557708,
              updated_at: 1722769712345,
            },
          },
        },
      },
    ],
    expect: { kind: 'accepted-job', responseMetadata: { providerRequestId: 'req-kling-create-0001' }, providerJobId: `text2video:${TASK_ID}` },
    jobSteps: [
      {
        operation: 'get',
        providerJobId: `text2video:${TASK_ID}`,
        expect: {
          kind: 'observation',
          snapshot: {
            providerJobId: `text2video:${TASK_ID}`,
            state: 'succeeded',
            rawState: 'succeed',
            createdAt: '2024-08-04T11:05:57.708Z',
            updatedAt: '2024-08-04T11:08:32.345Z',
            finishedAt: '2024-08-04T11:08:32.345Z',
            idempotencyKey: 'order-42',
            media: [{ type: 'video', url: VIDEO_URL, durationSeconds: 5 }],
            usage: { videoSeconds: 5 },
          },
        },
      },
      { operation: 'cancel', providerJobId: `text2video:${TASK_ID}`, expect: { kind: 'engine-error', code: 'PROTOCOL_ENGINE_CAPABILITY_UNSUPPORTED', phase: 'input', transportBound: false } },
    ],
    requests: [
      createRequest('text2video', { prompt: 'a red fox in snow', aspect_ratio: '16:9', duration: '5', callback_url: 'https://host.example/kling/callback', external_task_id: 'order-42' }),
      getRequest('text2video', TASK_ID),
    ],
  },
  {
    name: 'image2video create, then get a running task on the image2video endpoint (19-digit id)',
    target,
    task: { kind: 'video-generation', image: 'https://img.example/first.png', prompt: 'wind in the trees', mode: 'pro' },
    responses: [
      { label: 'create answer with a 19-digit id (§0, §4)', source: 'constructed', body: { type: 'json', value: { code: 0, message: 'SUCCEED', data: { task_id: IMAGE_TASK_ID, task_status: 'submitted' } } } },
      { label: 'get answer, processing (§4)', source: 'constructed', body: { type: 'json', value: { code: 0, data: { task_id: IMAGE_TASK_ID, task_status: 'processing', created_at: 1722769600000, updated_at: 1722769650000 } } } },
    ],
    expect: { kind: 'accepted-job', providerJobId: `image2video:${IMAGE_TASK_ID}` },
    jobSteps: [
      {
        operation: 'get',
        providerJobId: `image2video:${IMAGE_TASK_ID}`,
        expect: { kind: 'observation', snapshot: { providerJobId: `image2video:${IMAGE_TASK_ID}`, state: 'running', rawState: 'processing', createdAt: '2024-08-04T11:06:40.000Z', updatedAt: '2024-08-04T11:07:30.000Z' } },
      },
    ],
    requests: [createRequest('image2video', { prompt: 'wind in the trees', image: 'https://img.example/first.png', mode: 'pro' }), getRequest('image2video', IMAGE_TASK_ID)],
  },
  {
    name: 'code 1201 inside HTTP 200 is a not-accepted refusal',
    target,
    task: { kind: 'video-generation', prompt: 'p', durationSeconds: 7 },
    responses: [{ label: 'code 1201 in HTTP 200 (§4 edge case 5)', source: 'constructed', body: { type: 'json', value: { code: 1201, message: 'invalid duration', request_id: 'req-kling-err-0007' } } }],
    expect: { kind: 'rejected', acceptance: 'not-accepted', responseMetadata: { providerRequestId: 'req-kling-err-0007' }, failureCode: 'invalid-request', retryable: false },
    requests: [createRequest('text2video', { prompt: 'p', duration: '7' })],
  },
  {
    name: 'connection lost after the create was sent is unknown and not retryable',
    target,
    task: { kind: 'video-generation', prompt: 'p', idempotencyKey: 'order-43' },
    responses: [{ label: 'after-send connection loss', source: 'constructed', failure: { stage: 'after-send', reason: 'connection-lost' } }],
    expect: { kind: 'rejected', acceptance: 'unknown', failureCode: 'network', retryable: false },
    requests: [createRequest('text2video', { prompt: 'p', external_task_id: 'order-43' })],
  },
  {
    name: 'a create answer whose task id is an unquoted JSON number is unknown',
    target,
    task: { kind: 'video-generation', prompt: 'p' },
    responses: [
      { label: 'numeric task_id (§4 edge case 2)', source: 'constructed', body: { type: 'text', text: KLING_CREATE_NUMERIC_TASK_ID_BODY } },
    ],
    expect: { kind: 'rejected', acceptance: 'unknown', responseMetadata: { providerRequestId: 'req-kling-create-0010' }, failureCode: 'protocol-violation', retryable: false },
    requests: [createRequest('text2video', { prompt: 'p' })],
  },
];
