import type {
  AdapterTerminalOutcomeV4,
  NormalizedStreamEventV4,
  ProtocolCapabilityV3,
  ProviderAcceptanceFacts,
  TaskEnvelopeV4,
} from '@tokenforge/model-protocol';
import { checkTerminal, outputInvalid } from '../../validation/v1/check-adapter-output.js';
import { checkStreamEvent } from '../../validation/v1/check-stream-event.js';
import type { OutputSchemaCheck } from '../../validation/v3/output-schema-check.js';
import { StreamLifecycle } from './stream-lifecycle.js';

/**
 * The checks every adapter part passes before the host sees it: the event schema and the stream lifecycle for an
 * event; for the terminal part, its schema against the task and capability, the lifecycle's end rules and the
 * acceptance facts, then the task's output-schema check when it asked for a JSON schema. `check` returns the event, or `undefined` for a valid terminal (read `outcome`), and throws a
 * `ProtocolEngineErrorV1` (`PROTOCOL_ENGINE_ADAPTER_OUTPUT_INVALID`) for anything else. Allocates nothing beyond what the checks copy.
 */
export class StreamPartCheck {
  private readonly lifecycle = new StreamLifecycle();
  /** The terminal outcome, once `check` accepted one. */
  outcome: AdapterTerminalOutcomeV4 | undefined;

  constructor(
    private readonly task: TaskEnvelopeV4,
    private readonly capability: ProtocolCapabilityV3,
    private readonly acceptance: ProviderAcceptanceFacts,
    private readonly outputSchemaCheck?: OutputSchemaCheck,
  ) {}

  /** Checks one iterator step: a step that is not an object, or `done` before the terminal, is invalid. */
  checkStep(step: unknown): NormalizedStreamEventV4 | undefined {
    if (typeof step !== 'object' || step === null) throw outputInvalid('the parts iterator returned a non-object step');
    const { done, value } = step as IteratorResult<unknown>;
    if (done === true) throw outputInvalid('the stream ended without a terminal part');
    return this.check(value);
  }

  /** Checks one part. */
  check(value: unknown): NormalizedStreamEventV4 | undefined {
    if (typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'terminal') {
      this.outcome = this.checkTerminalPart(value);
      return undefined;
    }
    const event = checkStreamEvent(value);
    if (event === undefined) throw outputInvalid('a stream event is malformed');
    const problem = this.lifecycle.accept(event);
    if (problem !== undefined) throw outputInvalid(problem);
    return event;
  }

  private checkTerminalPart(value: object): AdapterTerminalOutcomeV4 {
    for (const key in value) {
      if (key !== 'type' && key !== 'outcome') throw outputInvalid('the terminal part has an undeclared field');
    }
    const outcome = checkTerminal((value as { outcome?: unknown }).outcome, this.task, this.capability);
    const problem = this.lifecycle.checkTerminal(outcome);
    if (problem !== undefined) throw outputInvalid(problem);
    if (outcome.status === 'completed' && this.acceptance.state !== 'accepted') {
      throw outputInvalid('a completed terminal needs accepted acceptance facts');
    }
    // The streamed text already went out: a mismatch can only fail the terminal (the host's in-stream error).
    return this.outputSchemaCheck === undefined ? outcome : this.outputSchemaCheck(outcome);
  }
}
