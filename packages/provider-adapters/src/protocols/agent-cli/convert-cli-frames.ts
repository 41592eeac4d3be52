import type { AdapterTerminalOutcomeV3, ChatOutputPartV1, NormalizedProviderFailureV3, NormalizedStreamEventV3, ProviderDiagnosticV3, UsageV3 } from '@tokenforge/model-protocol';
import { ProtocolViolationError, type AdapterStreamMachine, type AdapterStreamStep } from '../../codec-kit/index.js';
import type { CliFrame } from './cli-frame.js';
import type { CliMapping } from './cli-mapping.js';
import type { CliDocument } from './decode-stream.js';
import { mapExit } from './map-error.js';
import { mapAgentCliFinishReason } from './map-finish-reason.js';

type BlockKind = 'text' | 'reasoning';

/**
 * The shared sink: folds a mapping's frames into normalized events (text and reasoning blocks, indices assigned
 * here) and exactly one terminal. Hosted tool activity is the CLI's own, never emitted as a tool call a client must
 * answer, and each call is settled exactly once (the seed's session-sink rule): a repeated result is dropped, a
 * result for a call never announced settles that call, and a call still unsettled when the run ends is settled as
 * failed; each irregularity is reported as a diagnostic. Usage is only what the CLI reported (no frame, no usage). An end without the terminal frame is a
 * failure by how the process ended ({@link mapExit}), never a success.
 */
export class CliFrameFold implements AdapterStreamMachine<CliDocument> {
  private readonly decode: (document: unknown) => readonly CliFrame[];
  private readonly report: ((diagnostic: ProviderDiagnosticV3) => void) | undefined;
  private open: { kind: BlockKind; index: number } | undefined;
  private nextIndex = 0;
  private readonly content: ChatOutputPartV1[] = [];
  private usage: UsageV3 | undefined;
  private failure: NormalizedProviderFailureV3 | undefined;
  private readonly announced = new Set<string>();
  private readonly settled = new Set<string>();
  private failedCalls = 0;
  private settledRun = false;

  private readonly exitFailure: ((exitCode: number) => NormalizedProviderFailureV3 | undefined) | undefined;

  constructor(mapping: Pick<CliMapping, 'createDecoder' | 'exitFailure'>, report?: (diagnostic: ProviderDiagnosticV3) => void) {
    this.decode = mapping.createDecoder();
    this.exitFailure = mapping.exitFailure;
    this.report = report;
  }

  onFrame(item: CliDocument): AdapterStreamStep | undefined {
    if (this.settledRun) throw new ProtocolViolationError('event-after-terminal', 'a CLI document after the terminal frame');
    if (item.kind === 'exit') {
      const documented = item.exit.reason === 'exited' && item.exit.exitCode !== null && item.exit.exitCode !== 0 ? this.exitFailure?.(item.exit.exitCode) : undefined;
      return { terminal: this.endWithoutTerminal(documented ?? mapExit(item.exit)) };
    }
    const events: NormalizedStreamEventV3[] = [];
    for (const frame of this.decode(item.value)) {
      const terminal = this.accept(frame, events);
      if (terminal !== undefined) return { events, terminal };
    }
    return events.length === 0 ? undefined : { events };
  }

  onEnd(): AdapterStreamStep | undefined {
    return { terminal: this.endWithoutTerminal({ code: 'truncated-stream', retryable: true, providerCode: 'agent-cli.truncated' }) };
  }

  usageSoFar(): UsageV3 | undefined {
    return this.usage;
  }

  /** The CLI's own tool calls: how many were announced, settled (each exactly once) and settled as failed. */
  get hostedTools(): { readonly announced: number; readonly settled: number; readonly failed: number } {
    return { announced: this.announced.size, settled: this.settled.size, failed: this.failedCalls };
  }

  /** The chat content folded so far, in block order (for a sync answer). */
  get result(): readonly ChatOutputPartV1[] {
    return this.content;
  }

  private accept(frame: CliFrame, events: NormalizedStreamEventV3[]): AdapterTerminalOutcomeV3 | undefined {
    switch (frame.kind) {
      case 'segment':
        this.close(events);
        return undefined;
      case 'text':
      case 'reasoning':
        if (frame.text.length === 0) return undefined;
        this.append(frame.kind, frame.text, events);
        return undefined;
      case 'hosted-tool-call':
        this.announced.add(frame.id);
        return undefined;
      case 'hosted-tool-result':
        if (this.settled.has(frame.id)) {
          this.diagnostic('a second result for one hosted tool call was dropped');
          return undefined;
        }
        if (!this.announced.has(frame.id)) {
          this.diagnostic('a hosted tool result for a call never announced settled that call');
          this.announced.add(frame.id);
        }
        this.settled.add(frame.id);
        if (frame.isError) this.failedCalls += 1;
        return undefined;
      case 'usage':
        this.usage = frame.usage;
        return undefined;
      case 'error':
        this.failure = frame.failure;
        return undefined;
      case 'settle': {
        this.close(events);
        this.settleOpenCalls();
        const usage = this.usage === undefined ? {} : { usage: this.usage };
        if (frame.failed) return { status: 'failed', failure: this.failure ?? { code: 'provider-error', retryable: false, providerCode: 'agent-cli.failed' }, ...usage };
        return { status: 'completed', result: { kind: 'chat', content: [...this.content] }, finishReason: mapAgentCliFinishReason(frame.stopReason), ...usage, ...(frame.cost === undefined ? {} : { cost: frame.cost }) };
      }
      default: {
        const exhaustive: never = frame;
        return exhaustive;
      }
    }
  }

  private append(kind: BlockKind, text: string, events: NormalizedStreamEventV3[]): void {
    if (this.open?.kind !== kind) {
      this.close(events);
      const index = this.nextIndex++;
      this.open = { kind, index };
      this.content.push(kind === 'text' ? { type: 'text', text: '' } : { type: 'reasoning', text: '' });
      events.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', index });
    }
    const part = this.content[this.content.length - 1] as { text: string };
    part.text += text;
    events.push({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index: this.open.index, delta: text });
  }

  private close(events: NormalizedStreamEventV3[]): void {
    if (this.open === undefined) return;
    events.push({ type: this.open.kind === 'text' ? 'text-end' : 'reasoning-end', index: this.open.index });
    this.open = undefined;
  }

  /** Ends the run once: every hosted call the CLI left unsettled is settled as failed. */
  private settleOpenCalls(): void {
    this.settledRun = true;
    let open = 0;
    for (const id of this.announced) {
      if (this.settled.has(id)) continue;
      this.settled.add(id);
      this.failedCalls += 1;
      open += 1;
    }
    if (open > 0) this.diagnostic('a hosted tool call the CLI never settled was settled as failed');
  }

  private endWithoutTerminal(byExit: NormalizedProviderFailureV3): AdapterTerminalOutcomeV3 {
    this.settleOpenCalls();
    // The CLI's own verdict (not signed in, its error frame) explains a failed exit better than the exit code.
    const failure = this.failure ?? byExit;
    return { status: 'failed', failure, ...(this.usage === undefined ? {} : { usage: this.usage }) };
  }

  private diagnostic(rule: string): void {
    try {
      this.report?.({ code: 'protocol-violation', rule, location: 'agent-cli hosted tool result' });
    } catch {
      // diagnostics never break a run
    }
  }
}
