/**
 * The `openai-embeddings/v1` decoder against its floors: 64 vectors of 1,536 dimensions (a typical batch), once as
 * base64 (`encoding_format: "base64"`, the family's default) and once as JSON number arrays.
 *
 * - base64 floor: `JSON.parse` of the body, then each base64 string into a `Float32Array` with the plainest loop
 *   (`atob`, bytes, a view); decoder: the kit's safe JSON parser plus `decodeOpenAiEmbeddingsResponse` (index
 *   placement, dimension checks, canonical-base64 and finiteness checks). Target: at most 1.2x the floor.
 * - float floor: `JSON.parse` alone; decoder: the safe parser plus the decoder (copies and checks every number).
 *   Target: at most 1.3x the floor.
 *
 * Ratios are paired per round (cases run interleaved), so load shared with other processes cancels out.
 * Run: `npx tsx tools/bench/codecs-embeddings.ts`. Writes
 * tools/bench/results/codecs-embeddings.json.
 */
import { fileURLToPath } from 'node:url';
// The package root does not export these names yet (the lead wires the index); the bench reads the sources.
import { parseSafeJson } from '../../packages/provider-adapters/src/codec-kit/index.js';
import { decodeOpenAiEmbeddingsResponse } from '../../packages/provider-adapters/src/protocols/openai-embeddings/index.js';
import { formatMeasurement, measureInterleaved, pairedRatio, writeResults, type Measurement } from './harness.js';

const VECTORS = 64;
const DIMENSIONS = 1536;
const TARGETS = { base64VsFloor: 1.2, floatVsFloor: 1.3 } as const;

/** A deterministic pseudo-random vector (values like a unit-normalized embedding's). */
function vector(seed: number): Float32Array {
  const values = new Float32Array(DIMENSIONS);
  let state = seed * 2_654_435_761 + 1;
  for (let index = 0; index < DIMENSIONS; index += 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    values[index] = (state / 2_147_483_648 - 0.5) * 0.08;
  }
  return values;
}

function base64Of(values: Float32Array): string {
  let binary = '';
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  for (let index = 0; index < bytes.length; index += 1) binary += String.fromCharCode(bytes[index] as number);
  return btoa(binary);
}

function bodyText(format: 'base64' | 'float'): string {
  const data = Array.from({ length: VECTORS }, (_, index) => {
    const values = vector(index + 1);
    return { object: 'embedding', index, embedding: format === 'base64' ? base64Of(values) : Array.from(values) };
  });
  return JSON.stringify({ object: 'list', data, model: 'text-embedding-3-small', usage: { prompt_tokens: 640, total_tokens: 640 } });
}

/** The plainest base64 to Float32Array: what any decoder must at least do. */
function floorBase64ToFloat32(text: string): Float32Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return new Float32Array(bytes.buffer);
}

let sink = 0;

function decodeWithFamily(text: string): void {
  const decoded = decodeOpenAiEmbeddingsResponse(parseSafeJson(text), { inputCount: VECTORS, dimensions: DIMENSIONS, spaceId: 'bench' });
  if (decoded.terminal.status !== 'completed' || decoded.terminal.result.kind !== 'embedding') throw new Error('the decoder refused the bench body');
  sink += decoded.terminal.result.vectors.length;
}

/** Result of {@link runCodecsEmbeddingsBench}. */
export interface CodecsEmbeddingsBenchResult {
  readonly ratios: { readonly base64VsFloor: number; readonly floatVsFloor: number };
  readonly met: boolean;
  readonly measurements: readonly Measurement[];
  readonly path: string;
}

/** Runs the measurements, prints them, writes the result file and returns the ratios. */
export async function runCodecsEmbeddingsBench(options: { readonly rounds?: number } = {}): Promise<CodecsEmbeddingsBenchResult> {
  const base64Text = bodyText('base64');
  const floatText = bodyText('float');
  const operationsPerRound = 40;
  const rounds = options.rounds ?? 15;
  const measurements = await measureInterleaved(
    [
      {
        name: 'base64 floor: JSON.parse + atob into Float32Array',
        operationsPerRound,
        fn: (operations) => {
          for (let operation = 0; operation < operations; operation += 1) {
            const parsed = JSON.parse(base64Text) as { data: { embedding: string }[] };
            for (const item of parsed.data) sink += floorBase64ToFloat32(item.embedding).length;
          }
        },
      },
      {
        name: 'base64 decoder: safe parse + decodeOpenAiEmbeddingsResponse',
        operationsPerRound,
        fn: (operations) => {
          for (let operation = 0; operation < operations; operation += 1) decodeWithFamily(base64Text);
        },
      },
      {
        name: 'float floor: JSON.parse',
        operationsPerRound,
        fn: (operations) => {
          for (let operation = 0; operation < operations; operation += 1) sink += (JSON.parse(floatText) as { data: unknown[] }).data.length;
        },
      },
      {
        name: 'float decoder: safe parse + decodeOpenAiEmbeddingsResponse',
        operationsPerRound,
        fn: (operations) => {
          for (let operation = 0; operation < operations; operation += 1) decodeWithFamily(floatText);
        },
      },
    ],
    { rounds, warmupRounds: 3 },
  );
  const [base64Floor, base64Decoder, floatFloor, floatDecoder] = measurements as [Measurement, Measurement, Measurement, Measurement];
  const ratios = {
    base64VsFloor: pairedRatio((round) => (base64Decoder.samples[round] as number) / (base64Floor.samples[round] as number), rounds),
    floatVsFloor: pairedRatio((round) => (floatDecoder.samples[round] as number) / (floatFloor.samples[round] as number), rounds),
  };
  const met = ratios.base64VsFloor <= TARGETS.base64VsFloor && ratios.floatVsFloor <= TARGETS.floatVsFloor;
  for (const measurement of measurements) console.log(formatMeasurement(measurement));
  console.log(`base64 decoder / floor: ${ratios.base64VsFloor} (target <= ${TARGETS.base64VsFloor})`);
  console.log(`float decoder / floor:  ${ratios.floatVsFloor} (target <= ${TARGETS.floatVsFloor})`);
  const path = writeResults('codecs-embeddings', {
    target: TARGETS,
    met,
    ratios,
    vectors: VECTORS,
    dimensions: DIMENSIONS,
    bodyBytes: { base64: new TextEncoder().encode(base64Text).length, float: new TextEncoder().encode(floatText).length },
    measurements,
  });
  if (sink === -1) console.log('unreachable');
  return { ratios, met, measurements, path };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await runCodecsEmbeddingsBench();
}
